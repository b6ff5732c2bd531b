import Foundation
import MapSQLite
import Synchronization

extension MBTilesStore {
    /// Looks at the file before anything opens it for writing, changing nothing.
    ///
    /// - Returns: The file's layout, or nil for a missing or empty file that ``Mode/create`` will
    ///   make (a zero-byte file, or an SQLite database without a single table).
    /// - Throws: ``MBTilesError/missingFile(path:)``, ``MBTilesError/notMBTiles(path:reason:)``,
    ///   ``MBTilesError/corrupt(path:reason:)``, ``MBTilesError/invalidSchema(path:table:reason:)``.
    static func inspectExistingFile(at url: URL, mode: Mode) throws(MBTilesError) -> MBTilesSchema? {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            if mode == .create { return nil }
            throw .missingFile(path: path)
        }
        // The header, read as bytes: a text file or an empty one never reaches SQLite. (A file
        // that cannot be read goes on to SQLite, which says why.)
        if let handle = try? FileHandle(forReadingFrom: url),
            let header = try? handle.read(upToCount: sqliteHeader.count) ?? Data()
        {
            if header.isEmpty {
                if mode == .create { return nil }
                throw .notMBTiles(path: path, reason: "the file is empty")
            }
            guard header == sqliteHeader else {
                throw .notMBTiles(path: path, reason: "it is not an SQLite database")
            }
        }
        // The schema, through a connection that takes no lock and makes no -wal or -shm file.
        // Only while no -wal or -journal file exists: an immutable connection would ignore the
        // commits of the one and the half-written pages the other is there to undo.
        let companionExists = ["-wal", "-journal"].contains { FileManager.default.fileExists(atPath: path + $0) }
        let inspection: MBTilesSchema.Inspection
        do {
            let database = try Database(path: path, mode: companionExists ? .readOnly : .immutable)
            inspection = try MBTilesSchema.inspect(database, path: path)
        } catch {
            throw MBTilesError.wrapping(error, path: path)
        }
        switch inspection {
        case .mbtiles(let schema):
            return schema
        case .empty:
            if mode == .create { return nil }
            throw .notMBTiles(path: path, reason: "the database has no tables")
        }
    }

    /// The first 16 bytes of every SQLite 3 database file.
    private static let sqliteHeader = Data("SQLite format 3\0".utf8)
}

/// The one read-write connection of a store, one transaction at a time.
final class MBTilesWriteConnection: Sendable {
    let path: String
    private let database: Mutex<Database>

    init(path: String, mode: MBTilesStore.Mode) throws(MBTilesError) {
        self.path = path
        do {
            database = Mutex(try Database(path: path, mode: mode == .create ? .readWriteCreate : .readWrite))
        } catch {
            throw MBTilesError.wrapping(error, path: path)
        }
    }

    /// Runs `body` with the connection, holding the lock; errors become ``MBTilesError``.
    func withDatabase<Result: Sendable>(_ body: (Database) throws -> Result) throws(MBTilesError) -> Result {
        do {
            return try database.withLock { database in try body(database) }
        } catch {
            throw MBTilesError.wrapping(error, path: path)
        }
    }

    /// Makes the MBTiles tables in a file without any; returns the layout the file has after.
    func createTablesIfEmpty(_ schema: MBTilesSchema) throws(MBTilesError) -> MBTilesSchema {
        try withDatabase { database in
            try database.inTransaction {
                // Asked again inside the write lock: another process may have made the file meanwhile.
                switch try MBTilesSchema.inspect(database, path: path) {
                case .mbtiles(let found):
                    return found
                case .empty:
                    try database.execute(schema.creationSQL)
                    return schema
                }
            }
        }
    }

    /// Puts the file in WAL mode, with `synchronous = NORMAL`.
    ///
    /// Changing the journal mode needs the file to itself, and SQLite answers `SQLITE_BUSY` at once
    /// (its busy timeout does not apply) while another connection reads it: two renders opening
    /// the same tile cache at once, in one process or two, made one of them fail ("database is
    /// locked"). The change is tried again every 50 ms for up to 5 s.
    func enableWAL() throws(MBTilesError) {
        var attempts = 1
        while true {
            do throws(MBTilesError) {
                try withDatabase { database in _ = try database.prepare("PRAGMA journal_mode = WAL").step() }
                break
            } catch {
                guard case .sqlite(let sqlite) = error, sqlite.primaryResultCode == 5, attempts < Self.walAttempts
                else { throw error }  // SQLITE_BUSY
                attempts += 1
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        try withDatabase { database in try database.execute("PRAGMA synchronous = NORMAL") }
    }

    /// How many times ``enableWAL()`` tries, 50 ms apart: 100 (5 s).
    private static let walAttempts = 100
}
