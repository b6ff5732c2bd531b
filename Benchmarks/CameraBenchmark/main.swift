// Times pitched renders in a release build: a 1200x800 @1x frame at pitch 60 (heading 30) beside
// the same frame flat, in one process with the data loaded once, for the offline standard style
// over Paris at zoom 10 and the streets style over the Helsinki vector sample at zoom 16.
//
// Usage: CameraBenchmark [--iterations N] [--output DIR]
// With --output it writes each pitched frame there as a PNG, to look at.
import Foundation
import MapComposer
import MapCore
import MapData
import MapRenderer
import MapStyle

var iterations = 10
var outputDirectory: URL?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--iterations": iterations = Int(arguments.popFirst() ?? "") ?? iterations
    case "--output": outputDirectory = arguments.popFirst().map { URL(fileURLWithPath: $0) }
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
    }
}

let repository = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let styles = repository.appendingPathComponent("Styles")
let data = MapData(basemapDirectory: repository.appendingPathComponent("Tiles/basemap"))
let snapshotter = MapSnapshotter(data: data)

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

struct Scene {
    let name: String
    let style: Style
    let center: Coordinate
    let zoomLevel: Double
}

let scenes = [
    Scene(
        name: "standard, Paris, zoom 10", style: try Style.named("standard", in: styles).style,
        center: try Coordinate(latitude: 48.8566, longitude: 2.3522), zoomLevel: 10),
    Scene(
        name: "streets, Helsinki, zoom 16",
        style: try Style.named("streets", in: styles).style
            .configuringVectorSources(repository.appendingPathComponent("Samples/helsinki/helsinki.mbtiles")),
        center: try Coordinate(latitude: 60.17165, longitude: 24.94425), zoomLevel: 16),
]

print(
    "1200x800 @1x frames, render only (no PNG), median of \(iterations) after one warm-up; cores: \(ProcessInfo.processInfo.activeProcessorCount)"
)
for scene in scenes {
    var times: [String: Double] = [:]
    for (label, pitch) in [("flat", 0.0), ("pitch 60", 60.0)] {
        let viewport = try Viewport(
            center: scene.center, zoomLevel: scene.zoomLevel, size: ViewSize(width: 1200, height: 800),
            headingDegrees: 30, pitchDegrees: pitch)
        let options = MapSnapshotOptions(viewport: viewport, style: scene.style)
        var snapshot = try snapshotter.snapshot(options)
        var runs: [Double] = []
        for _ in 0..<iterations { runs.append(try milliseconds { snapshot = try snapshotter.snapshot(options) }) }
        times[label] = median(runs)
        if let outputDirectory {
            try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
            let name = "\(scene.style.id)-\(label.replacingOccurrences(of: " ", with: "")).png"
            try snapshot.writePNG(to: outputDirectory.appendingPathComponent(name))
        }
    }
    print(
        String(
            format: "%-28@ flat %6.1f ms   pitch 60 %6.1f ms  (%.1fx flat)  target <= 150 ms",
            scene.name as NSString, times["flat"]!, times["pitch 60"]!, times["pitch 60"]! / times["flat"]!))
}
