// swift-tools-version: 6.0
// MapwrightFuzz: libFuzzer targets for every parser of Mapwright, one executable per parser.
//
// Each target is one file defining `LLVMFuzzerTestOneInput`, which hands the fuzzer's bytes to
// the parser's public API, as the command and the server do; a thrown error is a pass, a crash,
// trap or AddressSanitizer report is a failure. Build and run them all with
//
//     bash scripts/fuzz/run.sh [SECONDS]      # 20 s each unless told
//
// which builds with
//
//     swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//
// Seed inputs are in corpus/<Target>/, dictionaries in dictionaries/. Crashers found become
// regression tests in the parser's own test target (`swift test --filter FuzzRegression` at
// the root), their inputs under Tests/Fixtures/fuzz/<Target>/.

import PackageDescription

/// Each fuzz target and the root products it reads with.
let fuzzTargets: [(name: String, products: [String])] = [
    ("FuzzEXIF", ["PhotoSources"]),  // JPEG segments and EXIF (libexif) of one JPEG file
    ("FuzzCSV", ["PhotoSources"]),  // a CSV photo file
    ("FuzzGPX", ["GeoData"]),  // GPX 1.1
    ("FuzzGeoJSON", ["GeoData", "MapCore"]),  // GeoJSON feature collections
    ("FuzzWKB", ["GeoData"]),  // GeoPackage geometry blobs and the WKB in them
    ("FuzzPNG", ["ImageCodec"]),  // PNG decoding (libpng through CPNGShim)
    ("FuzzJPEG", ["ImageCodec"]),  // JPEG decoding (libjpeg-turbo), full size and scaled
    ("FuzzStyle", ["MapStyle"]),  // style JSON
    ("FuzzMVT", ["VectorTiles", "MapCore"]),  // Mapbox Vector Tiles, raw or compressed
    ("FuzzPMTiles", ["PMTiles", "MapCore"]),  // PMTiles header, root and leaf directories, metadata
    ("FuzzRequestHead", ["RequestHeads"]),  // HTTP/1.1 request heads as serve's kept-tile fast path reads them
]

let package = Package(
    name: "MapwrightFuzz",
    dependencies: [
        .package(name: "Mapwright", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ],
    targets: fuzzTargets.map { target in
        .executableTarget(
            name: target.name,
            dependencies: target.products.map { .product(name: $0, package: "Mapwright") } + ["FuzzSupport"]
                + (target.name == "FuzzRequestHead" ? [.product(name: "NIOCore", package: "swift-nio")] : []),
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    } + [
        /// What the targets share: the entry into libFuzzer, a private temporary file for parsers that
        /// only read files.
        .target(
            name: "FuzzSupport", dependencies: ["CFuzzDriver"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        /// libFuzzer's driver called from Swift (see FuzzDriver.swift).
        .target(name: "CFuzzDriver"),
    ]
)
