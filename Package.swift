// swift-tools-version: 6.0
// Mapwright: a map-rendering engine and tile CLI for Linux.
//
// Dependencies point one way: MapCore (pure Swift) <- MapProjection (PROJ) <- MapCLI <- mapwright.
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
        .library(name: "MapPhotos", targets: ["MapPhotos"]),
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

        // MARK: - Photos

        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        /// Photo sources (a folder of geotagged JPEGs, Flickr-style JSON, GeoJSON, CSV) read into one
        /// `Photo` model, and callout thumbnails decoded with libjpeg-turbo into a user cache.
        .target(name: "MapPhotos", dependencies: ["MapCore", "CExif", "CTurboJPEG"], swiftSettings: swiftSettings),
        /// Test JPEGs are made by the tests themselves: pixels through libjpeg-turbo, EXIF written byte by byte.
        .testTarget(
            name: "MapPhotosTests",
            dependencies: ["MapPhotos", "MapCore", "CTurboJPEG"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Command line

        /// The `mapwright` commands, in a library so tests can parse and run them.
        .target(
            name: "MapCLI",
            dependencies: [
                "MapCore",
                "MapProjection",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "mapwright", dependencies: ["MapCLI"], swiftSettings: swiftSettings),

        // MARK: - Tests

        // MapCoreTests, MapProjectionTests and MapCLITests have no files on the `photos` branch yet, and an empty
        // test target fails `swift build`; they come back when their tests merge.
    ]
)
