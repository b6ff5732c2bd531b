import Foundation
import FuzzSupport
import MapCore
import PMTiles

/// A PMTiles v3 archive: opening it (header, root directory, metadata), every entry with the
/// leaf directories resolved, and a few lookups. `PMTilesError` is a pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let file = FuzzInputFile.write(start, count, name: "tiles.pmtiles")
    FuzzOutcome.run("PMTiles") {
        let reader = try PMTilesReader(url: file)
        FuzzOutcome.run("PMTiles lookups") {
            for (z, x, y) in [(0, 0, 0), (1, 1, 0), (2, 3, 1), (4, 8, 5), (14, 9326, 4742)] {
                _ = try reader.tile(at: try TileID(z: z, x: x, y: y))
            }
        }
        for entry in try reader.entries().prefix(16) { _ = try reader.data(of: entry) }
    }
    return 0
}

@main
enum FuzzPMTilesMain {
    static func main() { FuzzDriver.run() }
}
