import Foundation

/// A block of `size` × `size` tiles rendered as one image and then cut, as mod_tile's
/// metatiles are: labels, pins and lines are drawn once for the block, and a renderer pays its
/// fixed costs once per block instead of once per tile.
///
/// Metatile (z, x, y) of size n holds the tiles of zoom z whose columns are `x·n ..< (x+1)·n`
/// and rows `y·n ..< (y+1)·n`, clipped to the world: at zoom 0 a metatile is the one tile, at
/// zoom 1 with n = 8 it is 2 × 2 tiles, from zoom 3 on (2^z ≥ n) every metatile is whole. For
/// example:
///
/// ```swift
/// let tile = try TileID(z: 10, x: 518, y: 352)
/// let metatile = MetatileID(containing: tile)  // 10/64/44, size 8
/// metatile.tiles.count                         // 64: 10/512/352 ... 10/519/359
/// ```
///
/// Metatiles order by zoom, then row, then column, as ``TileID`` does.
public struct MetatileID: Hashable, Sendable {
    /// The metatile sizes allowed, in tiles per side: 1 to 16. A size of 1 renders tile by tile.
    public static let sizeRange: ClosedRange<Int> = 1...16
    /// mod_tile's metatile size, 8 tiles per side: the default for 256-pixel tiles.
    public static let defaultSize = 8
    /// The widest metatile chosen by default, in pixels: 2048 (8 tiles of 256 pixels).
    public static let defaultMaximumPixels = 2048

    /// The default size for tiles of `tilePixels` pixels a side: ``defaultSize``, fewer tiles
    /// when they are larger so that a metatile is at most ``defaultMaximumPixels`` wide (4 for
    /// 512-pixel tiles, 2 for 768 or 1024, 1 above), at least 1. Wider metatiles render slower
    /// per tile: their buffers no longer fit the caches kept between renders, and each is
    /// faulted in again (measured on 512-point tiles: 105 tiles/s in 8 × 8, 178 in 4 × 4).
    public static func defaultSize(tilePixels: Int) -> Int {
        max(1, min(defaultSize, defaultMaximumPixels / max(1, tilePixels)))
    }

    /// The zoom level, in 0...``TileID/maximumZoom``.
    public let z: Int
    /// The metatile column: the column of its first tile divided by ``size``.
    public let x: Int
    /// The metatile row, from the north: the row of its first tile divided by ``size``.
    public let y: Int
    /// Tiles per side before clipping to the world, in ``sizeRange``.
    public let size: Int

    /// Creates a metatile address, rejecting one outside the grid of metatiles at its zoom.
    ///
    /// - Parameters:
    ///   - z: The zoom level, in 0...30.
    ///   - x: The metatile column, in 0..<⌈2^z / size⌉.
    ///   - y: The metatile row from the north, in 0..<⌈2^z / size⌉.
    ///   - size: Tiles per side, in ``sizeRange``. The default is ``defaultSize`` (8).
    /// - Throws: ``MapCoreError/invalidMetatileSize(_:range:)`` or ``MapCoreError/invalidMetatile(z:x:y:size:)``.
    public init(z: Int, x: Int, y: Int, size: Int = MetatileID.defaultSize) throws(MapCoreError) {
        try MetatileID.validate(size: size)
        guard (0...TileID.maximumZoom).contains(z),
            (0..<MetatileID.metatilesPerSide(atZoom: z, size: size)).contains(x),
            (0..<MetatileID.metatilesPerSide(atZoom: z, size: size)).contains(y)
        else { throw .invalidMetatile(z: z, x: x, y: y, size: size) }
        self.init(uncheckedZ: z, x: x, y: y, size: size)
    }

    /// The metatile holding a tile.
    ///
    /// - Parameter size: Tiles per side, in ``sizeRange``; sizes outside it are clamped into it.
    ///   The default is ``defaultSize`` (8).
    public init(containing tile: TileID, size: Int = MetatileID.defaultSize) {
        let size = min(MetatileID.sizeRange.upperBound, max(MetatileID.sizeRange.lowerBound, size))
        self.init(uncheckedZ: tile.z, x: tile.x / size, y: tile.y / size, size: size)
    }

    init(uncheckedZ z: Int, x: Int, y: Int, size: Int) {
        self.z = z
        self.x = x
        self.y = y
        self.size = size
    }

    /// Throws unless `size` is in ``sizeRange``.
    static func validate(size: Int) throws(MapCoreError) {
        guard sizeRange.contains(size) else { throw .invalidMetatileSize(size, range: sizeRange) }
    }

    /// The number of metatiles across the world at a zoom level: ⌈2^z / size⌉.
    public static func metatilesPerSide(atZoom zoom: Int, size: Int) -> Int {
        ((1 << zoom) + size - 1) / size
    }
}

// MARK: - Tiles

extension MetatileID {
    /// The columns of the metatile's tiles, clipped to the world: `x·size ... min((x+1)·size, 2^z) − 1`.
    public var tileColumns: ClosedRange<Int> { x * size...min((x + 1) * size, 1 << z) - 1 }

    /// The rows of the metatile's tiles, clipped to the world.
    public var tileRows: ClosedRange<Int> { y * size...min((y + 1) * size, 1 << z) - 1 }

    /// The number of tiles the metatile holds in the world: `size`² except at zooms where the
    /// world is fewer than `size` tiles wide.
    public var tileCount: Int { tileColumns.count * tileRows.count }

    /// The metatile's tiles in the world, row by row from the north-west (``TileID``'s order).
    public var tiles: [TileID] {
        tileRows.flatMap { row in tileColumns.map { column in TileID(uncheckedZ: z, x: column, y: row) } }
    }

    /// Whether the tile is one of the metatile's.
    public func contains(_ tile: TileID) -> Bool {
        tile.z == z && tileColumns.contains(tile.x) && tileRows.contains(tile.y)
    }

    /// The metatile's tiles' bounds in map space (clipped to the world).
    public var mapRect: MapRect {
        let tileSize = TileID.tileSizeMapPoints(atZoom: z)
        return MapRect(
            x: Double(tileColumns.lowerBound) * tileSize, y: Double(tileRows.lowerBound) * tileSize,
            width: Double(tileColumns.count) * tileSize, height: Double(tileRows.count) * tileSize)
    }
}

// MARK: - Conformances

extension MetatileID: Comparable {
    /// Orders by zoom, then row from the north, then column from the west (then size).
    public static func < (lhs: MetatileID, rhs: MetatileID) -> Bool {
        (lhs.z, lhs.y, lhs.x, lhs.size) < (rhs.z, rhs.y, rhs.x, rhs.size)
    }
}

extension MetatileID: CustomStringConvertible {
    /// The metatile as `z/x/y` in metatile units, with its size when not the default: `10/64/44`, `4/0/1 (4x4)`.
    public var description: String {
        size == MetatileID.defaultSize ? "\(z)/\(x)/\(y)" : "\(z)/\(x)/\(y) (\(size)x\(size))"
    }
}
