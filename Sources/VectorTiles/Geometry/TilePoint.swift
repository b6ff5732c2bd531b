/// A position in a vector tile layer's integer coordinates (spec 4.3): x to the right and y
/// down from the tile's top-left corner, in units of 1 / ``VectorTileLayer/extent`` of the tile.
///
/// Points of a tile's buffer lie outside `0...extent` and may be negative. For example, with
/// the default extent of 4096, `TilePoint(x: 2048, y: 2048)` is the tile's centre and
/// `TilePoint(x: -64, y: 0)` lies left of its top-left corner.
public struct TilePoint: Hashable, Sendable {
    /// Units to the right of the tile's left edge.
    public var x: Int32
    /// Units down from the tile's top edge.
    public var y: Int32

    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}
