import Foundation

/// The tiles of an area over a range of zoom levels, grouped into metatiles: what a batch export
/// renders, in a deterministic order, with its counts known without listing a tile.
///
/// At each zoom the cover's tiles are those of ``TileID/tiles(covering:zoom:maximumCount:)``
/// for its map rect (half-open tiles, columns wrapping across the antimeridian); its metatiles
/// are the metatiles holding at least one of them, and ``tiles(in:)`` gives the cover's tiles
/// of one metatile (a metatile at the cover's edge holds tiles outside it, which an export may
/// leave out). For example:
///
/// ```swift
/// let world = try MetatileCover.world(zoomLevels: 0...6)
/// world.tileCount                    // 5,461
/// world.tileCount(atZoom: 6)         // 4,096
/// world.metatileCount                // 1 + 1 + 1 + 1 + 4 + 16 + 64 = 88
/// for metatile in world.metatiles { ... }   // zoom by zoom, rows from the north, columns from the west
/// ```
///
/// Counting is arithmetic (the world at zoom 30 counts as fast as zoom 0); ``metatiles`` is a
/// lazy sequence, never a list held in memory.
public struct MetatileCover: Hashable, Sendable {
    /// The area covered, in map points; it may reach past the antimeridian (see ``MapRect``).
    public let mapRect: MapRect
    /// The zoom levels covered, within 0...30.
    public let zoomLevels: ClosedRange<Int>
    /// Tiles per metatile side, in ``MetatileID/sizeRange``. The default is 8.
    public let metatileSize: Int

    /// A cover of a map rect.
    ///
    /// - Parameters:
    ///   - mapRect: The area in map points; a null rect covers nothing.
    ///   - zoomLevels: Within 0...30.
    ///   - metatileSize: Tiles per metatile side, in ``MetatileID/sizeRange``. The default is 8.
    /// - Throws: ``MapCoreError/invalidZoomRange(_:)`` or ``MapCoreError/invalidMetatileSize(_:range:)``.
    public init(mapRect: MapRect, zoomLevels: ClosedRange<Int>, metatileSize: Int = MetatileID.defaultSize)
        throws(MapCoreError)
    {
        guard zoomLevels.lowerBound >= 0, zoomLevels.upperBound <= TileID.maximumZoom else {
            throw .invalidZoomRange(zoomLevels)
        }
        try MetatileID.validate(size: metatileSize)
        self.mapRect = mapRect
        self.zoomLevels = zoomLevels
        self.metatileSize = metatileSize
    }

    /// A cover of a geographic region (which may cross the antimeridian); latitudes beyond the
    /// Mercator limit are clamped, as ``TileID`` covers do.
    ///
    /// - Throws: As ``init(mapRect:zoomLevels:metatileSize:)``.
    public init(region: CoordinateRegion, zoomLevels: ClosedRange<Int>, metatileSize: Int = MetatileID.defaultSize)
        throws(MapCoreError)
    {
        try self.init(mapRect: region.mapRect, zoomLevels: zoomLevels, metatileSize: metatileSize)
    }

    /// Every tile of the world at the zoom levels.
    ///
    /// - Throws: As ``init(mapRect:zoomLevels:metatileSize:)``.
    public static func world(zoomLevels: ClosedRange<Int>, metatileSize: Int = MetatileID.defaultSize)
        throws(MapCoreError) -> MetatileCover
    {
        try MetatileCover(mapRect: .world, zoomLevels: zoomLevels, metatileSize: metatileSize)
    }

    private var isEmpty: Bool {
        mapRect.isNull || [mapRect.minX, mapRect.minY, mapRect.maxX, mapRect.maxY].contains(where: \.isNaN)
    }
}

// MARK: - Tiles and counts

extension MetatileCover {
    /// The rows of the cover's tiles at a zoom level; `nil` outside ``zoomLevels`` or for an empty cover.
    public func tileRows(atZoom zoom: Int) -> ClosedRange<Int>? {
        guard zoomLevels.contains(zoom), !isEmpty else { return nil }
        return TileID.indices(
            from: mapRect.minY, to: mapRect.maxY, tileSize: TileID.tileSizeMapPoints(atZoom: zoom), zoom: zoom)
    }

    /// The columns of the cover's tiles at a zoom level, as ascending, disjoint ranges (two
    /// when the area crosses the antimeridian); empty outside ``zoomLevels``.
    public func tileColumns(atZoom zoom: Int) -> [ClosedRange<Int>] {
        guard zoomLevels.contains(zoom), !isEmpty else { return [] }
        return TileID.columnRanges(of: mapRect, tileSize: TileID.tileSizeMapPoints(atZoom: zoom), zoom: zoom)
    }

    /// The number of the cover's tiles at a zoom level (0 outside ``zoomLevels``).
    public func tileCount(atZoom zoom: Int) -> Int {
        guard let rows = tileRows(atZoom: zoom) else { return 0 }
        return rows.count * tileColumns(atZoom: zoom).reduce(0) { $0 + $1.count }
    }

    /// The number of the cover's tiles at all its zoom levels.
    public var tileCount: Int { zoomLevels.reduce(0) { $0 + tileCount(atZoom: $1) } }

    /// Whether a tile is one of the cover's.
    public func contains(_ tile: TileID) -> Bool {
        guard let rows = tileRows(atZoom: tile.z), rows.contains(tile.y) else { return false }
        return tileColumns(atZoom: tile.z).contains { $0.contains(tile.x) }
    }

    /// The cover's tiles in a metatile, row by row from the north-west: all of the metatile's
    /// tiles inside the area, none outside it.
    public func tiles(in metatile: MetatileID) -> [TileID] {
        guard let coverRows = tileRows(atZoom: metatile.z), coverRows.overlaps(metatile.tileRows) else { return [] }
        let rows = coverRows.clamped(to: metatile.tileRows)
        let columns = tileColumns(atZoom: metatile.z).compactMap { range -> ClosedRange<Int>? in
            range.overlaps(metatile.tileColumns) ? range.clamped(to: metatile.tileColumns) : nil
        }
        return rows.flatMap { row in
            columns.flatMap { range in range.map { TileID(uncheckedZ: metatile.z, x: $0, y: row) } }
        }
    }

    /// The number of ``tiles(in:)``, counted without listing them.
    public func tileCount(in metatile: MetatileID) -> Int {
        guard let rows = tileRows(atZoom: metatile.z), rows.overlaps(metatile.tileRows) else { return 0 }
        let columns = tileColumns(atZoom: metatile.z).reduce(0) { count, range in
            count + (range.overlaps(metatile.tileColumns) ? range.clamped(to: metatile.tileColumns).count : 0)
        }
        return rows.clamped(to: metatile.tileRows).count * columns
    }
}

// MARK: - Metatiles

extension MetatileCover {
    /// The metatile rows holding the cover's tiles at a zoom level; `nil` when there are none.
    func metatileRows(atZoom zoom: Int) -> ClosedRange<Int>? {
        tileRows(atZoom: zoom).map { $0.lowerBound / metatileSize...$0.upperBound / metatileSize }
    }

    /// The metatile columns holding the cover's tiles at a zoom level, as ascending, disjoint,
    /// non-adjacent ranges: the tile ranges on both sides of the antimeridian may share a metatile.
    func metatileColumns(atZoom zoom: Int) -> [ClosedRange<Int>] {
        var merged: [ClosedRange<Int>] = []
        for range in tileColumns(atZoom: zoom).map({ $0.lowerBound / metatileSize...$0.upperBound / metatileSize })
            .sorted(by: { $0.lowerBound < $1.lowerBound })
        {
            if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The number of metatiles holding the cover's tiles at a zoom level.
    public func metatileCount(atZoom zoom: Int) -> Int {
        guard let rows = metatileRows(atZoom: zoom) else { return 0 }
        return rows.count * metatileColumns(atZoom: zoom).reduce(0) { $0 + $1.count }
    }

    /// The number of metatiles at all the cover's zoom levels.
    public var metatileCount: Int { zoomLevels.reduce(0) { $0 + metatileCount(atZoom: $1) } }

    /// The cover's metatiles, lazily: zoom by zoom from the lowest, each zoom's rows from the
    /// north and each row's columns from the west. The order never changes for the same cover,
    /// so it numbers the metatiles (see ``position(of:)``) for resuming and sharding.
    public var metatiles: Metatiles { Metatiles(cover: self) }

    /// Where a metatile comes in ``metatiles``, from 0; `nil` when it holds none of the cover's
    /// tiles (or has another size). Computed, not searched.
    public func position(of metatile: MetatileID) -> Int? {
        guard metatile.size == metatileSize, let rows = metatileRows(atZoom: metatile.z), rows.contains(metatile.y)
        else { return nil }
        let columns = metatileColumns(atZoom: metatile.z)
        var column: Int?
        var before = 0
        for range in columns {
            if range.contains(metatile.x) {
                column = before + metatile.x - range.lowerBound
                break
            }
            before += range.count
        }
        guard let column else { return nil }
        let earlierZooms = (zoomLevels.lowerBound..<metatile.z).reduce(0) { $0 + metatileCount(atZoom: $1) }
        let perRow = columns.reduce(0) { $0 + $1.count }
        return earlierZooms + (metatile.y - rows.lowerBound) * perRow + column
    }

    /// The cover's metatiles dealt among `count` shards like cards, in ``metatiles`` order:
    /// shard `index` (from 0) gets the metatiles at positions `index`, `index + count`, ...
    /// Each metatile goes to exactly one shard, whole, and the shards' sizes differ by at most
    /// one metatile; every zoom is spread over all the shards.
    ///
    /// - Throws: ``MapCoreError/invalidShard(index:count:)`` unless `count >= 1` and `0 <= index < count`.
    public func metatiles(inShard index: Int, of count: Int) throws(MapCoreError) -> some Sequence<MetatileID> {
        guard count >= 1, (0..<count).contains(index) else { throw .invalidShard(index: index, count: count) }
        return metatiles.enumerated().lazy.filter { $0.offset % count == index }.map(\.element)
    }

    /// The number of the cover's tiles in one shard (see ``metatiles(inShard:of:)``): counted
    /// metatile by metatile, so it takes time in proportion to ``metatileCount`` / `count`.
    ///
    /// - Throws: ``MapCoreError/invalidShard(index:count:)``.
    public func tileCount(inShard index: Int, of count: Int) throws(MapCoreError) -> Int {
        try metatiles(inShard: index, of: count).reduce(0) { $0 + tileCount(in: $1) }
    }

    /// The cover's metatiles in order, made one at a time.
    public struct Metatiles: Sequence, Sendable {
        let cover: MetatileCover

        public func makeIterator() -> Iterator { Iterator(cover: cover) }

        /// Walks zooms, rows and column ranges.
        public struct Iterator: IteratorProtocol, Sendable {
            private let cover: MetatileCover
            private var zoom: Int
            private var rows: ClosedRange<Int>?
            private var columns: [ClosedRange<Int>] = []
            private var row = 0
            private var rangeIndex = 0
            private var column = 0

            init(cover: MetatileCover) {
                self.cover = cover
                zoom = cover.zoomLevels.lowerBound - 1
            }

            public mutating func next() -> MetatileID? {
                while true {
                    if let rows, rangeIndex < columns.count {
                        let metatile = MetatileID(uncheckedZ: zoom, x: column, y: row, size: cover.metatileSize)
                        if column < columns[rangeIndex].upperBound {
                            column += 1
                        } else if rangeIndex + 1 < columns.count {
                            rangeIndex += 1
                            column = columns[rangeIndex].lowerBound
                        } else if row < rows.upperBound {
                            row += 1
                            rangeIndex = 0
                            column = columns[0].lowerBound
                        } else {
                            rangeIndex = columns.count
                        }
                        return metatile
                    }
                    // The next zoom with metatiles.
                    guard zoom < cover.zoomLevels.upperBound else { return nil }
                    zoom += 1
                    rows = cover.metatileRows(atZoom: zoom)
                    columns = cover.metatileColumns(atZoom: zoom)
                    row = rows?.lowerBound ?? 0
                    rangeIndex = 0
                    column = columns.first?.lowerBound ?? 0
                }
            }
        }
    }
}
