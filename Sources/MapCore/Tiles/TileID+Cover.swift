import Foundation

extension TileID {
    /// The default limit on the number of tiles in a cover: 1,048,576 (2^20), about 25 MB of
    /// tile IDs, the whole world at zoom 10.
    public static let defaultMaximumCoverCount = 1 << 20

    /// The tiles at a zoom level that a geographic region overlaps, sorted by row then column.
    ///
    /// A region crossing the antimeridian gets tiles from both edges of the grid, the
    /// east-edge columns (from 0) sorting before the west-edge ones. Latitudes beyond
    /// ±``WebMercator/maximumLatitude`` are clamped, so a region reaching a pole gets the edge
    /// row. For example:
    ///
    /// ```swift
    /// let pacific = try CoordinateRegion(west: 170, south: -10, east: -170, north: 10)
    /// try TileID.tiles(covering: pacific, zoom: 2) // 2/0/1, 2/3/1, 2/0/2, 2/3/2
    /// ```
    ///
    /// - Parameters:
    ///   - region: The region to cover; a region of zero span gets the one tile holding its centre.
    ///   - zoom: The zoom level, in 0...30.
    ///   - maximumCount: The most tiles the cover may have, a guard against asking for the whole
    ///     world at a deep zoom. The default is ``defaultMaximumCoverCount``.
    /// - Returns: The tiles, in the order of ``TileID``'s `Comparable` conformance.
    /// - Throws: ``MapCoreError/invalidZoomLevel(_:range:)`` for a zoom outside 0...30,
    ///   ``MapCoreError/tooManyTiles(count:limit:)`` when the cover would exceed `maximumCount`.
    public static func tiles(
        covering region: CoordinateRegion,
        zoom: Int,
        maximumCount: Int = defaultMaximumCoverCount
    ) throws(MapCoreError) -> [TileID] {
        try tiles(covering: region.mapRect, zoom: zoom, maximumCount: maximumCount)
    }

    /// The tiles at a zoom level that a map rect overlaps, sorted by row then column.
    ///
    /// Tiles are half-open, as ``MapRect/contains(_:)`` is: a rect whose edge lies on
    /// a tile boundary does not get the tile beyond it, and a rect of zero width or height gets
    /// the tiles holding its edge. x wraps, so a rect reaching past the east edge of the world
    /// (or starting west of it) gets tiles from both edges; a rect a world wide or wider gets
    /// every column. y is clamped into the world. A null rect, or one with NaN edges, gets none.
    ///
    /// - Parameters:
    ///   - mapRect: The rect to cover, in map points.
    ///   - zoom: The zoom level, in 0...30.
    ///   - maximumCount: The most tiles the cover may have. The default is
    ///     ``defaultMaximumCoverCount``.
    /// - Returns: The tiles, in the order of ``TileID``'s `Comparable` conformance.
    /// - Throws: ``MapCoreError/invalidZoomLevel(_:range:)`` for a zoom outside 0...30,
    ///   ``MapCoreError/tooManyTiles(count:limit:)`` when the cover would exceed `maximumCount`.
    public static func tiles(
        covering mapRect: MapRect,
        zoom: Int,
        maximumCount: Int = defaultMaximumCoverCount
    ) throws(MapCoreError) -> [TileID] {
        try validate(zoom: zoom)
        guard !mapRect.isNull, ![mapRect.minX, mapRect.minY, mapRect.maxX, mapRect.maxY].contains(where: \.isNaN) else {
            return []
        }
        let tileSize = tileSizeMapPoints(atZoom: zoom)
        let rows = indices(from: mapRect.minY, to: mapRect.maxY, tileSize: tileSize, zoom: zoom)
        let columns = columnRanges(of: mapRect, tileSize: tileSize, zoom: zoom)
        // At most 2^30 rows times 2^30 columns: the product fits in Int.
        let count = rows.count * columns.reduce(0) { $0 + $1.count }
        guard count <= maximumCount else { throw .tooManyTiles(count: count, limit: maximumCount) }
        var tiles: [TileID] = []
        tiles.reserveCapacity(count)
        for y in rows {
            for range in columns {
                for x in range { tiles.append(TileID(uncheckedZ: zoom, x: x, y: y)) }
            }
        }
        return tiles
    }

    /// The rows or columns, clamped into the grid, whose half-open spans meet [start, end]:
    /// at least the one holding `start`.
    static func indices(from start: Double, to end: Double, tileSize: Double, zoom: Int) -> ClosedRange<Int> {
        let first = index(of: start, tileSize: tileSize, zoom: zoom)
        // The tile holding `end` when `end` lies inside it, the one before when on its west edge.
        let lastBeyondEnd = min(Double(1 << zoom), max(0, (end / tileSize).rounded(.up)))
        return first...max(first, Int(lastBeyondEnd) - 1)
    }

    /// The columns a rect covers, as one or two ascending ranges (two when it wraps round the
    /// antimeridian).
    static func columnRanges(of mapRect: MapRect, tileSize: Double, zoom: Int) -> [ClosedRange<Int>] {
        let count = 1 << zoom
        guard mapRect.width < WebMercator.worldSize else { return [0...count - 1] }
        // Shift the rect by whole worlds so it starts in the central world; it may end in the next.
        let shift = (mapRect.minX / WebMercator.worldSize).rounded(.down) * WebMercator.worldSize
        let first = index(of: mapRect.minX - shift, tileSize: tileSize, zoom: zoom)
        let lastBeyondEnd = Int(min(Double(2 * count), ((mapRect.maxX - shift) / tileSize).rounded(.up)))
        let last = max(first, lastBeyondEnd - 1)
        if last - first + 1 >= count { return [0...count - 1] }
        if last < count { return [first...last] }
        return [0...last - count, first...count - 1]
    }
}
