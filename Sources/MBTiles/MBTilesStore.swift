public import Foundation
public import MapCore
import MapSQLite
import MapUtilities
public import TileSources

/// Tiles in an MBTiles 1.3 file: an SQLite database with a `metadata` table of name/value rows
/// and a `tiles` table or view of `zoom_level`, `tile_column`, `tile_row` and `tile_data`.
///
/// The same file serves as a raster source, as the cache of tiles fetched over HTTP, as the
/// output of a batch export and as what a tile server serves. For example:
///
/// ```swift
/// let store = try MBTilesStore(url: URL(fileURLWithPath: "Tiles/satellite.mbtiles"), mode: .create)
/// try store.writeMetadata(TileMetadata(name: "Satellite", format: .jpg))
/// try store.write([try TileID(z: 1, x: 0, y: 0): jpegBytes, try TileID(z: 1, x: 1, y: 0): otherBytes])
/// ```
///
/// Addresses are ``TileID``s in the XYZ scheme; the file stores rows in the TMS scheme, counted
/// from the south, as the specification requires: XYZ tile 11/327/791 is `tile_row` 1256, since
/// 1256 = 2^11 − 1 − 791. (A `scheme` metadata row does not change this; the specification only
/// allows `tms`.)
///
/// **Layouts** (``MBTilesSchema``). New files are ``MBTilesSchema/normalized`` unless asked
/// otherwise: identical tiles share one image, as in martin's and mbutil's files. Flat files (a
/// `tiles` table: the HTTP cache, most other tools' files) are read and written as they are. A
/// `tiles` view over other tables is read, never written.
///
/// **Opening** never changes a file it refuses: the first look at a file reads its header
/// bytes, then its schema through an `immutable` connection that takes no lock and makes no
/// `-wal` or `-shm` file; only a file found to be MBTiles (or empty, in ``Mode/create``) is then
/// opened for reading or writing. A text file, a zero-byte file opened for reading, a GeoPackage,
/// a damaged database or an unknown layout is a ``MBTilesError`` naming the file.
///
/// **Threads and processes.** A writable store puts the file in WAL mode (`synchronous = NORMAL`:
/// a commit survives the process being killed; only a power cut can lose the last ones), so
/// readers in this and other processes keep reading while tiles are written. Reads go through a
/// pool of read-only connections, one per thread at a time, so a tile server's threads do not
/// wait for each other or for the writer, and never see a transaction before it commits. Writes
/// go through the store's one read-write connection, one transaction at a time; batch writers
/// (``MBTilesWriter``) share it. A read-only open of a WAL file leaves SQLite's `-wal` and `-shm`
/// files beside it, as every SQLite reader does; they are SQLite's, and harmless.
///
/// Related specification: <https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md>
public final class MBTilesStore: Sendable {
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
    /// The file's layout.
    public let schema: MBTilesSchema
    /// Whether tiles can be written: the file is open for writing and its layout is flat or normalized.
    public let isWritable: Bool

    let readers: MBTilesReaderPool
    /// The one read-write connection; nil for a read-only store.
    private let writeConnection: MBTilesWriteConnection?

    /// Opens an MBTiles file, or creates one.
    ///
    /// - Parameters:
    ///   - url: The file; `Tiles/…` paths are relative to the working directory.
    ///   - mode: How to open it. The default is ``Mode/readOnly``.
    ///   - newFileSchema: The layout of a file ``Mode/create`` makes; ignored for an existing
    ///     file. The default is ``MBTilesSchema/normalized``; ``MBTilesSchema/otherView`` is not allowed.
    ///   - maximumIdleReaders: How many read-only connections stay open between reads, in
    ///     connections. Threads reading at once each get one; more are opened when all are
    ///     busy. The default is 8.
    /// - Throws: ``MBTilesError/missingFile(path:)`` when a file to read is not there,
    ///   ``MBTilesError/notMBTiles(path:reason:)`` for a file that is empty (when read), not
    ///   SQLite, a GeoPackage, or without the tables, ``MBTilesError/corrupt(path:reason:)`` for a
    ///   damaged database, ``MBTilesError/invalidSchema(path:table:reason:)`` for a table without
    ///   a required column, ``MBTilesError/unwritableDirectory(path:reason:)`` when the folder of
    ///   a new file cannot be made, ``MBTilesError/sqlite(_:)`` for other SQLite failures.
    public init(
        url: URL,
        mode: Mode = .readOnly,
        newFileSchema: MBTilesSchema = .normalized,
        maximumIdleReaders: Int = 8
    ) throws(MBTilesError) {
        precondition(newFileSchema != .otherView, "a new MBTiles file is flat or normalized")
        let path = url.path
        self.url = url
        self.mode = mode
        readers = MBTilesReaderPool(path: path, maximumIdleCount: maximumIdleReaders)

        var found = try Self.inspectExistingFile(at: url, mode: mode)
        if found == nil {
            // A missing or empty file, in `.create` mode.
            let folder = url.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .unwritableDirectory(path: folder.path, reason: Self.reason(error))
            }
        }
        if mode == .readOnly {
            writeConnection = nil
        } else {
            let connection = try MBTilesWriteConnection(path: path, mode: mode)
            if found == nil { found = try connection.createTablesIfEmpty(newFileSchema) }
            writeConnection = connection
        }
        guard let schema = found else {
            preconditionFailure("a read-only open either finds MBTiles or throws")
        }
        self.schema = schema
        isWritable = mode != .readOnly && schema.isWritable
        if let writeConnection, schema.isWritable {
            try writeConnection.enableWAL()
        }
    }

    deinit {
        // Readers first: the write connection, closing last, can then checkpoint the WAL and
        // remove the -wal and -shm files.
        readers.closeIdleConnections()
    }

    /// The file's path, as errors name it.
    public var path: String { url.path }

    // MARK: - Tiles

    /// The bytes of a tile, or nil when the file has none.
    ///
    /// - Throws: ``MBTilesError/sqlite(_:)``, ``MBTilesError/corrupt(path:reason:)``.
    public func tile(at id: TileID) throws(MBTilesError) -> Data? {
        try tiles(at: [id])[id]
    }

    /// The bytes of several tiles, read with one statement on one connection; missing tiles are absent.
    ///
    /// - Throws: ``MBTilesError/sqlite(_:)``, ``MBTilesError/corrupt(path:reason:)``.
    public func tiles(at ids: [TileID]) throws(MBTilesError) -> [TileID: Data] {
        try readers.withReader { reader in
            try reader.withStatement(Self.selectTileSQL) { statement in
                var found: [TileID: Data] = [:]
                for id in ids {
                    statement.reset()
                    try statement.bind(Self.key(id))
                    if try statement.step(), let data = statement.data(at: 0) { found[id] = data }
                }
                return found
            }
        }
    }

    /// Stores a tile, replacing any the file had at that address.
    ///
    /// - Throws: ``MBTilesError/readOnly(path:reason:)``, ``MBTilesError/sqlite(_:)``.
    public func write(_ data: Data, at id: TileID) throws(MBTilesError) {
        try write([id: data])
    }

    /// Stores several tiles in one transaction: all of them, or none when it throws.
    ///
    /// Batches of a few hundred tiles write far faster than one transaction per tile; for an
    /// export, ``MBTilesWriter`` makes the batches. In the normalized layout, the image of a tile
    /// replaced by different bytes stays in `images` until ``removeUnusedImages()``.
    ///
    /// - Throws: ``MBTilesError/readOnly(path:reason:)``, ``MBTilesError/sqlite(_:)``.
    public func write(_ tiles: [TileID: Data]) throws(MBTilesError) {
        let connection = try requireWritable()
        guard !tiles.isEmpty else { return }
        let pending = tiles.map { MBTilesPendingTile(id: $0.key, data: $0.value, schema: schema) }
        try connection.withDatabase { database in
            try database.inTransaction {
                var inserter = try MBTilesTileInserter(database: database, schema: schema)
                for tile in pending { try inserter.insert(tile) }
            }
        }
    }

    /// Removes tiles, in one transaction; addresses the file does not hold are ignored. In the
    /// normalized layout their images stay in `images` until ``removeUnusedImages()``.
    ///
    /// - Returns: How many tiles were removed.
    /// - Throws: ``MBTilesError/readOnly(path:reason:)``, ``MBTilesError/sqlite(_:)``.
    @discardableResult
    public func removeTiles(_ ids: some Collection<TileID>) throws(MBTilesError) -> Int {
        let connection = try requireWritable()
        guard !ids.isEmpty else { return 0 }
        let table = addressTable
        return try connection.withDatabase { database in
            try database.inTransaction {
                let delete = try database.prepare(
                    "DELETE FROM \(table) WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
                var removed = 0
                for id in ids {
                    try delete.bind(Self.key(id))
                    _ = try delete.step()
                    delete.reset()
                    removed += database.changes
                }
                return removed
            }
        }
    }

    /// Whether the file has the tile, without reading its bytes: one lookup in the index of
    /// addresses (`map`'s primary key, or `tiles`' unique index; see ``existingTiles(zoom:)``).
    ///
    /// - Throws: ``MBTilesError/sqlite(_:)``.
    public func contains(_ id: TileID) throws(MBTilesError) -> Bool {
        try readers.withReader { reader in
            try reader.withStatement(
                "SELECT 1 FROM \(addressTable) WHERE zoom_level = ? AND tile_column = ? AND tile_row = ? LIMIT 1"
            ) {
                try $0.bind(Self.key(id))
                return try $0.step()
            }
        }
    }

    /// The number of tiles in the file.
    ///
    /// - Throws: ``MBTilesError/sqlite(_:)``.
    public func count() throws(MBTilesError) -> Int {
        try readers.withReader { reader in
            try reader.withStatement("SELECT count(*) FROM tiles") {
                try $0.step()
                return Int($0.int64(at: 0))
            }
        }
    }

    /// The lowest and highest zoom levels with tiles, or nil when the file has none.
    ///
    /// For when `minzoom` and `maxzoom` are missing from the metadata.
    ///
    /// - Throws: ``MBTilesError/sqlite(_:)``.
    public func zoomRange() throws(MBTilesError) -> ClosedRange<Int>? {
        try readers.withReader { reader in
            try reader.withStatement("SELECT min(zoom_level), max(zoom_level) FROM tiles") { statement in
                guard try statement.step(), !statement.isNull(at: 0) else { return nil }
                return Int(statement.int64(at: 0))...Int(statement.int64(at: 1))
            }
        }
    }

    // MARK: - Metadata

    /// The `metadata` table, typed.
    ///
    /// - Throws: ``MBTilesError/invalidMetadata(path:name:value:reason:)`` for a malformed
    ///   `bounds`, `center`, `minzoom` or `maxzoom`; ``MBTilesError/sqlite(_:)``.
    public func metadata() throws(MBTilesError) -> TileMetadata {
        try TileMetadata(rows: metadataRows(), path: path)
    }

    /// The `metadata` table as it is: values by name.
    ///
    /// - Throws: ``MBTilesError/sqlite(_:)``.
    public func metadataRows() throws(MBTilesError) -> [String: String] {
        try readers.withReader { reader in
            try reader.withStatement("SELECT name, value FROM metadata") { statement in
                var rows: [String: String] = [:]
                try statement.forEachRow { row in
                    if let name = row.text(at: 0) { rows[name] = row.text(at: 1) ?? "" }
                }
                return rows
            }
        }
    }

    /// Writes every value of `metadata` that is not nil, replacing those rows; other rows stay.
    ///
    /// - Throws: ``MBTilesError/readOnly(path:reason:)``, ``MBTilesError/sqlite(_:)``.
    public func writeMetadata(_ metadata: TileMetadata) throws(MBTilesError) {
        try setMetadataValues(metadata.rows)
    }

    /// The value of one metadata row, or nil when there is none.
    ///
    /// - Throws: ``MBTilesError/sqlite(_:)``.
    public func metadataValue(forKey name: String) throws(MBTilesError) -> String? {
        try readers.withReader { reader in
            try reader.withStatement("SELECT value FROM metadata WHERE name = ? LIMIT 1") { statement in
                try statement.bind(.text(name))
                return try statement.step() ? statement.text(at: 0) : nil
            }
        }
    }

    /// Sets one metadata row; nil deletes it.
    ///
    /// - Throws: ``MBTilesError/readOnly(path:reason:)``, ``MBTilesError/sqlite(_:)``.
    public func setMetadataValue(_ value: String?, forKey name: String) throws(MBTilesError) {
        try setMetadataValues([name: value])
    }

    /// Sets several metadata rows in one transaction; a nil value deletes its row.
    ///
    /// - Throws: ``MBTilesError/readOnly(path:reason:)``, ``MBTilesError/sqlite(_:)``.
    public func setMetadataValues(_ values: [String: String?]) throws(MBTilesError) {
        guard let writeConnection else { throw .readOnly(path: path, reason: "the file is open read-only") }
        try writeConnection.withDatabase { database in
            try database.inTransaction {
                for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                    try database.execute("DELETE FROM metadata WHERE name = ?", arguments: [.text(name)])
                    if let value {
                        try database.execute(
                            "INSERT INTO metadata (name, value) VALUES (?, ?)", arguments: [.text(name), .text(value)])
                    }
                }
            }
        }
    }

    // MARK: - Internals

    /// Reads one tile's bytes, whatever the layout: through `tiles`, which SQLite flattens into
    /// one lookup in `map` and one in `images` for a normalized file.
    static let selectTileSQL =
        "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ? LIMIT 1"

    /// The table or view whose rows are the tiles' addresses: `map` in the normalized layout
    /// (its primary key answers without touching `images`), `tiles` otherwise.
    var addressTable: String { schema == .normalized ? "map" : "tiles" }

    /// The `zoom_level`, `tile_column` and `tile_row` of a tile: the row flipped to TMS.
    static func key(_ id: TileID) -> [SQLiteValue] {
        [.integer(Int64(id.z)), .integer(Int64(id.x)), .integer(Int64(id.tmsY))]
    }

    /// The tile at a stored `zoom_level`, `tile_column` and TMS `tile_row`.
    ///
    /// - Throws: ``MBTilesError/invalidTileAddress(path:zoom:column:row:)`` outside the grid.
    func tileID(zoom: Int64, column: Int64, row: Int64) throws(MBTilesError) -> TileID {
        guard (0...Int64(TileID.maximumZoom)).contains(zoom),
            let id = try? TileID(z: Int(zoom), x: Int(clamping: column), tmsY: Int(clamping: row))
        else {
            throw .invalidTileAddress(path: path, zoom: zoom, column: column, row: row)
        }
        return id
    }

    /// The `tile_id` of bytes in the normalized layout: their MD5 in 32 uppercase hexadecimal
    /// digits, as martin's `md5_hex` writes it.
    static func imageID(of data: Data) -> String {
        MD5.digest(of: data).uppercaseHexDigits
    }

    /// The write connection.
    ///
    /// - Throws: ``MBTilesError/readOnly(path:reason:)`` for a read-only store or a view.
    func requireWritable() throws(MBTilesError) -> MBTilesWriteConnection {
        guard let writeConnection, isWritable else {
            throw .readOnly(
                path: path, reason: mode == .readOnly ? "the file is open read-only" : "`tiles` is a view, not a table")
        }
        return writeConnection
    }

    static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? error.localizedDescription
    }
}
