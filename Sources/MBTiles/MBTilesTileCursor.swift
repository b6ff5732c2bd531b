public import Foundation
public import MapCore
import MapSQLite

/// A tile as an iteration over an MBTiles file reads it.
public struct MBTilesTile: Hashable, Sendable {
    /// The tile's address (XYZ).
    public let id: TileID
    /// The tile's bytes; nil when the cursor reads addresses only.
    public let data: Data?
    /// In the normalized layout, the `tile_id` the file stores for the bytes (an MD5 in files
    /// Mapwright and martin write; mbutil writes lowercase hexadecimal); nil in other layouts.
    public let imageID: String?
}

/// Every tile of an MBTiles file, one at a time, in file order: by zoom level, then column
/// (west to east), then TMS row (south to north), the order of the file's index and of
/// `agg_tiles_hash`. ``MBTilesStore/precedesInFileOrder(_:_:)`` compares two addresses in
/// that order, so two cursors can be walked side by side.
///
/// For example, extracting every tile:
///
/// ```swift
/// let cursor = try store.tileCursor()
/// while let tile = try cursor.next() {
///     try tile.data!.write(to: folder.appendingPathComponent("\(tile.id.z)/\(tile.id.x)/\(tile.id.y).png"))
/// }
/// ```
///
/// The cursor reads one consistent state of the file, the one committed when it began, on a
/// read-only connection of its own, so a writer may commit meanwhile. It holds SQLite's read
/// snapshot until it ends or ``close()`` is called: a long-lived cursor keeps the WAL from being
/// checkpointed, so close those not read to the end. Not `Sendable`: one thread at a time.
public final class MBTilesTileCursor {
    /// The file.
    public let path: String
    private let pool: MBTilesReaderPool
    private var reader: MBTilesReader?
    private var statement: Statement?
    private let store: MBTilesStore

    init(store: MBTilesStore, zoomLevels: ClosedRange<Int>?, readingData: Bool) throws(MBTilesError) {
        self.store = store
        path = store.path
        pool = store.readers
        let reader = try pool.checkOut()
        let sql: String
        if store.schema == .normalized {
            // `map` and `images` joined as the `tiles` view joins them, with the image id.
            sql = """
                SELECT map.zoom_level, map.tile_column, map.tile_row, \(readingData ? "images.tile_data" : "NULL"), map.tile_id \
                FROM map JOIN images ON images.tile_id = map.tile_id \
                \(zoomLevels == nil ? "" : "WHERE map.zoom_level BETWEEN ? AND ?") \
                ORDER BY map.zoom_level, map.tile_column, map.tile_row
                """
        } else {
            sql = """
                SELECT zoom_level, tile_column, tile_row, \(readingData ? "tile_data" : "NULL"), NULL FROM tiles \
                \(zoomLevels == nil ? "" : "WHERE zoom_level BETWEEN ? AND ?") ORDER BY zoom_level, tile_column, tile_row
                """
        }
        do {
            let statement = try reader.database.prepare(sql)
            if let zoomLevels {
                try statement.bind([.integer(Int64(zoomLevels.lowerBound)), .integer(Int64(zoomLevels.upperBound))])
            }
            self.statement = statement
            self.reader = reader
        } catch {
            pool.checkIn(reader)
            throw MBTilesError.wrapping(error, path: path)
        }
    }

    deinit {
        close()
    }

    /// The next tile, or nil after the last (the cursor then closes itself).
    ///
    /// - Throws: ``MBTilesError/invalidTileAddress(path:zoom:column:row:)`` for a row outside
    ///   the grid, ``MBTilesError/corrupt(path:reason:)``, ``MBTilesError/sqlite(_:)``.
    public func next() throws(MBTilesError) -> MBTilesTile? {
        guard let statement else { return nil }
        let hasRow: Bool
        do {
            hasRow = try statement.step()
        } catch {
            close()
            throw MBTilesError.wrapping(error, path: path)
        }
        guard hasRow else {
            close()
            return nil
        }
        let id = try store.tileID(
            zoom: statement.int64(at: 0), column: statement.int64(at: 1), row: statement.int64(at: 2))
        return MBTilesTile(id: id, data: statement.data(at: 3), imageID: statement.text(at: 4))
    }

    /// Ends the iteration and gives the connection back; ``next()`` then returns nil.
    public func close() {
        statement = nil
        if let reader {
            self.reader = nil
            pool.checkIn(reader)
        }
    }
}
