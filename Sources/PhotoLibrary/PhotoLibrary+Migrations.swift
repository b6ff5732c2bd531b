import Foundation
import MapSQLite

extension PhotoLibrary {
    /// One step of the schema: the SQL that takes a library from the version before to ``version``.
    public struct Migration: Sendable {
        /// The schema version this step makes.
        public let version: Int
        /// What the step does, in a few words.
        public let summary: String
        /// The statements, run in the step's transaction.
        public let sql: String
    }

    /// The schema's steps, oldest first; a library's `user_version` is the last step applied.
    ///
    /// 1. photographers (name, is_user) and photos (id, title, subtitle, latitude, longitude,
    ///    taken_at, photographer, image), indexed by photographer;
    /// 2. altitude, horizontal accuracy, thumbnail and whether the library owns the image
    ///    files; an index by latitude and longitude for bounding boxes; at most one user (version
    ///    1 allowed several: the first, the lowest id, stays the user);
    /// 3. the files the library owns named relative to its photo folder (`UUID.jpg`), so a
    ///    copied or moved library finds, and removes, its own.
    public static let migrations: [Migration] = [
        Migration(
            version: 1, summary: "photographers and photos",
            sql: """
                CREATE TABLE photographers (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    is_user INTEGER NOT NULL DEFAULT 0 CHECK (is_user IN (0, 1))
                );
                CREATE TABLE photos (
                    id TEXT NOT NULL PRIMARY KEY,
                    title TEXT,
                    subtitle TEXT,
                    latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                    longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                    taken_at TEXT,
                    photographer_id INTEGER REFERENCES photographers (id),
                    image TEXT
                );
                CREATE INDEX photos_by_photographer ON photos (photographer_id);
                """),
        Migration(
            version: 2, summary: "altitude, accuracy, thumbnails, owned files, location index, one user",
            sql: """
                ALTER TABLE photos ADD COLUMN altitude REAL;
                ALTER TABLE photos ADD COLUMN horizontal_accuracy REAL CHECK (horizontal_accuracy IS NULL OR horizontal_accuracy >= 0);
                ALTER TABLE photos ADD COLUMN thumbnail TEXT;
                ALTER TABLE photos ADD COLUMN owns_files INTEGER NOT NULL DEFAULT 0 CHECK (owns_files IN (0, 1));
                CREATE INDEX photos_by_location ON photos (latitude, longitude);
                UPDATE photographers SET is_user = 0
                    WHERE is_user = 1 AND id <> (SELECT min(id) FROM photographers WHERE is_user = 1);
                CREATE UNIQUE INDEX photographers_one_user ON photographers (is_user) WHERE is_user = 1;
                """),
        Migration(
            version: 3, summary: "owned files relative to the photo folder",
            sql: """
                UPDATE photos SET image = id || '.jpg'
                    WHERE owns_files = 1 AND image LIKE '%.photos/' || id || '.jpg';
                UPDATE photos SET thumbnail = id || '.thumbnail.jpg'
                    WHERE owns_files = 1 AND thumbnail LIKE '%.photos/' || id || '.thumbnail.jpg';
                """),
    ]

    /// The newest schema version this Mapwright knows.
    public static var schemaVersion: Int { migrations.last!.version }

    /// The library's schema version: 0 for an empty file.
    public func version() throws(PhotoLibraryError) -> Int {
        try withDatabase { database in try Self.integerPragma("user_version", in: database) }
    }

    static func integerPragma(_ name: String, in database: Database) throws -> Int {
        let statement = try database.prepare("PRAGMA \(name)")
        _ = try statement.step()
        return Int(statement.int64(at: 0))
    }

    /// Checks that the file is a library this Mapwright reads, then applies the missing steps
    /// (up to `target`), all in one transaction, then turns WAL on. Nothing is written to a newer
    /// library or to a file that is not a library, nor to one whose upgrade fails.
    func checkAndMigrate(readOnly: Bool, upTo target: Int = PhotoLibrary.schemaVersion) throws(PhotoLibraryError) {
        let file = self.file
        try withDatabase { database in
            let applicationID: Int
            let version: Int
            let tableCount: Int
            do {
                applicationID = try Self.integerPragma("application_id", in: database)
                version = try Self.integerPragma("user_version", in: database)
                let statement = try database.prepare("SELECT count(*) FROM sqlite_master")
                _ = try statement.step()
                tableCount = Int(statement.int64(at: 0))
            }
            if applicationID != Int(Self.applicationID) {
                guard applicationID == 0, tableCount == 0 else {
                    throw PhotoLibraryError.notALibrary(
                        file: file, reason: "it is a SQLite database of something else (it has other tables)")
                }
            }
            guard version <= Self.schemaVersion else {
                throw PhotoLibraryError.newerLibrary(file: file, version: version, newestKnown: Self.schemaVersion)
            }
            guard version < target else { return }
            guard !readOnly else {
                throw PhotoLibraryError.database(
                    file: file,
                    reason:
                        "the library is of version \(version) and needs upgrading to \(target): open it once with a command that writes (`mapwright photos list` does)"
                )
            }
            // The journal mode is left as it is until the upgrade has committed: a failed one
            // leaves the file as it was, byte for byte.
            try database.inTransaction {
                // Read again under the write lock: another process may have upgraded it meanwhile.
                let current = try Self.integerPragma("user_version", in: database)
                for migration in Self.migrations where migration.version > current && migration.version <= target {
                    try database.execute(migration.sql)
                    try database.execute("PRAGMA user_version = \(migration.version)")
                }
                try database.execute("PRAGMA application_id = \(Self.applicationID)")
            }
        }
        if !readOnly {
            try withDatabase { database in
                try database.execute("PRAGMA journal_mode = WAL")
                try database.execute("PRAGMA foreign_keys = ON")
            }
        }
    }

    /// Opens a library made only up to schema `version`: what an older Mapwright wrote, for
    /// tests of the upgrade. Internal.
    static func openAtVersion(_ version: Int, file: URL) throws(PhotoLibraryError) -> Database {
        let database: Database
        do { database = try Database(path: file.path, mode: .readWriteCreate) } catch {
            throw .sqlite(error, file: file)
        }
        do {
            try database.inTransaction {
                for migration in migrations where migration.version <= version {
                    try database.execute(migration.sql)
                    try database.execute("PRAGMA user_version = \(migration.version)")
                }
                try database.execute("PRAGMA application_id = \(applicationID)")
            }
        } catch let error as SQLiteError {
            throw .sqlite(error, file: file)
        } catch {
            throw .database(file: file, reason: "\(error)")
        }
        return database
    }
}
