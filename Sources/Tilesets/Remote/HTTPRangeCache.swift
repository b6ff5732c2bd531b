import Foundation
import MapSQLite
import MapUtilities
import PMTiles
import Synchronization

/// Byte ranges of archives on web servers, kept on disk between runs: one SQLite file,
/// `ranges.sqlite`, in the cache folder (by default `~/.cache/mapwright/tiles/pmtiles/`), bounded
/// in bytes.
///
/// A range is kept under its archive's URL **and version** (the server's `ETag`), and looked up
/// by both: ranges of a replaced archive are never returned for the new one. When an archive is
/// found at a new version, its older versions' ranges are dropped at once. Each archive's start
/// (its first 16 KiB, length and version, as last read) is kept too, to read it offline.
///
/// When the ranges held add up to more than ``limitBytes``, the oldest stored are dropped first.
/// The cache is a help, never a failure: a cache that cannot be opened, read or written is
/// treated as empty (the ranges are asked of the server).
final class HTTPRangeCache: Sendable {
    /// The most bytes of ranges kept.
    let limitBytes: Int
    /// The SQLite file.
    let url: URL
    /// The connection; its transactions are the connection's, so every use holds the lock.
    private let database: Mutex<Database>

    /// Opens (or makes) `ranges.sqlite` in `directory`; nil when it cannot be.
    init?(directory: URL, limitBytes: Int) {
        url = directory.appendingPathComponent("ranges.sqlite")
        self.limitBytes = limitBytes
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let database = try Database(path: url.path, mode: .readWriteCreate)
            try database.execute(
                """
                PRAGMA journal_mode = WAL;
                CREATE TABLE IF NOT EXISTS ranges (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, url TEXT NOT NULL, version TEXT NOT NULL,
                    offset INTEGER NOT NULL, size INTEGER NOT NULL, data BLOB NOT NULL,
                    UNIQUE (url, version, offset, size));
                CREATE TABLE IF NOT EXISTS starts (
                    url TEXT PRIMARY KEY, version TEXT NOT NULL, size INTEGER NOT NULL, data BLOB NOT NULL);
                """)
            self.database = Mutex(database)
        } catch {
            return nil
        }
    }

    /// The ranges of `url` at `version` the cache holds.
    func data(of url: String, version: String, ranges: [PMTilesByteRange]) -> [PMTilesByteRange: Data] {
        guard !ranges.isEmpty else { return [:] }
        return database.withLock { database in
            var found: [PMTilesByteRange: Data] = [:]
            guard
                let statement = try? database.prepare(
                    "SELECT data FROM ranges WHERE url = ? AND version = ? AND offset = ? AND size = ?")
            else {
                return found
            }
            for range in Set(ranges) {
                statement.reset()
                guard
                    (try? statement.bind(
                        .text(url), .text(version), .integer(Int64(range.offset)), .integer(Int64(range.count))))
                        != nil,
                    (try? statement.step()) == true, let data = statement.data(at: 0), data.count == range.count
                else { continue }
                found[range] = data
            }
            return found
        }
    }

    /// Keeps ranges of `url` at `version`, then drops the oldest ranges while more than
    /// ``limitBytes`` are held. Ranges larger than the limit are not kept.
    func store(_ ranges: [PMTilesByteRange: Data], of url: String, version: String) {
        let kept = ranges.filter { $0.value.count <= limitBytes }
        guard !kept.isEmpty else { return }
        database.withLock { database in
            _ = try? database.inTransaction {
                let insert = try database.prepare(
                    "INSERT OR REPLACE INTO ranges (url, version, offset, size, data) VALUES (?, ?, ?, ?, ?)")
                for (range, data) in kept {
                    insert.reset()
                    try insert.bind(
                        .text(url), .text(version), .integer(Int64(range.offset)), .integer(Int64(range.count)))
                    try insert.bind(data, at: 5)
                    try insert.step()
                }
                try Self.evict(in: database, limitBytes: limitBytes)
            }
        }
    }

    /// Keeps the start of `url` as last read (its first bytes, length and version), for reading
    /// it offline, and drops the ranges of its other versions: the archive was replaced. Starts
    /// (16 KiB an archive) are not counted in ``limitBytes``.
    func keepStart(_ start: PMTilesArchiveStart, of url: String) {
        guard let version = start.version else { return }
        database.withLock { database in
            try? database.execute(
                "DELETE FROM ranges WHERE url = ? AND version <> ?", arguments: [.text(url), .text(version)])
            try? database.execute(
                "INSERT OR REPLACE INTO starts (url, version, size, data) VALUES (?, ?, ?, ?)",
                arguments: [.text(url), .text(version), .integer(Int64(start.archiveByteCount)), .blob(start.bytes)])
        }
    }

    /// The start of `url` as last read; nil when none is kept.
    func start(of url: String) -> PMTilesArchiveStart? {
        database.withLock { database in
            guard let statement = try? database.prepare("SELECT version, size, data FROM starts WHERE url = ?"),
                (try? statement.bind(.text(url))) != nil, (try? statement.step()) == true,
                let version = statement.text(at: 0), let bytes = statement.blob(at: 2)
            else { return nil }
            return PMTilesArchiveStart(bytes: bytes, archiveByteCount: UInt64(statement.int64(at: 1)), version: version)
        }
    }

    /// The bytes of ranges held.
    var storedBytes: Int {
        database.withLock { database in
            guard let statement = try? database.prepare("SELECT COALESCE(SUM(size), 0) FROM ranges"),
                (try? statement.step()) == true
            else { return 0 }
            return Int(statement.int64(at: 0))
        }
    }

    /// Drops the oldest ranges (by when they were stored) while more than `limitBytes` are held.
    private static func evict(in database: Database, limitBytes: Int) throws(SQLiteError) {
        let total = try database.prepare("SELECT COALESCE(SUM(size), 0) FROM ranges")
        guard try total.step() else { return }
        let excess = total.int64(at: 0) - Int64(limitBytes)
        guard excess > 0 else { return }
        // The oldest rows whose sizes, added up in order, first reach the excess.
        try database.execute(
            """
            DELETE FROM ranges WHERE id <= (
                SELECT id FROM (SELECT id, SUM(size) OVER (ORDER BY id) AS running FROM ranges)
                WHERE running >= ? ORDER BY id LIMIT 1)
            """, arguments: [.integer(excess)])
    }
}
