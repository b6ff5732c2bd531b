import Foundation
import FuzzSupport
import MapCore
import VectorTiles

/// A Mapbox Vector Tile (raw protocol buffers, or gzip or zlib compressed), and, when it
/// decodes, every feature's geometry placed in map points. `VectorTileError` is a pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    FuzzOutcome.run("MVT") {
        let tileID = try TileID(z: 14, x: 9326, y: 4742)
        let tile = try VectorTile(data: data, tile: tileID)
        for layer in tile.layers {
            for feature in layer.features {
                _ = feature.geometry.mapPoints(in: tileID, extent: layer.extent)
            }
        }
    }
    return 0
}

@main
enum FuzzMVTMain {
    static func main() { FuzzDriver.run() }
}
