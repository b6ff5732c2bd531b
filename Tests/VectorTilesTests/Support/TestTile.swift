import Foundation
import MapTestSupport
import Testing
import VectorTiles

extension TestTile {
    /// The geometry of a feature of `type` with `numbers` as its geometry, decoded in a layer of
    /// `version`.
    static func decodedGeometry(_ numbers: [UInt32], type: UInt64, version: UInt64 = 2) throws -> VectorTileGeometry {
        var layer = Layer()
        layer.version = version
        let tile = TestTile.layer([Feature(type: type, geometry: numbers)], layer)
        return try #require(VectorTile(data: tile.data).layers.first?.features.first).geometry
    }
}
