// Times tile rendering in a release build: the world at zooms 0 to 6 (5,461 tiles of 256 points)
// in the standard style, through MapTileRenderer's metatiles on every core, each tile encoded as
// PNG, handed to one writer (which counts them; nothing is stored). The basemap is opened and
// each zoom's geometry prepared and labels placed during the run, as an export does.
//
// Usage: TileBenchmark [--max-zoom 6] [--jobs N] [--metatile 8] [--tile-size 256] [--scale 1]
//                      [--style standard] [--runs 1] [--sample DIR]
// --sample writes tile 3/4/2 (the tile the Mapnik peer writes) and a 3 x 3 block of zoom 6 as PNGs.
import Dispatch
import Foundation
import ImageCodec
import MapCore
import MapData
import MapRenderer
import MapStyle
import Synchronization

var maxZoom = 6
var jobs = ProcessInfo.processInfo.activeProcessorCount
var metatileSize = MetatileID.defaultSize
var tileSize = 256
var scale = 1
var styleName = "standard"
var runs = 1
var sampleDirectory: URL?
var arguments = CommandLine.arguments.dropFirst()
@MainActor func integer(_ name: String) -> Int {
    guard let text = arguments.popFirst(), let value = Int(text) else {
        FileHandle.standardError.write(Data("\(name) needs a whole number\n".utf8))
        exit(2)
    }
    return value
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--max-zoom": maxZoom = integer(argument)
    case "--jobs": jobs = max(1, integer(argument))
    case "--metatile": metatileSize = integer(argument)
    case "--tile-size": tileSize = integer(argument)
    case "--scale": scale = integer(argument)
    case "--style": styleName = arguments.popFirst() ?? styleName
    case "--runs": runs = max(1, integer(argument))
    case "--sample": sampleDirectory = arguments.popFirst().map { URL(fileURLWithPath: $0) }
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
    }
}

let repository = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let style = try Style.named(styleName, in: repository.appendingPathComponent("Styles")).style
let options = TileRenderOptions(tileSizePoints: tileSize, scale: scale, metatileSize: metatileSize)
let cover = try MetatileCover.world(zoomLevels: 0...maxZoom, metatileSize: metatileSize)
// Deepest zooms first: their many equal metatiles keep every core busy, and the few small
// ones at the end even out the finish.
let metatiles = Array(cover.metatiles).sorted { $0.z != $1.z ? $0.z > $1.z : $0 < $1 }

/// The one writer: takes each metatile's encoded tiles, in any order, and counts them.
final class Writer: Sendable {
    private let state = Mutex<(tiles: Int, bytes: Int, distinct: Set<Data>)>((0, 0, []))
    func add(_ tiles: [EncodedTile]) {
        state.withLock { state in
            state.tiles += tiles.count
            for tile in tiles {
                state.bytes += tile.data.count
                state.distinct.insert(tile.data)
            }
        }
    }
    var totals: (tiles: Int, bytes: Int, distinct: Int) { state.withLock { ($0.tiles, $0.bytes, $0.distinct.count) } }
}

print(
    "tiles: the world, zooms 0-\(maxZoom), \(cover.tileCount) tiles of \(tileSize) points @\(scale)x in \(cover.metatileCount) metatiles of \(metatileSize)x\(metatileSize), style \(styleName), \(jobs) threads"
)
var rates: [Double] = []
for run in 1...runs {
    // A fresh MapData and renderer each run: the basemap opened, geometry prepared and labels
    // placed inside the timing, as in one export.
    let start = DispatchTime.now().uptimeNanoseconds
    let data = MapData(basemapDirectory: repository.appendingPathComponent("Tiles/basemap"))
    let renderer = try MapTileRenderer(data: data, style: style, options: options)
    let writer = Writer()
    let next = Atomic<Int>(0)
    let failure = Mutex<String?>(nil)
    DispatchQueue.concurrentPerform(iterations: jobs) { _ in
        while true {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < metatiles.count else { return }
            do {
                writer.add(try renderer.encodedTiles(of: metatiles[index]))
            } catch {
                failure.withLock { $0 = "\(metatiles[index]): \(error)" }
                return
            }
        }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    if let message = failure.withLock({ $0 }) {
        FileHandle.standardError.write(Data("TileBenchmark: \(message)\n".utf8))
        exit(1)
    }
    let totals = writer.totals
    let rate = Double(totals.tiles) / seconds
    rates.append(rate)
    print(
        String(
            format: "mapwright run %d: tiles=%d seconds=%.2f tiles_per_s=%.1f bytes=%d distinct_pngs=%d",
            run, totals.tiles, seconds, rate, totals.bytes, totals.distinct))
    if run == 1, let sampleDirectory {
        try FileManager.default.createDirectory(at: sampleDirectory, withIntermediateDirectories: true)
        let sample = try TileID(z: 3, x: 4, y: 2)
        let tile = try renderer.renderMetatile(renderer.metatile(containing: sample), only: [sample])[0]
        try renderer.pngData(for: tile).write(to: sampleDirectory.appendingPathComponent("mapwright-3-4-2.png"))
        if maxZoom >= 6 {
            try renderer.image(zoom: 6, columns: 31...33, rows: 21...23).writePNG(
                to: sampleDirectory.appendingPathComponent("mapwright-z6-block.png"))
        }
    }
}
print(String(format: "mapwright tiles_per_s=%.1f", rates.sorted()[rates.count / 2]))
