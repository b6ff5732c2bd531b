// swift-tools-version: 6.0
// Mapwright: a map-rendering engine and tile CLI for Linux.
//
// Dependencies point one way: MapCore (pure Swift) <- MapProjection (PROJ) <- MapCLI <- mapwright,
// and CPNG (libpng) <- CPNGShim <- ImageDiff <- MapCLI, MapTestSupport.
// and MapCore + MapSQLite (SQLite) <- GeoData (vector features for the renderer),
// and MapCore + MapSQLite <- TileStore (MBTiles) <- RasterTiles (+ ImageDiff, FoundationNetworking).
// MapStyle (style JSON, pure Swift) depends only on MapJSON.
// C libraries come in through small system-library targets resolved with pkg-config.

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Mapwright",
    products: [
        .executable(name: "mapwright", targets: ["mapwright"]),
        .library(name: "MapCore", targets: ["MapCore"]),
        .library(name: "MapProjection", targets: ["MapProjection"]),
        .library(name: "MapCLI", targets: ["MapCLI"]),
        .library(name: "ImageDiff", targets: ["ImageDiff"]),
        .library(name: "MapTestSupport", targets: ["MapTestSupport"]),
        .library(name: "MapPhotos", targets: ["MapPhotos"]),
        .library(name: "MapRenderer", targets: ["MapRenderer"]),
        .library(name: "PhotoMap", targets: ["PhotoMap"]),
        .library(name: "GeoData", targets: ["GeoData"]),
        .library(name: "MapStyle", targets: ["MapStyle"]),
        .library(name: "TileStore", targets: ["TileStore"]),
        .library(name: "RasterTiles", targets: ["RasterTiles"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // MARK: - Map model

        /// Coordinates, regions, Web Mercator map space, tiles, geodesy, the camera and viewport.
        /// Foundation only: no C dependency.
        .target(name: "MapCore", swiftSettings: swiftSettings),

        /// One JSON value type for the readers that walk documents and report problems by path.
        .target(name: "MapJSON", swiftSettings: swiftSettings),

        // MARK: - Clustering benchmark

        /// Times ClusterIndex: builds over 1,000,000 and 100,000 seeded random points, 1920x1080
        /// queries at zooms 0 to 16, and the memory it holds per point.
        .executableTarget(
            name: "ClusterBenchmark",
            dependencies: ["MapCore", "MapTestSupport"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Projections (PROJ)

        .systemLibrary(
            name: "CProj",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]
        ),
        /// Coordinate transforms between any two CRS, over the PROJ C API.
        .target(name: "MapProjection", dependencies: ["CProj", "MapCore"], swiftSettings: swiftSettings),

        // MARK: - Images

        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        /// libpng's setjmp/longjmp error handling, wrapped in C so Swift sees error codes and messages.
        .target(name: "CPNGShim", dependencies: ["CPNG"]),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        /// PNG and JPEG reading and writing as RGBA8 (the one image codec path of the package), and
        /// pixelmatch-compatible image comparison.
        .target(name: "ImageDiff", dependencies: ["CPNGShim", "CTurboJPEG"], swiftSettings: swiftSettings),
        /// Snapshot assertions for render tests, for Swift Testing and XCTest.
        .target(name: "MapTestSupport", dependencies: ["ImageDiff"], swiftSettings: swiftSettings),
        /// Times `compare` on generated 4096x4096 images and palette PNG encoding of a 2400x1600 map,
        /// and writes a 1024x1024 pair for pixelmatch.
        .executableTarget(name: "ImageDiffBenchmark", dependencies: ["ImageDiff"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ImageDiffTests",
            dependencies: ["ImageDiff", "MapTestSupport"],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Photos

        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        /// Photo sources (a folder of geotagged JPEGs, Flickr-style JSON, GeoJSON, CSV) read into one
        /// `Photo` model, and callout thumbnails (JPEGs decoded at reduced scale by ImageDiff) in a user cache.
        .target(name: "MapPhotos", dependencies: ["MapCore", "MapJSON", "CExif", "ImageDiff"], swiftSettings: swiftSettings),
        /// Test JPEGs are made by the tests themselves: pixels through libjpeg-turbo, EXIF written byte by byte.
        .testTarget(
            name: "MapPhotosTests",
            dependencies: ["MapPhotos", "MapCore", "CTurboJPEG"],
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
        /// Vector features: GeoJSON, GPX, WKB and GeoPackage readers, spatially indexed sources,
        /// and geometry prepared per zoom (projected, simplified, clipped) for the renderer.
        .target(name: "GeoData", dependencies: ["MapCore", "MapSQLite", "MapJSON"], swiftSettings: swiftSettings),

        // MARK: - Styles

        /// A documented subset of the MapLibre Style Specification, plus Mapwright's own section for
        /// pins, callouts and overlays. Foundation only: depends on no other target.
        .target(name: "MapStyle", dependencies: ["MapJSON"], swiftSettings: swiftSettings),
        .testTarget(name: "MapStyleTests", dependencies: ["MapStyle"], swiftSettings: swiftSettings),

        // MARK: - Rendering

        /// Cairo (image, PDF, SVG surfaces) and Pango text through pangocairo, in one module:
        /// pangocairo's headers include cairo's, and two modules owning the same C types would clash.
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        /// Draws maps: style layers from vector data, labels placed without collisions, overlays,
        /// pins and callouts; the one renderer behind images and tiles.
        .target(
            name: "MapRenderer",
            dependencies: ["MapCore", "MapStyle", "GeoData", "ImageDiff", "RasterTiles", "CCairo"],
            swiftSettings: swiftSettings
        ),
        /// A photographer's map: photos as pins with a selected callout, tracks and shapes, framed
        /// to fit; what `mapwright render` asks the renderer for.
        .target(
            name: "PhotoMap",
            dependencies: ["MapCore", "MapStyle", "MapRenderer", "MapPhotos", "GeoData", "ImageDiff"],
            swiftSettings: swiftSettings
        ),
        /// Times a 1200x800 @2x render with 1,000 photos, a 10,000-point track and a callout.
        .executableTarget(
            name: "RenderBenchmark",
            dependencies: ["MapRenderer", "PhotoMap", "MapPhotos", "MapStyle", "MapCore", "ImageDiff"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MapRendererTests",
            dependencies: [
                "MapRenderer", "PhotoMap", "MapTestSupport", "MapStyle", "MapPhotos", "GeoData", "ImageDiff", "MapCore", "TileStore",
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Tiles

        /// Encoded tiles by tile address: the MBTiles 1.3 store (raster cache, export target, what
        /// the tile server serves) and an in-memory twin for tests.
        .target(name: "TileStore", dependencies: ["MapCore", "MapSQLite"], swiftSettings: swiftSettings),
        /// Raster tile sources for base maps and overlays (an MBTiles file, or HTTP URL templates
        /// cached in an MBTiles file), decoded to RGBA, and the cover of tiles a view draws.
        .target(name: "RasterTiles", dependencies: ["MapCore", "TileStore", "ImageDiff"], swiftSettings: swiftSettings),
        /// MBTiles files made in the tests; HTTP against a real Python server on loopback.
        .testTarget(
            name: "TileStoreTests",
            dependencies: ["TileStore", "RasterTiles", "MapSQLite", "MapCore", "ImageDiff"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Command line

        /// The `mapwright` commands, in a library so tests can parse and run them.
        .target(
            name: "MapCLI",
            dependencies: [
                "MapCore",
                "MapProjection",
                "ImageDiff",
                "MapJSON",
                "MapStyle",
                "MapRenderer",
                "MapPhotos",
                "PhotoMap",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "mapwright", dependencies: ["MapCLI"], swiftSettings: swiftSettings),

        // MARK: - Tests

        .testTarget(name: "MapCoreTests", dependencies: ["MapCore", "MapTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MapCLITests", dependencies: ["MapCLI", "MapCore", "ImageDiff"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MapProjectionTests",
            dependencies: ["MapProjection", "MapCore", "CProj", "MapTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GeoDataTests",
            dependencies: ["GeoData", "MapSQLite", "MapCore"],
            swiftSettings: swiftSettings
        ),
    ]
)
