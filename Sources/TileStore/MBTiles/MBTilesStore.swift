import Foundation
import MapCore
import MapSQLite

/// Tiles in an MBTiles 1.3 file: an SQLite database with a `metadata` table of name/value rows
/// and a `tiles` table of `zoom_level`, `tile_column`, `tile_row` and `tile_data`.
///
/// The same file serves as a raster source, as the cache of tiles fetched over HTTP, as the
/// output of a batch export and as what a tile server serves. For example:
///
/// ```swift
/// let store = try MBTilesStore(url: URL(fileURLWithPath: "Tiles/satellite.mbtiles"), mode: .create)
/// try store.writeMetadata(MBTilesMetadata(name: "Satellite", format: .jpg))
/// try store.write([try TileID(z: 1, x: 0, y: 0): jpegBytes, try TileID(z: 1, x: 1, y: 0): otherBytes])
/// ```
///
/// Addresses are ``TileID``s in the XYZ scheme; the file stores rows in the TMS scheme, counted
/// from the south, as the specification requires: XYZ tile 11/327/791 is `tile_row` 1256, since
/// 1256 = 2^11 − 1 − 791. (A `scheme` metadata row does not change this; the specification only
/// allows `tms`.) Views in place of the tables are accepted for reading, as the specification
/// allows; a `tiles` view cannot be written.
///
/// A writable store puts the file in WAL mode, so other connections and processes (a tile server,
/// say) keep reading while tiles are written. New files get the MBTiles application id
/// (`0x4D504258`) and unique indexes on `metadata (name)` and `tiles (zoom_level, tile_column, tile_row)`.
///
/// **Threads.** The store is `Sendable` without `@unchecked`: it holds only constants, an
/// `NSLock`, and a MapSQLite ``Database``, a serialized (`SQLITE_OPEN_FULLMUTEX`) connection.
/// The lock is held for each whole operation, a batch write's transaction included, so one
/// thread's transaction never takes in another thread's statements. Reads are a single indexed
/// lookup each, so serializing them costs little next to decoding the images.
///
/// Related specification: <https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md>
public final class MBTilesStore: TileStore {
    /// How an MBTiles file is opened.
    public enum Mode: Hashable, Sendable {
        /// Reading an existing file.
        case readOnly
        /// Reading and writing an existing file.
        case readWrite
        /// Reading and writing, creating the file, its folder and the MBTiles tables when the file
        /// is missing or empty. An existing SQLite file without the tables is refused, not changed.
        case create
    }

    /// The MBTiles file.
    public let url: URL
    /// How the file was opened.
    public let mode: Mode
    /// Whether tiles can be written: the file is open for writing and `tiles` is a table, not a view.
    public let isWritable: Bool

    private let database: Database
    private let lock = NSLock()

    /// The MBTiles application id, "MPBX", from SQLite's list of assigned magic numbers.
    static let applicationID: Int32 = 0x4D50_4258

    /// Opens an MBTiles file, or creates one.
    ///
    /// - Parameters:
    ///   - url: The file; `Tiles/…` paths are relative to the working directory.
    ///   - mode: How to open it. The default is ``Mode/readOnly``.
    /// - Throws: ``TileStoreError/missingFile(path:)`` when a file to read is not there,
    ///   ``TileStoreError/notMBTiles(path:reason:)`` for a file that is not SQLite or lacks the
    ///   tables, ``TileStoreError/invalidSchema(path:table:reason:)`` for a table without a
    ///   required column, ``TileStoreError/unwritableDirectory(path:reason:)`` when the folder of a
    ///   new file cannot be made, ``TileStoreError/sqlite(_:)`` for other SQLite failures.
    public init(url: URL, mode: Mode = .readOnly) throws(TileStoreError) {
        let path = url.path
        if mode == .create {
            let folder = url.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .unwritableDirectory(path: folder.path, reason: Self.reason(error))
            }
        } else if !FileManager.default.fileExists(atPath: path) {
            throw .missingFile(path: path)
        }
        let database: Database
        do {
            database = try Database(path: path, mode: mode == .readOnly ? .readOnly : mode == .readWrite ? .readWrite : .readWriteCreate)
        } catch {
            throw .sqlite(error)
        }
        self.url = url
        self.mode = mode
        self.database = database
        do {
            if mode == .create { try Self.createTablesIfEmpty(database) }
            let types = try Self.tableTypes(database)
            for table in ["metadata", "tiles"] where types[table] == nil {
                throw TileStoreError.notMBTiles(path: path, reason: "it has no `\(table)` table")
            }
            try Self.requireColumns(["name", "value"], of: "metadata", in: database)
            try Self.requireColumns(["zoom_level", "tile_column", "tile_row", "tile_data"], of: "tiles", in: database)
            isWritable = mode != .readOnly && types["tiles"] == "table"
            if mode != .readOnly {
                // Readers elsewhere keep reading while this connection writes.
                try database.prepare("PRAGMA journal_mode = WAL").step()
                try database.execute("PRAGMA synchronous = NORMAL")
            }
        } catch let error as TileStoreError {
            throw error
        } catch let error as SQLiteError {
            // A file that is not SQLite opens, then fails on the first read (SQLITE_NOTADB).
            if error.primaryResultCode == 26 { throw .notMBTiles(path: path, reason: "it is not an SQLite database") }
            throw .sqlite(error)
        } catch {
            throw .sqlite(SQLiteError(resultCode: 1, message: "\(error)", path: path))
        }
    }

    /// The file's path, as errors name it.
    public var path: String { url.path }

    // MARK: - Tiles

    /// The bytes of a tile, or nil when the file has none.
    ///
    /// - Throws: ``TileStoreError/sqlite(_:)``.
    public func tile(at id: TileID) throws(TileStoreError) -> Data? {
        try tiles(at: [id])[id]
    }

    /// The bytes of several tiles, read with one statement under one lock; missing tiles are absent.
    ///
    /// - Throws: ``TileStoreError/sqlite(_:)``.
    public func tiles(at ids: [TileID]) throws(TileStoreError) -> [TileID: Data] {
        try withDatabase { database in
            let statement = try database.prepare(
                "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ? LIMIT 1")
            var found: [TileID: Data] = [:]
            for id in ids {
                statement.reset()
                try statement.bind(Self.key(id))
                if try statement.step(), let data = statement.data(at: 0) { found[id] = data }
            }
            return found
        }
    }

    /// Stores a tile, replacing any the file had at that address.
    ///
    /// - Throws: ``TileStoreError/readOnly(path:reason:)``, ``TileStoreError/sqlite(_:)``.
    public func write(_ data: Data, at id: TileID) throws(TileStoreError) {
        try write([id: data])
    }

    /// Stores several tiles in one transaction: all of them, or none when it throws.
    ///
    /// Batches of a few hundred tiles write far faster than one transaction per tile.
    ///
    /// - Throws: ``TileStoreError/readOnly(path:reason:)``, ``TileStoreError/sqlite(_:)``.
    public func write(_ tiles: [TileID: Data]) throws(TileStoreError) {
        try requireWritable()
        guard !tiles.isEmpty else { return }
        try withDatabase { database in
            try database.inTransaction {
                // Delete, then insert: right even in a file whose tiles table lacks the unique index.
                let delete = try database.prepare("DELETE FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
                let insert = try database.prepare(
                    "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
                for (id, data) in tiles {
                    delete.reset()
                    try delete.bind(Self.key(id))
                    try delete.step()
                    insert.reset()
                    try insert.bind(Self.key(id) + [.blob([UInt8](data))])
                    try insert.step()
                }
            }
        }
    }

    /// Whether the file has the tile, without reading its bytes.
    ///
    /// - Throws: ``TileStoreError/sqlite(_:)``.
    public func contains(_ id: TileID) throws(TileStoreError) -> Bool {
        try withDatabase { database in
            let statement = try database.prepare(
                "SELECT 1 FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ? LIMIT 1")
            try statement.bind(Self.key(id))
            return try statement.step()
        }
    }

    /// The number of tiles in the file.
    ///
    /// - Throws: ``TileStoreError/sqlite(_:)``.
    public func count() throws(TileStoreError) -> Int {
        try withDatabase { database in
            let statement = try database.prepare("SELECT count(*) FROM tiles")
            try statement.step()
            return Int(statement.int64(at: 0))
        }
    }

    /// The lowest and highest zoom levels with tiles, or nil when the file has none.
    ///
    /// For when `minzoom` and `maxzoom` are missing from the metadata.
    ///
    /// - Throws: ``TileStoreError/sqlite(_:)``.
    public func zoomRange() throws(TileStoreError) -> ClosedRange<Int>? {
        try withDatabase { database in
            let statement = try database.prepare("SELECT min(zoom_level), max(zoom_level) FROM tiles")
            guard try statement.step(), !statement.isNull(at: 0) else { return nil }
            return Int(statement.int64(at: 0))...Int(statement.int64(at: 1))
        }
    }

    // MARK: - Metadata

    /// The `metadata` table, typed.
    ///
    /// - Throws: ``TileStoreError/invalidMetadata(path:name:value:reason:)`` for a malformed
    ///   `bounds`, `center`, `minzoom` or `maxzoom`; ``TileStoreError/sqlite(_:)``.
    public func metadata() throws(TileStoreError) -> MBTilesMetadata {
        let rows = try withDatabase { database in
            var rows: [String: String] = [:]
            try database.prepare("SELECT name, value FROM metadata").forEachRow { row in
                if let name = row.text(at: 0) { rows[name] = row.text(at: 1) ?? "" }
            }
            return rows
        }
        return try MBTilesMetadata(rows: rows, path: path)
    }

    /// Writes every value of `metadata` that is not nil, replacing those rows; other rows stay.
    ///
    /// - Throws: ``TileStoreError/readOnly(path:reason:)``, ``TileStoreError/sqlite(_:)``.
    public func writeMetadata(_ metadata: MBTilesMetadata) throws(TileStoreError) {
        try setMetadataValues(metadata.rows)
    }

    /// The value of one metadata row, or nil when there is none.
    ///
    /// - Throws: ``TileStoreError/sqlite(_:)``.
    public func metadataValue(forKey name: String) throws(TileStoreError) -> String? {
        try withDatabase { database in
            let statement = try database.prepare("SELECT value FROM metadata WHERE name = ? LIMIT 1")
            try statement.bind(.text(name))
            return try statement.step() ? statement.text(at: 0) : nil
        }
    }

    /// Sets one metadata row; nil deletes it.
    ///
    /// - Throws: ``TileStoreError/readOnly(path:reason:)``, ``TileStoreError/sqlite(_:)``.
    public func setMetadataValue(_ value: String?, forKey name: String) throws(TileStoreError) {
        try setMetadataValues([name: value])
    }

    private func setMetadataValues(_ values: [String: String?]) throws(TileStoreError) {
        guard mode != .readOnly else { throw .readOnly(path: path, reason: "the file is open read-only") }
        try withDatabase { database in
            try database.inTransaction {
                for (name, value) in values {
                    try database.execute("DELETE FROM metadata WHERE name = ?", arguments: [.text(name)])
                    if let value {
                        try database.execute("INSERT INTO metadata (name, value) VALUES (?, ?)", arguments: [.text(name), .text(value)])
                    }
                }
            }
        }
    }

    // MARK: - Internals

    /// The `zoom_level`, `tile_column` and `tile_row` of a tile: the row flipped to TMS.
    private static func key(_ id: TileID) -> [SQLiteValue] {
        [.integer(Int64(id.z)), .integer(Int64(id.x)), .integer(Int64(id.tmsY))]
    }

    private func requireWritable() throws(TileStoreError) {
        guard isWritable else {
            throw .readOnly(path: path, reason: mode == .readOnly ? "the file is open read-only" : "`tiles` is a view, not a table")
        }
    }

    /// Runs `body` with the connection, holding the lock; SQLite errors become ``TileStoreError/sqlite(_:)``.
    private func withDatabase<Result>(_ body: (Database) throws -> Result) throws(TileStoreError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try body(database)
        } catch let error as TileStoreError {
            throw error
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch {
            throw .sqlite(SQLiteError(resultCode: 1, message: "\(error)", path: path))
        }
    }

    /// Creates the MBTiles tables in a database that has no tables at all; leaves any other alone.
    private static func createTablesIfEmpty(_ database: Database) throws {
        try database.inTransaction {
            let statement = try database.prepare("SELECT count(*) FROM sqlite_master")
            try statement.step()
            guard statement.int64(at: 0) == 0 else { return }
            try database.execute("""
                PRAGMA application_id = \(applicationID);
                CREATE TABLE metadata (name text, value text);
                CREATE UNIQUE INDEX name ON metadata (name);
                CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
                CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                INSERT INTO metadata (name, value) VALUES ('scheme', 'tms');
                """)
        }
    }

    /// `table` or `view` for the `metadata` and `tiles` entries of the schema, by lowercased name.
    private static func tableTypes(_ database: Database) throws -> [String: String] {
        var types: [String: String] = [:]
        try database.prepare(
            "SELECT lower(name), type FROM sqlite_master WHERE type IN ('table', 'view') AND lower(name) IN ('metadata', 'tiles')"
        ).forEachRow { row in
            types[row.text(at: 0) ?? ""] = row.text(at: 1)
        }
        return types
    }

    private static func requireColumns(_ columns: [String], of table: String, in database: Database) throws {
        var present: Set<String> = []
        try database.prepare("PRAGMA table_info(\(quotedSQLIdentifier(table)))").forEachRow { row in
            present.insert((row.text(at: 1) ?? "").lowercased())
        }
        let missing = columns.filter { !present.contains($0) }
        guard missing.isEmpty else {
            let list = missing.map { "`\($0)`" }.joined(separator: ", ")
            throw TileStoreError.invalidSchema(
                path: database.path, table: table, reason: "it has no \(list) column\(missing.count == 1 ? "" : "s")")
        }
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? error.localizedDescription
    }
}
