import MapTestSupport
import VectorTiles

extension TilePoint {
    /// A tile point from a pair, for short expectations: `TilePoint(2, 10)`.
    init(_ x: Int32, _ y: Int32) {
        self.init(x: x, y: y)
    }
}

/// Tile points from pairs: `points((0, 0), (10, 0))`.
func points(_ pairs: (Int32, Int32)...) -> [TilePoint] {
    pairs.map { TilePoint($0.0, $0.1) }
}
