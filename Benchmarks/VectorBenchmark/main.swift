// Times a street map in a release build: the streets style over the Helsinki vector sample
// (Samples/helsinki), 1200x800 @2x at zoom 15 with 100 photos, in one process with the tiles
// decoded once (as a server keeps them).
//
// Usage: VectorBenchmark [--iterations N] [--write-inputs DIR]
//        VectorBenchmark --style FILE --view LAT,LON,ZOOM [--tiles FILE] [--size WxH] [--scale N] [--iterations N] [--compression 0-9]
// With --write-inputs it also writes photos.csv (the 100 photos) for timing the whole CLI process.
// With --style it times that style file's map of the view instead (no photos), warm: it prints
// one line, `warm MS`, the median render + PNG write (scripts/bench/styles.sh reads it), and on
// standard error the median render and PNG write apart. --tiles names the vector tiles the style's
// sources read (default: Samples/helsinki/helsinki.mbtiles).
import Foundation
import MapComposer
import MapCore
import MapData
import MapRenderer
import MapStyle
import PhotoSources

/// SplitMix64, so every run uses the same photos.
struct Random {
    var state: UInt64
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}

var iterations = 10
var inputsDirectory: URL?
var styleFile: URL?
var view: (latitude: Double, longitude: Double, zoom: Double)?
var size = ViewSize(width: 800, height: 600)
var scale = 1.0
var compressionLevel: Int?  // nil: the product's default
var tilesFile: URL?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--iterations": iterations = Int(arguments.popFirst() ?? "") ?? iterations
    case "--write-inputs": inputsDirectory = arguments.popFirst().map { URL(fileURLWithPath: $0) }
    case "--style": styleFile = arguments.popFirst().map { URL(fileURLWithPath: $0) }
    case "--tiles": tilesFile = arguments.popFirst().map { URL(fileURLWithPath: $0) }
    case "--view":
        let parts = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Double($0) }
        if parts.count == 3 { view = (parts[0], parts[1], parts[2]) }
    case "--size":
        let parts = (arguments.popFirst() ?? "").split(separator: "x").compactMap { Double($0) }
        if parts.count == 2 { size = ViewSize(width: parts[0], height: parts[1]) }
    case "--scale": scale = Double(arguments.popFirst() ?? "") ?? scale
    case "--compression": compressionLevel = Int(arguments.popFirst() ?? "")
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
    }
}

let repository = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let tileset = tilesFile ?? repository.appendingPathComponent("Samples/helsinki/helsinki.mbtiles")
// The sample's bounds, where the photos are.
let (west, south, east, north) = (24.9355, 60.1645, 24.9530, 60.1788)
var random = Random(state: 2026)
let photographers = ["Signe Brander", "I. K. Inha"]
let photos: [Photo] = (0..<100).map { index in
    let coordinate = try! Coordinate(
        latitude: south + random.next() * (north - south), longitude: west + random.next() * (east - west))
    return Photo(
        id: "photo-\(index)", title: "Photo \(index)", coordinate: coordinate, photographer: photographers[index % 2])
}
if let inputsDirectory {
    try FileManager.default.createDirectory(at: inputsDirectory, withIntermediateDirectories: true)
    let csv =
        "latitude,longitude,title,subtitle,photographer\n"
        + photos.map {
            "\($0.coordinate.latitude),\($0.coordinate.longitude),\($0.title ?? ""),,\($0.photographer ?? "")\n"
        }.joined()
    try csv.write(to: inputsDirectory.appendingPathComponent("photos.csv"), atomically: true, encoding: .utf8)
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

if let styleFile, let view {
    let style = try Style.load(from: styleFile).style.configuringVectorSources(tileset)
    let data = MapData(basemapDirectory: repository.appendingPathComponent("Tiles/basemap"))
    let request = PhotoMapRequest(
        photos: [], style: style,
        framing: .center(try Coordinate(latitude: view.latitude, longitude: view.longitude), zoomLevel: view.zoom),
        size: size, scale: scale)
    let snapshotter = MapSnapshotter(data: data)
    let builder = PhotoMapBuilder(data: data)
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("vector-benchmark-\(getpid()).png")
    defer { try? FileManager.default.removeItem(at: output) }
    let first = try milliseconds { try snapshotter.write(builder.options(for: request), to: output) }
    let times = try (0..<iterations).map { _ in
        try milliseconds { try snapshotter.write(builder.options(for: request), to: output) }
    }
    var renders: [Double] = []
    var encodes: [Double] = []
    for _ in 0..<iterations {
        var snapshot: MapSnapshot?
        renders.append(try milliseconds { snapshot = try snapshotter.snapshot(builder.options(for: request)) })
        encodes.append(
            try milliseconds {
                try compressionLevel.map { try snapshot!.writePNG(to: output, compressionLevel: $0) }
                    ?? snapshot!.writePNG(to: output)
            })
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    FileHandle.standardError.write(
        Data(
            String(
                format:
                    "first %.1f ms (style loaded; tiles, fonts and labels cold), render %.1f ms, PNG encode and write %.1f ms\n",
                first, median(renders), median(encodes)
            ).utf8))
    print(String(format: "warm %.1f", median(times)))
    exit(0)
}

let style = try Style.named("streets", in: repository.appendingPathComponent("Styles")).style.configuringVectorSources(
    tileset)
let data = MapData(basemapDirectory: repository.appendingPathComponent("Tiles/basemap"))
let center = try Coordinate(latitude: (south + north) / 2, longitude: (west + east) / 2)
let request = PhotoMapRequest(
    photos: photos, style: style, selection: .first, framing: .center(center, zoomLevel: 15),
    size: ViewSize(width: 1200, height: 800), scale: 2)
let snapshotter = MapSnapshotter(data: data)
let builder = PhotoMapBuilder(data: data)
let output = FileManager.default.temporaryDirectory.appendingPathComponent("vector-benchmark-\(getpid()).png")
defer { try? FileManager.default.removeItem(at: output) }

let first = try milliseconds { try snapshotter.write(builder.options(for: request), to: output) }
var renders: [Double] = []
var encodes: [Double] = []
var totals: [Double] = []
for _ in 0..<iterations {
    var snapshot: MapSnapshot?
    let render = try milliseconds { snapshot = try snapshotter.snapshot(builder.options(for: request)) }
    let encode = try milliseconds {
        try compressionLevel.map { try snapshot!.writePNG(to: output, compressionLevel: $0) }
            ?? snapshot!.writePNG(to: output)
    }
    renders.append(render)
    encodes.append(encode)
    totals.append(render + encode)
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let bytes = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
print("streets over Helsinki, 1200x800 @2x at zoom 15, 100 photos, one callout (median of \(iterations))")
print(String(format: "first render (opens and decodes the tiles)     %7.1f ms", first))
print(String(format: "render                                         %7.1f ms", median(renders)))
print(String(format: "PNG encode and atomic write                    %7.1f ms  (%d bytes)", median(encodes), bytes))
print(String(format: "render + write, tiles decoded                  %7.1f ms  target <= 250 ms", median(totals)))
