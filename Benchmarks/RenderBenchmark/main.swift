// Times `mapwright render`'s work in a release build: 1,000 photos, a 10,000-point GPX track and
// one callout on a 1200x800 @2x map, with the basemap loaded once (as a server keeps it).
//
// Usage: RenderBenchmark [--iterations N] [--photos N] [--track-points N] [--write-inputs DIR]
// With --write-inputs it also writes photos.csv and track.gpx for timing the whole CLI process.
import Foundation
import ImageCodec
import MapComposer
import MapCore
import MapData
import MapRenderer
import MapStyle
import PhotoSources

/// SplitMix64, so every run uses the same photos and track.
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
var photoCount = 1_000
var trackPointCount = 10_000
var inputsDirectory: URL?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--iterations": iterations = Int(arguments.popFirst() ?? "") ?? iterations
    case "--photos": photoCount = Int(arguments.popFirst() ?? "") ?? photoCount
    case "--track-points": trackPointCount = Int(arguments.popFirst() ?? "") ?? trackPointCount
    case "--write-inputs": inputsDirectory = arguments.popFirst().map { URL(fileURLWithPath: $0) }
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
    }
}

let repository = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
var random = Random(state: 2026)
let photographers = ["Ansel Adams", "Dorothea Lange", "Imogen Cunningham", "Edward Weston"]
let photos: [Photo] = (0..<photoCount).map { index in
    let coordinate = try! Coordinate(latitude: 34 + random.next() * 6, longitude: -123 + random.next() * 8)
    return Photo(
        id: "photo-\(index)", title: "Photo \(index)", coordinate: coordinate, photographer: photographers[index % 4])
}
var trackPoints: [Coordinate] = []
var latitude = 36.0
var longitude = -121.0
for _ in 0..<trackPointCount {
    latitude = min(41, max(33, latitude + (random.next() - 0.5) * 0.01))
    longitude = min(-116, max(-124, longitude + (random.next() - 0.45) * 0.01))
    trackPoints.append(try! Coordinate(latitude: latitude, longitude: longitude))
}

if let inputsDirectory {
    try FileManager.default.createDirectory(at: inputsDirectory, withIntermediateDirectories: true)
    let csv =
        "latitude,longitude,title,subtitle,photographer,image\n"
        + photos.map {
            "\($0.coordinate.latitude),\($0.coordinate.longitude),\($0.title ?? ""),,\($0.photographer ?? ""),\n"
        }.joined()
    try csv.write(to: inputsDirectory.appendingPathComponent("photos.csv"), atomically: true, encoding: .utf8)
    let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="RenderBenchmark" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        \(trackPoints.map { "<trkpt lat=\"\($0.latitude)\" lon=\"\($0.longitude)\"/>" }.joined(separator: "\n"))
        </trkseg></trk></gpx>
        """
    try gpx.write(to: inputsDirectory.appendingPathComponent("track.gpx"), atomically: true, encoding: .utf8)
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

let style = try Style.named("standard", in: repository.appendingPathComponent("Styles")).style
let data = MapData(basemapDirectory: repository.appendingPathComponent("Tiles/basemap"))
let look = style.mapwright.overlay
let track = MapOverlay(shape: .polyline(trackPoints), strokeColor: look.lineColor, lineWidthPoints: look.lineWidth)
// Every pin drawn (no clustering): the worst case for the renderer.
let request = PhotoMapRequest(
    photos: photos, style: style, selection: .first, overlays: [track],
    size: ViewSize(width: 1200, height: 800), scale: 2, clustering: .never)
let snapshotter = MapSnapshotter(data: data)
let output = FileManager.default.temporaryDirectory.appendingPathComponent("render-benchmark-\(getpid()).png")
defer { try? FileManager.default.removeItem(at: output) }

let builder = PhotoMapBuilder(data: data)
let first = try milliseconds { try snapshotter.write(builder.options(for: request), to: output) }
var renders: [Double] = []
var encodes: [Double] = []
var totals: [Double] = []
for _ in 0..<iterations {
    var snapshot: MapSnapshot?
    let render = try milliseconds { snapshot = try snapshotter.snapshot(builder.options(for: request)) }
    let encode = try milliseconds { try snapshot!.writePNG(to: output) }
    renders.append(render)
    encodes.append(encode)
    totals.append(render + encode)
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let bytes = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
var clusteredRequest = request
clusteredRequest.clustering = .automatic
var clustered: [Double] = []
for _ in 0..<iterations {
    clustered.append(try milliseconds { try snapshotter.write(builder.options(for: clusteredRequest), to: output) })
}
print("1200x800 @2x, \(photoCount) photos, a \(trackPointCount)-point track, one callout (median of \(iterations))")
print(String(format: "first render (loads and prepares the basemap)  %7.1f ms", first))
print(String(format: "render                                         %7.1f ms", median(renders)))
print(String(format: "PNG encode and atomic write                    %7.1f ms  (%d bytes)", median(encodes), bytes))
print(String(format: "render + write, basemap loaded                 %7.1f ms  target <= 200 ms", median(totals)))
print(
    String(
        format: "same, pins clustered (the default)             %7.1f ms  (index built per render)", median(clustered)))
