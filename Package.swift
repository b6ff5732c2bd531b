// swift-tools-version: 6.0
// Mapwright: a map-rendering engine and tile CLI for Linux.
//
// Targets, in dependency order (each depends only on targets above it; docs/architecture.md
// says the same, one line per target):
//
//   MapCore                          pure Swift: coordinates, Web Mercator, tiles, camera and fly-over paths, geodesy, clustering
//   MapUtilities     <- CZlib        FNV-1a, MD5, CRC-32, gzip, varints, atomic writes and plain file reads, outside programs run, display paths, byte counts, data locations, edit distance
//   MapJSON                          one JSON value with paths, lines and columns                (MapUtilities)
//   MapProjection    <- CProj        PROJ (opened on first use, CLibraryLoader): transforms between any two CRS; GeoJSON's legacy crs  (MapCore, MapJSON)
//   ImageCodec       <- CPNGShim <- CPNG, CDeflate, CISAL; CTurboJPEG: PNG/JPEG reading and writing, palettes, animated PNG  (MapUtilities)
//   ImageCompare                     pixelmatch comparison                                      (ImageCodec, MapUtilities)
//   MapTestSupport                   tests only: snapshot assertions, temporary folders, Python environments, seeded random numbers, a loopback tile server  (ImageCodec, ImageCompare, MapCore, MapUtilities)
//   MapSQLite        <- CSQLite      SQLite connections and statements
//   GeoData                          GeoJSON, GPX, WKB, GeoPackage (any CRS, through PROJ); features prepared per zoom  (MapCore, MapSQLite, MapJSON, MapUtilities, MapProjection)
//   PhotoSources     <- CExif, CHeif photo files (JPEG, HEIC, TIFF-based raw) and GPX waypoints into `Photo`s; thumbnails  (MapCore, MapJSON, MapUtilities, GeoData, MapProjection, ImageCodec)
//   PhotoLibrary                     photographers and photos in SQLite, versioned              (PhotoSources, MapSQLite)
//   MapStyle                         MapLibre style subset                                      (MapCore, MapJSON, MapUtilities)
//   TileSources                      the TileSource protocol: tiles by address, format-neutral TileMetadata, TileFormat  (MapCore)
//   MBTiles                          MBTiles 1.3 files (a TileSource): flat and deduplicated, batch writer, info/validate/merge  (TileSources, MapCore, MapSQLite, MapUtilities)
//   PMTiles                          PMTiles v3 archives: reader (a TileSource), streaming writer  (TileSources, MapCore, MapJSON, MapUtilities)
//   VectorTiles                      Mapbox Vector Tile 2.1 decoding, tile to map points        (MapCore, MapUtilities)
//   FontGlyphs       <- CFreeType    SDF glyph ranges made from installed fonts as node-fontnik makes them (fontconfig's faces named "Family Style", FreeType outlines, signed distances), kept in memory and on disk  (VectorTiles, MapUtilities)
//   Tilesets         <- CCurl        every TileSource opened one way at run time (TileSourceLocation: a file of either format or a remote PMTiles archive read by HTTP ranges, or URL templates fetched over HTTP into a cache, through libcurl opened on first use; several read as one)  (TileSources, MBTiles, MapSQLite, PMTiles)
//   TilesetTools                     the `tiles` file tools: write either format through a work file, convert, merge, extract, import/folders, diff, info/validate  (Tilesets, MBTiles, PMTiles, MapJSON, ImageCodec, ImageCompare)
//   MapData          <- CCairo, CRsvg  the map's data, opened once and shared: sources (GeoPackage, GeoJSON), vector tiles decoded and cached, raster tiles and images decoded, sprites (SVG folders through librsvg) and glyphs loaded, cluster indexes, places, skipped-data warnings, attribution  (GeoData, MapStyle, TileSources, Tilesets, VectorTiles, ImageCodec)
//   MapRenderer      <- CCairo, CRaster  Cairo/Pango/fontconfig renderer: canvas, lines, fills, text, labels, perspective, style painting, snapshots, tiles, the marker layer it draws on top (a protocol); per-pixel loops in C  (MapData, GeoData, MapStyle, VectorTiles, ImageCodec)
//   MapComposer      <- CCairo        a photographer's map: annotations drawn (pins, marker images, clusters, the callout: the renderer's marker layer), photos, overlays, framing  (MapData, MapRenderer, PhotoSources)
//   TileExport                       batch export of rendered tiles: parallel, resumable, shardable  (MapRenderer, TilesetTools)
//   RequestHeads                     HTTP/1.1 request heads read from their bytes for serve's kept-tile fast path; fuzzed on its own  (swift-nio's NIOCore)
//   MapServer                        `mapwright serve`: tiles on demand through a cache, TileJSON, static maps, annotations, TileServer GL's data, styles and fonts over HTTP  (MapComposer, MapData, Tilesets, MBTiles, VectorTiles, FontGlyphs, RequestHeads; Hummingbird, swift-http-types, swift-nio, swift-nio-extras, swift-log, swift-metrics, swift-prometheus, swift-service-lifecycle)
//   MapAssembly                      a map's inputs assembled: data folders by option, a style with its data, places, photos, overlays, content fingerprints, the map `render` writes, the flight `flyover` renders, the clusters `cluster` answers, `compare`'s comparison, `photos import`, the export `tiles export` runs, what `serve` serves and its run until a signal, the registered basemaps and DEMs  (MapComposer, MapData, MapServer, FontGlyphs, PhotoLibrary, TileExport, Tilesets, TilesetTools; Hummingbird, swift-log, swift-service-lifecycle)
//   MapCLI                           the commands: options mapped to MapAssembly, results printed  (everything above that it imports; ArgumentParser)
//   mapwright                        the executable                                             (MapCLI)
//   RenderConformance                the GL render-test suite's runner, in Conformance/ beside its ignore list  (MapStyle, MapData, MapRenderer, MapCore, MapJSON, ImageCodec, ImageCompare)
//
// MapTestSupport is for this package's tests only: it is not a product. The benchmarks are a
// package of their own, Benchmarks/Package.swift, which depends on this one by path. The
// conformance runner is an executable of this package, so that CI builds the package in release
// once (`swift build -c release -Xswiftc -enable-testing --build-tests`, then the tests with
// `--skip-build`) and the reliability checks and the runner use that build. C libraries come in through small system-library targets resolved with
// pkg-config.

import PackageDescription

/// Every target's Swift settings: existentials spelled `any`, and imports kept honest (a file
/// imports each module whose members it uses, and imports publicly only what its public API shows).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Mapwright",
    products: [
        .executable(name: "mapwright", targets: ["mapwright"]),
        .library(name: "MapCore", targets: ["MapCore"]),
        .library(name: "MapUtilities", targets: ["MapUtilities"]),
        .library(name: "MapJSON", targets: ["MapJSON"]),
        .library(name: "MapProjection", targets: ["MapProjection"]),
        .library(name: "ImageCodec", targets: ["ImageCodec"]),
        .library(name: "ImageCompare", targets: ["ImageCompare"]),
        .library(name: "MapSQLite", targets: ["MapSQLite"]),
        .library(name: "GeoData", targets: ["GeoData"]),
        .library(name: "PhotoSources", targets: ["PhotoSources"]),
        .library(name: "PhotoLibrary", targets: ["PhotoLibrary"]),
        .library(name: "MapStyle", targets: ["MapStyle"]),
        .library(name: "TileSources", targets: ["TileSources"]),
        .library(name: "MBTiles", targets: ["MBTiles"]),
        .library(name: "PMTiles", targets: ["PMTiles"]),
        .library(name: "VectorTiles", targets: ["VectorTiles"]),
        .library(name: "FontGlyphs", targets: ["FontGlyphs"]),
        .library(name: "MapData", targets: ["MapData"]),
        .library(name: "MapRenderer", targets: ["MapRenderer"]),
        .library(name: "MapComposer", targets: ["MapComposer"]),
        .library(name: "Tilesets", targets: ["Tilesets"]),
        .library(name: "TilesetTools", targets: ["TilesetTools"]),
        .library(name: "TileExport", targets: ["TileExport"]),
        .library(name: "RequestHeads", targets: ["RequestHeads"]),
        .library(name: "MapServer", targets: ["MapServer"]),
        .library(name: "MapAssembly", targets: ["MapAssembly"]),
        .library(name: "MapCLI", targets: ["MapCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // MARK: - Foundations

        /// Coordinates, regions, Web Mercator map space, tiles, geodesy, the camera and viewport,
        /// annotation clustering. Foundation only: no C dependency.
        .target(name: "MapCore", swiftSettings: swiftSettings),
        .testTarget(name: "MapCoreTests", dependencies: ["MapCore", "MapTestSupport"], swiftSettings: swiftSettings),

        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        /// Small helpers every other target may use, each written once: the FNV-1a hash for names
        /// that outlive a process, gzip through zlib (`CZlib`), protobuf varints, atomic file writes,
        /// paths for messages, byte counts for people, where Mapwright's data and caches are, outside
        /// programs run with their output drained.
        .target(name: "MapUtilities", dependencies: ["CZlib"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MapUtilitiesTests", dependencies: ["MapUtilities", "MapTestSupport"], swiftSettings: swiftSettings),

        /// One JSON value type for the readers that walk documents and report problems by path.
        .target(name: "MapJSON", dependencies: ["MapUtilities"], swiftSettings: swiftSettings),
        .testTarget(name: "MapJSONTests", dependencies: ["MapJSON", "MapTestSupport"], swiftSettings: swiftSettings),

        // MARK: - Projections (PROJ)

        /// Shared libraries opened on first use instead of at start-up (PROJ, libheif, librsvg):
        /// the C targets wrapping them define the functions they call as trampolines over it.
        .target(name: "CLibraryLoader"),
        /// PROJ (`libproj-dev`), loaded on first use.
        .target(name: "CProj", dependencies: ["CLibraryLoader"]),
        /// Coordinate transforms between any two CRS, over the PROJ C API.
        .target(name: "MapProjection", dependencies: ["CProj", "MapCore", "MapJSON"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MapProjectionTests",
            dependencies: ["MapProjection", "MapCore", "CProj", "MapTestSupport"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Images

        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        /// libpng's setjmp/longjmp error handling, wrapped in C so Swift sees error codes and
        /// messages; PNG writing with rows filtered in C and deflated by libdeflate (`libdeflate-dev`), or
        /// at level 1 by ISA-L in bands at once.
        .target(name: "CPNGShim", dependencies: ["CPNG", "CDeflate", "CISAL"]),
        .systemLibrary(
            name: "CDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        /// ISA-L's igzip (`libisal-dev`): PNG level 1, deflated in bands at once.
        .systemLibrary(
            name: "CISAL",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        /// Image codecs: PNG and JPEG reading and writing as RGBA8 (the one codec path of the
        /// package), palette quantization. What photos, the renderer and tiles use.
        .target(
            name: "ImageCodec",
            dependencies: ["CPNGShim", "CTurboJPEG", "MapUtilities"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ImageCodecTests",
            dependencies: ["ImageCodec", "ImageCompare", "MapTestSupport", "MapUtilities"],
            swiftSettings: swiftSettings
        ),
        /// Image comparison: pixelmatch's algorithm on decoded images, with a diff image.
        .target(name: "ImageCompare", dependencies: ["ImageCodec", "MapUtilities"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ImageCompareTests",
            dependencies: ["ImageCompare", "ImageCodec"],
            swiftSettings: swiftSettings
        ),
        /// For this package's tests only (not a product): snapshot assertions for render tests
        /// (Swift Testing and XCTest), temporary folders, the checkout's folders for tests, Python
        /// environments with outside reference packages, and a seeded random generator.
        .target(
            name: "MapTestSupport", dependencies: ["ImageCodec", "ImageCompare", "MapCore", "MapUtilities"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "MapTestSupportTests",
            dependencies: ["MapTestSupport", "ImageCodec"],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Geographic data

        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        /// A small SQLite wrapper: connections, prepared statements, typed columns, transactions.
        /// Shared by the GeoPackage reader and the MBTiles tile store.
        .target(name: "MapSQLite", dependencies: ["CSQLite"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MapSQLiteTests", dependencies: ["MapSQLite", "MapTestSupport"], swiftSettings: swiftSettings),
        /// Vector features: GeoJSON, GPX, WKB and GeoPackage readers, spatially indexed feature
        /// sources, and geometry prepared per zoom (projected, simplified, clipped) for the renderer.
        .target(
            name: "GeoData", dependencies: ["MapCore", "MapSQLite", "MapJSON", "MapUtilities", "MapProjection"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "GeoDataTests",
            dependencies: ["GeoData", "MapSQLite", "MapCore", "MapJSON", "MapTestSupport"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Photos

        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        /// libheif (`libheif-dev`): HEIC/HEIF photos' Exif blocks and pixels; loaded on first use.
        .target(name: "CHeif", dependencies: ["CLibraryLoader"]),
        /// Photo sources (a folder of geotagged JPEG, HEIC and TIFF-based raw photos, Flickr-style
        /// JSON, GeoJSON, CSV, GPX waypoints) read into one `Photo` model, and callout thumbnails
        /// (JPEGs decoded at reduced scale, HEIC through libheif, raw files' embedded previews) in a user cache.
        .target(
            name: "PhotoSources",
            dependencies: [
                "MapCore", "MapJSON", "MapUtilities", "GeoData", "MapProjection", "CExif", "CHeif", "ImageCodec",
            ],
            swiftSettings: swiftSettings
        ),
        /// Test JPEGs are made by the tests themselves: pixels through libjpeg-turbo, EXIF written byte by byte.
        .testTarget(
            name: "PhotoSourcesTests",
            dependencies: ["PhotoSources", "MapCore", "MapUtilities", "CTurboJPEG", "MapTestSupport"],
            swiftSettings: swiftSettings
        ),
        /// Photographers and photos in one SQLite file (Photomania's model): versioned schema,
        /// import by id, add with validation, removal with files, bounding-box queries.
        .target(
            name: "PhotoLibrary",
            dependencies: ["PhotoSources", "MapSQLite", "MapCore", "MapUtilities", "ImageCodec"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotoLibraryTests",
            dependencies: [
                "PhotoLibrary", "PhotoSources", "MapSQLite", "MapCore", "MapTestSupport", "ImageCodec", "MapUtilities",
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Styles

        /// A documented subset of the MapLibre Style Specification, plus Mapwright's own section for
        /// pins, callouts and overlays. Pure Swift.
        .target(name: "MapStyle", dependencies: ["MapCore", "MapJSON", "MapUtilities"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MapStyleTests", dependencies: ["MapStyle", "MapCore", "MapJSON"], swiftSettings: swiftSettings),

        // MARK: - Tiles

        /// Encoded tiles by tile address wherever they come from: the `TileSource` protocol every
        /// tile file and the HTTP tile source conform to (a tile at an address, several at once,
        /// `TileMetadata` that no format owns, every tile in file order), and `TileFormat`.
        .target(name: "TileSources", dependencies: ["MapCore"], swiftSettings: swiftSettings),
        .testTarget(name: "TileSourcesTests", dependencies: ["TileSources", "MapCore"], swiftSettings: swiftSettings),
        /// Encoded tiles by tile address: the MBTiles 1.3 store (raster cache, export target, what
        /// the tile server serves) in the flat and the deduplicated (normalized) layouts, its batch
        /// writer, `agg_tiles_hash`, info, validation and merging. The store is a `TileSource`.
        .target(
            name: "MBTiles", dependencies: ["TileSources", "MapCore", "MapSQLite", "MapUtilities"],
            swiftSettings: swiftSettings),
        /// Checks files against outside tools when they are installed: Python's sqlite3 and hashlib,
        /// gdalinfo (gdal-bin), mbutil (pip-installed into a temporary virtual environment).
        .testTarget(
            name: "MBTilesTests",
            dependencies: [
                "MBTiles", "TileSources", "MapSQLite", "MapCore", "MapUtilities", "ImageCodec", "MapTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        /// PMTiles v3 archives (one file of tiles, read with range requests): a reader safe for
        /// concurrent lookups and a streaming writer that takes tiles in any order and writes a
        /// clustered, deduplicated archive; gzip directories through MapUtilities' `Gzip`.
        .target(
            name: "PMTiles", dependencies: ["TileSources", "MapCore", "MapJSON", "MapUtilities"],
            swiftSettings: swiftSettings),
        /// Archives made in the tests; the PyPI `pmtiles` package, in its own virtual environment,
        /// reads ours and writes one for us to read.
        .testTarget(
            name: "PMTilesTests",
            dependencies: ["PMTiles", "TileSources", "MapCore", "MapJSON", "MapUtilities", "MapTestSupport"],
            swiftSettings: swiftSettings
        ),
        /// Mapbox Vector Tiles 2.1 decoded (raw, gzip or zlib) by a small hand-written protocol
        /// buffer reader into layers, features, properties and tile-coordinate geometry, and that
        /// geometry placed in map points; damaged or hostile tiles are a `VectorTileError`.
        .target(name: "VectorTiles", dependencies: ["MapCore", "MapUtilities"], swiftSettings: swiftSettings),
        /// Tiles built byte by byte by a small protobuf encoder in the tests; PyPI's
        /// `mapbox-vector-tile`, in its own virtual environment, encodes tiles for us to read and
        /// reads ours.
        .testTarget(
            name: "VectorTilesTests",
            dependencies: ["VectorTiles", "MapCore", "MapUtilities", "MapJSON", "MapTestSupport"],
            swiftSettings: swiftSettings
        ),
        /// FreeType (`libfreetype-dev`) and fontconfig (`libfontconfig-dev`), both installed with
        /// `libcairo2-dev`, for FontGlyphs alone: CCairo holds fontconfig for the renderer.
        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev", "libfontconfig-dev"])]
        ),
        /// SDF glyph ranges (`{fontstack}/{range}.pbf`) made from installed fonts as node-fontnik
        /// makes them: faces found by fontconfig and named as GL styles name them, outlines read
        /// by FreeType, signed distances computed to their segments, kept in memory and on disk.
        .target(
            name: "FontGlyphs", dependencies: ["CFreeType", "VectorTiles", "MapUtilities"],
            swiftSettings: swiftSettings),
        /// Ranges generated from the installed Open Sans compared with the GL render-test suite's,
        /// made by Mapbox's generator.
        .testTarget(
            name: "FontGlyphsTests",
            dependencies: ["FontGlyphs", "VectorTiles", "MapTestSupport"],
            swiftSettings: swiftSettings
        ),
        // MARK: - Tilesets

        /// Every tile source opened one way at run time (`TileSourceLocation`): tileset files,
        /// MBTiles and PMTiles alike, told apart by their first bytes; PMTiles archives on web
        /// servers read by range requests into an SQLite cache; tile URL templates fetched over
        /// HTTP into an MBTiles cache; several sources read as one; a style's files fetched by URL.
        /// One error, `TilesetsError`. Tests fetch from a real server on loopback.
        .target(
            name: "Tilesets",
            dependencies: ["MapCore", "MapUtilities", "TileSources", "MBTiles", "MapSQLite", "PMTiles", "CCurl"],
            swiftSettings: swiftSettings
        ),
        /// HTTP GET through libcurl, opened on first use (CLibraryLoader): linked, libcurl and
        /// its TLS libraries cost every command ~11 ms of start-up.
        .target(name: "CCurl", dependencies: ["CLibraryLoader"]),
        .testTarget(
            name: "TilesetsTests",
            dependencies: [
                "Tilesets", "TilesetTools", "TileSources", "MBTiles", "PMTiles", "MapCore", "ImageCodec",
                "MapTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        /// The file tools behind `mapwright tiles`, on tilesets opened by Tilesets: writing either
        /// format through a work file that an interrupted run resumes (`TilesetWriter`), convert,
        /// merge, extract a region, a folder of z/x/y tiles to and from a tileset, diff (pixels
        /// compared by ImageCompare), info and validate. One error, `TilesetToolsError`.
        .target(
            name: "TilesetTools",
            dependencies: [
                "Tilesets", "TileSources", "MBTiles", "PMTiles", "MapCore", "MapJSON", "MapUtilities", "ImageCodec",
                "ImageCompare",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TilesetToolsTests",
            dependencies: [
                "TilesetTools", "Tilesets", "TileSources", "MBTiles", "PMTiles", "MapCore", "ImageCodec",
                "MapTestSupport", "MapUtilities",
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Rendering

        /// Cairo (image, PDF, SVG surfaces), Pango text through pangocairo, and fontconfig with
        /// Pango's fontconfig font map, in one module: pangocairo's headers include cairo's, and two
        /// modules owning the same C types would clash.
        /// librsvg (`librsvg2-dev`), for sprites made from a folder of SVG icons; loaded on first use.
        .target(name: "CRsvg", dependencies: ["CLibraryLoader"]),
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        /// The map's data, opened once and shared by every render (`MapData`, one lock): GeoPackage
        /// and GeoJSON sources, vector tiles decoded and cached, raster tiles and images decoded
        /// (from any `TileSource` opened by Tilesets), sprites (SVG folders drawn by librsvg) and SDF
        /// glyph ranges loaded, cluster indexes, places, skipped-data warnings and attribution; it
        /// throws its own `MapDataError`. The renderer reads it through `package` methods.
        .target(
            name: "MapData",
            dependencies: [
                "MapCore", "MapJSON", "MapStyle", "MapUtilities", "GeoData", "ImageCodec", "TileSources", "Tilesets",
                "VectorTiles", "CCairo", "CRsvg",
            ],
            swiftSettings: swiftSettings
        ),
        /// Places looked up in the bundled basemap; raster tiles from MBTiles and PMTiles files made
        /// in the tests, and over HTTP from a real server on loopback.
        .testTarget(
            name: "MapDataTests",
            dependencies: [
                "MapData", "TileSources", "MBTiles", "PMTiles", "Tilesets", "TilesetTools", "MapStyle", "MapCore",
                "ImageCodec", "MapTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        /// Draws maps: style layers from vector data, labels placed without collisions, overlays,
        /// pins and callouts; the one renderer behind images and tiles. Reads its data from MapData.
        .target(
            name: "MapRenderer",
            dependencies: [
                "MapCore", "MapJSON", "MapStyle", "MapUtilities", "GeoData", "ImageCodec", "MapData", "VectorTiles",
                "CCairo", "CRaster",
            ],
            swiftSettings: swiftSettings
        ),
        /// The renderer's per-pixel loops in C, on vector units (AVX2 where the CPU has it):
        /// solid line coverage, coverage to A8, premultiplied to straight alpha; byte for byte
        /// what the scalar arithmetic gives.
        .target(name: "CRaster"),
        .testTarget(
            name: "MapRendererTests",
            dependencies: [
                "MapRenderer", "MapData", "MapComposer", "MapTestSupport", "MapStyle", "MapJSON", "MapUtilities",
                "GeoData",
                "ImageCodec", "ImageCompare", "MapCore", "TileSources", "MBTiles", "Tilesets", "TilesetTools",
                "VectorTiles", "CCairo",
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),
        /// A photographer's map: photos as pins with a selected callout, tracks and shapes, framed
        /// to fit; what `mapwright render` asks the renderer for. Annotations (pins, marker images,
        /// clusters, the callout) are drawn here, as the renderer's marker layer.
        .target(
            name: "MapComposer",
            dependencies: [
                "MapCore", "MapStyle", "MapData", "MapRenderer", "PhotoSources", "GeoData", "ImageCodec",
                "MapUtilities", "MapJSON", "CCairo",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MapComposerTests",
            dependencies: [
                "MapComposer", "MapData", "MapRenderer", "PhotoSources", "MapStyle", "MapCore", "ImageCodec",
                "MapTestSupport",
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Tile export

        /// A batch export of rendered tiles into a tileset (parallel, resumable, shardable), the
        /// work behind `mapwright tiles export`; it throws its own `TileExportError`.
        .target(
            name: "TileExport",
            dependencies: ["MapCore", "MapUtilities", "MapRenderer", "TileSources", "TilesetTools"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TileExportTests",
            dependencies: [
                "TileExport", "TilesetTools", "MapData", "MapRenderer", "MapStyle", "TileSources", "MBTiles", "PMTiles",
                "MapCore", "MapTestSupport",
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Server

        /// HTTP/1.1 request heads read from their bytes, for the server's kept-tile fast path
        /// (before NIO's decoder): where a head ends, its request line and the headers that decide
        /// whether it may be answered there. NIOCore only, so that its fuzz target builds in seconds.
        .target(
            name: "RequestHeads", dependencies: [.product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "RequestHeadsTests",
            dependencies: ["RequestHeads", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings),

        /// The tile server behind `mapwright serve`, on Hummingbird 2: style and overlay tiles
        /// rendered on demand through an MBTiles cache keyed by the style's content (single flight per
        /// metatile, a bounded render pool off the event loop), tileset files served as they are,
        /// TileJSON, static maps, annotations, health and Prometheus metrics.
        .target(
            name: "MapServer",
            dependencies: [
                "MapCore", "MapJSON", "MapUtilities", "MapStyle", "MapData", "MapRenderer", "MapComposer",
                "PhotoSources", "RequestHeads",
                "TileSources", "MBTiles", "Tilesets", "ImageCodec", "VectorTiles", "FontGlyphs",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        /// Every endpoint through Hummingbird's testing client, run on the executor `serve` runs on (NIO's
        /// singleton event loops, as a task executor preference), a few over real HTTP on loopback.
        .testTarget(
            name: "MapServerTests",
            dependencies: [
                "MapServer", "MapData", "MapRenderer", "MapComposer", "MapStyle", "MapCore", "TileSources", "MBTiles",
                "Tilesets", "TilesetTools", "ImageCodec",
                "ImageCompare", "MapTestSupport", "MapUtilities", "PhotoSources", "VectorTiles", "MapJSON",
                "FontGlyphs",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Assembly

        /// What the commands and a program embedding Mapwright share: where the data is, a style
        /// loaded with its sources and map data, a place looked up once, photos and overlays read
        /// with their warnings returned (never printed), content fingerprints, and each command's work:
        /// the map a render writes, a fly-over, a cluster query, an image comparison, a photo import,
        /// a tile export, the content a tile server serves, the registered street basemaps and DEMs.
        /// zlib (`CZlib`) writes the blocks of an OpenStreetMap extract completed for tilemaker.
        .target(
            name: "MapAssembly",
            dependencies: [
                "MapCore", "MapUtilities", "MapJSON", "MapStyle", "ImageCodec", "ImageCompare", "MapData",
                "MapRenderer", "MapComposer", "MapServer", "PhotoSources", "PhotoLibrary", "FontGlyphs",
                "TileExport", "TileSources", "MBTiles", "Tilesets", "TilesetTools", "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MapAssemblyTests",
            dependencies: [
                "MapAssembly", "MapComposer", "MapData", "MapRenderer", "MapServer", "MapStyle", "MapCore",
                "MapUtilities", "PhotoSources", "PhotoLibrary", "ImageCodec", "ImageCompare", "TileExport",
                "TileSources", "MBTiles",
                "MapTestSupport",
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Command line

        /// The `mapwright` commands, in a library so tests can parse and run them.
        .target(
            name: "MapCLI",
            dependencies: [
                "MapAssembly",
                "MapCore",
                "PhotoLibrary",
                "ImageCodec",
                "ImageCompare",
                "MapJSON",
                "MapStyle",
                "MapData",
                "MapRenderer",
                "PhotoSources",
                "MapComposer",
                "MapUtilities",
                "TileSources",
                "MBTiles",
                "Tilesets",
                "TilesetTools",
                "TileExport",
                "MapServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MapCLITests",
            dependencies: [
                "MapCLI", "MapComposer", "MapCore", "ImageCodec", "ImageCompare", "MapTestSupport", "MapUtilities",
                "TileSources", "MBTiles", "Tilesets", "TilesetTools",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        /// Linked by lld with packed relative relocations (`DT_RELR`, glibc 2.36+): a static
        /// build's ~140,000 relative relocations take 42 KB instead of 2.8 MB, and the loader
        /// spends a third of the time it did before `main` (measured with `LD_DEBUG=statistics`).
        /// Its own symbols are not exported (`--no-export-dynamic` undoes the `-export-dynamic` a
        /// static standard library's link adds): nothing looks them up, and the Swift runtime's
        /// start-up `dladdr` scanned all ~31,000 of them (`mapwright --version` 14.1 -> 13.1 ms).
        .executableTarget(
            name: "mapwright",
            dependencies: [
                "MapCLI", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings,
            linkerSettings: [
                .unsafeFlags([
                    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker",
                    "--no-export-dynamic",
                ])
            ]),

        // MARK: The GL render-test suite's runner

        /// Renders every test of the GL render-test suite in process with Mapwright, compares each
        /// with its expected images as GL's harness does (pixelmatch, threshold 0.13, the test's
        /// allowance), and prints the verdicts per category; checks them against the ignore list
        /// beside it (`Conformance/ignores.txt`). A target of this package, not a package of its
        /// own, so that CI's one release build serves the tests, the reliability checks and it.
        /// `scripts/conformance/run.sh` builds and runs it.
        .executableTarget(
            name: "RenderConformance",
            dependencies: ["MapStyle", "MapData", "MapRenderer", "MapCore", "MapJSON", "ImageCodec", "ImageCompare"],
            path: "Conformance/RenderConformance",
            swiftSettings: swiftSettings
        ),
    ]
)
