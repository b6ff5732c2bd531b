public import Foundation
public import MapCore
import MapSQLite

/// How a tile of one MBTiles file compares with the tile at the same address in another.
public enum MBTilesTileComparison: Hashable, Sendable {
    /// Both files have the tile, with the same bytes.
    case identical(TileID)
    /// Only the file compared has the tile (the receiver of ``MBTilesStore/compareTiles(with:_:)``).
    case onlyInThis(TileID, Data)
    /// Only the other file has the tile.
    case onlyInOther(TileID, Data)
    /// Both files have the tile, with different bytes.
    case different(TileID, this: Data, other: Data)

    /// The tile's address.
    public var id: TileID {
        switch self {
        case .identical(let id), .onlyInThis(let id, _), .onlyInOther(let id, _), .different(let id, _, _): id
        }
    }
}

extension MBTilesStore {
    // MARK: - Iteration

    /// A cursor over every tile (or those of some zoom levels) in file order: zoom, column, TMS row.
    ///
    /// - Parameters:
    ///   - zoomLevels: The zoom levels to read; nil reads them all, as ``forEachTile(_:)`` does.
    ///   - readingData: Whether to read the tiles' bytes; false reads addresses (and image ids)
    ///     only, from the index. The default is true.
    /// - Throws: ``MBTilesError/sqlite(_:)``.
    public func tileCursor(zoomLevels: ClosedRange<Int>? = nil, readingData: Bool = true) throws(MBTilesError)
        -> MBTilesTileCursor
    {
        try MBTilesTileCursor(store: self, zoomLevels: zoomLevels, readingData: readingData)
    }

    /// Calls `body` with every tile (or those of some zoom levels), in file order: zoom, column, TMS row.
    ///
    /// - Parameters:
    ///   - zoomLevels: The zoom levels to read; nil reads them all, as ``forEachTile(_:)`` does.
    ///   - body: Gets each tile's address and bytes (empty for a NULL `tile_data`); throwing stops the loop.
    /// - Throws: ``MBTilesError``, or what `body` throws.
    public func forEachTile(zoomLevels: ClosedRange<Int>?, _ body: (TileID, Data) throws -> Void) throws {
        let cursor = try tileCursor(zoomLevels: zoomLevels)
        defer { cursor.close() }
        while let tile = try cursor.next() {
            try body(tile.id, tile.data ?? Data())
        }
    }

    /// Whether `first` comes before `second` in file order: by zoom level, then column, then TMS
    /// row from the south (so rows from the north descending). The order of ``tileCursor(zoomLevels:readingData:)``,
    /// ``forEachTile(zoomLevels:_:)`` and `agg_tiles_hash`; not ``TileID``'s own `Comparable` order.
    public static func precedesInFileOrder(_ first: TileID, _ second: TileID) -> Bool {
        (first.z, first.x, first.tmsY) < (second.z, second.x, second.tmsY)
    }

    // MARK: - Existence

    /// The tiles of a zoom level the file has, from the index of addresses without reading any
    /// tile (`map`'s primary key in the normalized layout, where a row whose image is missing,
    /// which only damage makes and ``validate(maximumIntegrityProblems:)`` reports, counts): what
    /// a resumed export skips.
    ///
    /// - Throws: ``MBTilesError``.
    public func existingTiles(zoom: Int) throws(MBTilesError) -> Set<TileID> {
        try existingTiles(
            sql: "SELECT tile_column, tile_row FROM \(addressTable) WHERE zoom_level = ?", zoom: zoom, arguments: [])
    }

    /// The tiles the file has in a block of a zoom level (a metatile, a shard's area), from the
    /// index of addresses without reading any tile.
    ///
    /// - Parameters:
    ///   - zoom: The zoom level.
    ///   - columns: The columns `x`, west to east.
    ///   - rows: The XYZ rows `y`, from the north.
    /// - Throws: ``MBTilesError``.
    public func existingTiles(zoom: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) throws(MBTilesError) -> Set<
        TileID
    > {
        let last = (1 << min(max(zoom, 0), TileID.maximumZoom)) - 1
        // XYZ rows y0...y1 are TMS rows (last - y1)...(last - y0).
        let arguments: [SQLiteValue] = [
            .integer(Int64(columns.lowerBound)), .integer(Int64(columns.upperBound)),
            .integer(Int64(last - rows.upperBound)), .integer(Int64(last - rows.lowerBound)),
        ]
        return try existingTiles(
            sql:
                "SELECT tile_column, tile_row FROM \(addressTable) WHERE zoom_level = ? AND tile_column BETWEEN ? AND ? AND tile_row BETWEEN ? AND ?",
            zoom: zoom, arguments: arguments)
    }

    private func existingTiles(sql: String, zoom: Int, arguments: [SQLiteValue]) throws(MBTilesError) -> Set<TileID> {
        let rows = try readers.withReader { reader in
            try reader.withStatement(sql) { statement in
                try statement.bind([.integer(Int64(zoom))] + arguments)
                var rows: [(Int64, Int64)] = []
                try statement.forEachRow { rows.append(($0.int64(at: 0), $0.int64(at: 1))) }
                return rows
            }
        }
        var tiles = Set<TileID>(minimumCapacity: rows.count)
        for (column, row) in rows {
            tiles.insert(try tileID(zoom: Int64(zoom), column: column, row: row))
        }
        return tiles
    }

    // MARK: - Comparison

    /// Walks this file and `other` side by side in file order and calls `body` for every address
    /// either has: what `tiles diff` and a test comparing two exports need.
    ///
    /// When both files are normalized, tiles are compared by their image ids (MD5s), without
    /// reading their bytes; only tiles that differ or are in one file are read. Otherwise the
    /// bytes are compared.
    ///
    /// - Returns: How many tiles fell in each case.
    /// - Throws: ``MBTilesError``, or what `body` throws.
    @discardableResult
    public func compareTiles(with other: MBTilesStore, _ body: (MBTilesTileComparison) throws -> Void) throws
        -> MBTilesComparisonCounts
    {
        let byImageID = schema == .normalized && other.schema == .normalized
        let mine = try tileCursor(readingData: !byImageID)
        let theirs = try other.tileCursor(readingData: !byImageID)
        defer {
            mine.close()
            theirs.close()
        }
        func bytes(_ tile: MBTilesTile, in store: MBTilesStore) throws -> Data {
            if let data = tile.data { return data }
            return try store.tile(at: tile.id) ?? Data()
        }
        var counts = MBTilesComparisonCounts()
        var left = try mine.next()
        var right = try theirs.next()
        while left != nil || right != nil {
            if let l = left, right == nil || Self.precedesInFileOrder(l.id, right!.id) {
                counts.onlyInThis += 1
                try body(.onlyInThis(l.id, try bytes(l, in: self)))
                left = try mine.next()
            } else if let r = right, left == nil || Self.precedesInFileOrder(r.id, left!.id) {
                counts.onlyInOther += 1
                try body(.onlyInOther(r.id, try bytes(r, in: other)))
                right = try theirs.next()
            } else if let l = left, let r = right {
                let same: Bool
                if byImageID, let a = l.imageID, let b = r.imageID, a.count == 32, b.count == 32 {
                    same = a.uppercased() == b.uppercased()
                } else {
                    same = try bytes(l, in: self) == bytes(r, in: other)
                }
                if same {
                    counts.identical += 1
                    try body(.identical(l.id))
                } else {
                    counts.different += 1
                    try body(.different(l.id, this: try bytes(l, in: self), other: try bytes(r, in: other)))
                }
                left = try mine.next()
                right = try theirs.next()
            }
        }
        return counts
    }
}

/// How many tiles ``MBTilesStore/compareTiles(with:_:)`` found in each case.
public struct MBTilesComparisonCounts: Hashable, Sendable {
    /// Tiles both files have, with the same bytes.
    public var identical = 0
    /// Tiles only the file compared has.
    public var onlyInThis = 0
    /// Tiles only the other file has.
    public var onlyInOther = 0
    /// Tiles both files have, with different bytes.
    public var different = 0

    /// Whether the two files hold the same tiles.
    public var filesMatch: Bool { onlyInThis == 0 && onlyInOther == 0 && different == 0 }
}
