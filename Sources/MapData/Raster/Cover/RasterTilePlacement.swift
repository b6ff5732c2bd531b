public import MapCore

/// A tile to draw and where to draw it.
///
/// ``mapRect`` is the tile's own ``TileID/mapRect`` moved by ``worldOffset`` whole worlds, so
/// that a view across the antimeridian (or wide enough to show the world twice) draws the tile
/// in every copy of the world it sees.
public struct RasterTilePlacement: Hashable, Sendable {
    /// The tile, in the grid of the central world.
    public var tile: TileID
    /// How many worlds east (positive) or west (negative) of the central one this copy is drawn.
    public var worldOffset: Int
    /// Where the image goes, in map points: the tile's rect shifted by `worldOffset` × ``WebMercator/worldSize``.
    public var mapRect: MapRect

    /// Creates a placement of `tile` in the world copy `worldOffset` worlds east of the central one.
    public init(tile: TileID, worldOffset: Int = 0) {
        self.tile = tile
        self.worldOffset = worldOffset
        mapRect = tile.mapRect.offsetBy(dx: Double(worldOffset) * WebMercator.worldSize, dy: 0)
    }
}
