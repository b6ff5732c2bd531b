// swift-tools-version: 6.0
// Mapwright's conformance runner over the GL render-test suite: a package of its own (as the
// benchmarks are), depending on the root package by path, so that the product's Package.swift
// lists only the product. scripts/conformance/run.sh builds and runs it:
//
//   swift build -c release --package-path Conformance
//   Conformance/.build/release/RenderConformance ../shared/gl-render-suite --ignores Conformance/ignores.txt --check

import PackageDescription

let package = Package(
    name: "MapwrightConformance",
    dependencies: [
        .package(name: "Mapwright", path: ".."),
    ],
    targets: [
        /// Renders every test of the GL render-test suite in process with Mapwright, compares each
        /// with its expected images as GL's harness does (pixelmatch, threshold 0.13, the test's
        /// allowance), and prints the verdicts per category; checks them against the ignore list.
        .executableTarget(
            name: "RenderConformance",
            dependencies: ["MapStyle", "MapRenderer", "MapCore", "ImageCodec", "ImageCompare", "MapUtilities"].map {
                .product(name: $0, package: "Mapwright")
            },
            path: "RenderConformance",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
