// swift-tools-version: 6.0
// Mapwright: a map-rendering engine and tile CLI for Linux.
//
// Dependencies point one way: MapCore (pure Swift) <- MapProjection (PROJ) <- MapCLI <- mapwright,
// and CPNG (libpng) <- CPNGShim <- ImageDiff <- MapCLI, MapTestSupport.
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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // MARK: - Map model

        /// Coordinates, regions, Web Mercator map space, tiles, geodesy, the camera and viewport.
        /// Foundation only: no C dependency.
        .target(name: "MapCore", swiftSettings: swiftSettings),

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
        /// PNG reading and writing as RGBA8, and pixelmatch-compatible image comparison.
        .target(name: "ImageDiff", dependencies: ["CPNGShim"], swiftSettings: swiftSettings),
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

        // MARK: - Command line

        /// The `mapwright` commands, in a library so tests can parse and run them.
        .target(
            name: "MapCLI",
            dependencies: [
                "MapCore",
                "MapProjection",
                "ImageDiff",
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
    ]
)
