// swift-tools-version: 6.0
// Mapwright's benchmarks: release-build executables, run by scripts/bench/*.sh, in a package of
// their own (as swift-nio keeps its benchmarks) so that the product's Package.swift lists only
// the product. Each depends only on what it measures, through the root package's products.
//
// Build and run one from the checkout's root:
//
//   swift build -c release --package-path Benchmarks --product ClusterBenchmark
//   Benchmarks/.build/release/ClusterBenchmark

import PackageDescription

/// The root package's products a benchmark uses.
func products(_ names: String...) -> [Target.Dependency] {
    names.map { .product(name: $0, package: "Mapwright") }
}

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "MapwrightBenchmarks",
    dependencies: [
        .package(name: "Mapwright", path: "..")
    ],
    targets: [
        /// The seeded random generator of the root package's tests (MapTestSupport, which is not a
        /// product): `SeededGenerator.swift` here is a symbolic link to its one source file, so the
        /// benchmarks' inputs are the ones the tests' generator makes, from one implementation.
        .target(name: "BenchmarkSupport", path: "BenchmarkSupport", swiftSettings: swiftSettings),

        /// Times ClusterIndex: builds over 1,000,000 and 100,000 seeded random points, 1920x1080
        /// queries at zooms 0 to 16, and the memory it holds per point.
        .executableTarget(
            name: "ClusterBenchmark",
            dependencies: products("MapCore") + ["BenchmarkSupport"],
            path: "ClusterBenchmark",
            swiftSettings: swiftSettings
        ),
        /// Times `compare` on generated 4096x4096 images and palette PNG encoding of a 2400x1600 map,
        /// and writes a 1024x1024 pair for pixelmatch.
        .executableTarget(
            name: "CompareBenchmark",
            dependencies: products("ImageCompare", "ImageCodec"),
            path: "CompareBenchmark",
            swiftSettings: swiftSettings
        ),
        /// Times SDF glyph ranges generated from installed fonts (FontGlyphs): per range, median.
        .executableTarget(
            name: "GlyphsBenchmark",
            dependencies: products("FontGlyphs"),
            path: "GlyphsBenchmark",
            swiftSettings: swiftSettings
        ),
        /// Writes the seeded inputs of scripts/bench/ingest.sh: a 1,000,000-row CSV, 1,000,000-feature
        /// GeoJSON and Flickr JSON files, a 200,000-row CSV and a folder of 10,000 geotagged JPEGs.
        .executableTarget(
            name: "IngestBenchmark",
            dependencies: products("ImageCodec") + ["BenchmarkSupport"],
            path: "IngestBenchmark",
            swiftSettings: swiftSettings
        ),
        /// Times MBTilesStore reads from 1, 2 and 4 threads with and without a concurrent batch
        /// writer, against one connection behind a lock; and MBTilesWriter alone.
        .executableTarget(
            name: "MBTilesBenchmark",
            dependencies: products("MBTiles", "MapSQLite", "MapCore") + ["BenchmarkSupport"],
            path: "MBTilesBenchmark",
            swiftSettings: swiftSettings
        ),
        /// Times tile rendering: the world at zooms 0 to 6 (5,461 tiles) in the standard style,
        /// metatiles on every core, PNG encoding; scripts/bench/tiles.sh runs Mapnik beside it.
        .executableTarget(
            name: "TileBenchmark",
            dependencies: products("MapData", "MapRenderer", "MapStyle", "MapCore", "ImageCodec"),
            path: "TileBenchmark",
            swiftSettings: swiftSettings
        ),
        /// Times a 1200x800 @2x render with 1,000 photos, a 10,000-point track and a callout.
        .executableTarget(
            name: "RenderBenchmark",
            dependencies: products(
                "MapData", "MapRenderer", "MapComposer", "PhotoSources", "MapStyle", "MapCore", "ImageCodec"),
            path: "RenderBenchmark",
            swiftSettings: swiftSettings
        ),
        /// Times 1200x800 @1x frames at pitch 60 beside the same frames flat (scripts/bench/camera.sh).
        .executableTarget(
            name: "CameraBenchmark",
            dependencies: products("MapData", "MapRenderer", "MapComposer", "MapStyle", "MapCore"),
            path: "CameraBenchmark",
            swiftSettings: swiftSettings
        ),
        /// Times a 1200x800 @2x street map in the streets style over the Helsinki vector sample.
        .executableTarget(
            name: "VectorBenchmark",
            dependencies: products("MapData", "MapRenderer", "MapComposer", "PhotoSources", "MapStyle", "MapCore"),
            path: "VectorBenchmark",
            swiftSettings: swiftSettings
        ),
    ]
)
