import CSQLite
import Foundation

/// A connection to one SQLite database file.
///
/// For example:
///
/// ```swift
/// let database = try Database(path: "Tiles/basemap/world_map.gpkg")
/// let statement = try database.prepare("SELECT table_name FROM gpkg_contents")
/// try statement.forEachRow { row in print(row.text(at: 0) ?? "") }
/// ```
///
/// The connection is opened in SQLite's serialized threading mode (`SQLITE_OPEN_FULLMUTEX`):
/// SQLite holds the connection's own mutex during every call, so one `Database` may be used from
/// any number of threads at once. That is why the class is `@unchecked Sendable`: its only
/// state is the immutable handle, and SQLite guards what is behind it. A ``Statement`` is not
/// `Sendable`: each thread prepares its own. A transaction, though, is the connection's, not a
/// thread's (see ``inTransaction(_:)``).
///
/// Related SQLite documentation: <https://sqlite.org/threadsafe.html>
public final class Database: @unchecked Sendable {
    /// How a database file is opened.
    public enum Mode: Hashable, Sendable {
        /// Reading only; the file must exist (`SQLITE_OPEN_READONLY`).
        case readOnly
        /// Reading and writing an existing file (`SQLITE_OPEN_READWRITE`).
        case readWrite
        /// Reading and writing, creating the file when it is missing
        /// (`SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE`).
        case readWriteCreate
        /// Reading a file that nothing changes while it is open (the `immutable=1` URI parameter):
        /// no locks are taken and no `-wal`, `-shm` or `-journal` file is made or read, so looking
        /// at a file leaves no trace beside it. Wrong while another connection writes the file,
        /// and blind to what a `-wal` file holds: for a first look at a file, not for serving it.
        case immutable

        var flags: Int32 {
            switch self {
            case .readOnly: return SQLITE_OPEN_READONLY
            case .readWrite: return SQLITE_OPEN_READWRITE
            case .readWriteCreate: return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            case .immutable: return SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            }
        }

        /// The name SQLite is given for `path`: the path itself, or for ``immutable`` a `file:`
        /// URI with `%`, `?` and `#` escaped.
        func filename(for path: String) -> String {
            guard self == .immutable else { return path }
            var escaped = ""
            for character in path.unicodeScalars {
                switch character {
                case "%": escaped += "%25"
                case "?": escaped += "%3F"
                case "#": escaped += "%23"
                default: escaped.unicodeScalars.append(character)
                }
            }
            return "file:\(escaped)?immutable=1"
        }
    }

    /// The path of the database file, as given; errors name it.
    public let path: String
    /// How the file was opened.
    public let mode: Mode

    let handle: OpaquePointer

    /// Opens a database file.
    ///
    /// - Parameters:
    ///   - path: The file to open. `":memory:"` opens a private in-memory database.
    ///   - mode: How to open it. The default is ``Mode/readOnly``.
    ///   - busyTimeoutMilliseconds: How long a statement waits for another connection's lock
    ///     before failing with `SQLITE_BUSY`, in milliseconds. The default is 5,000.
    /// - Throws: ``SQLiteError`` naming the file when SQLite cannot open it.
    public init(path: String, mode: Mode = .readOnly, busyTimeoutMilliseconds: Int32 = 5_000) throws(SQLiteError) {
        var handle: OpaquePointer?
        let result = sqlite3_open_v2(mode.filename(for: path), &handle, mode.flags | SQLITE_OPEN_FULLMUTEX, nil)
        guard result == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
            sqlite3_close_v2(handle)
            throw SQLiteError(resultCode: result, message: message, path: path)
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        self.path = path
        self.mode = mode
        self.handle = handle
    }

    deinit {
        // close_v2 waits for statements still alive (they hold the database strongly anyway).
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements separated by semicolons, discarding any rows.
    ///
    /// For example, `try database.execute("CREATE TABLE t (a); INSERT INTO t VALUES (1)")`.
    ///
    /// - Throws: ``SQLiteError`` for the first statement that fails.
    public func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        // The extended code is read under the same hold of the mutex, before another thread's call.
        let (result, extendedCode) = withConnectionMutex {
            let result = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
            return (result, result == SQLITE_OK ? result : sqlite3_extended_errcode(handle))
        }
        guard result == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(result))
            sqlite3_free(errorMessage)
            throw SQLiteError(resultCode: extendedCode, message: message, path: path, sql: sql)
        }
    }

    /// Runs one SQL statement with arguments bound to its parameters, discarding any rows.
    ///
    /// For example, `try database.execute("INSERT INTO t VALUES (?, ?)", arguments: [1, "one"])`.
    ///
    /// - Throws: ``SQLiteError`` when the statement cannot be prepared, bound or run.
    public func execute(_ sql: String, arguments: [SQLiteValue]) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Compiles one SQL statement.
    ///
    /// - Throws: ``SQLiteError`` with SQLite's message (a syntax error, a missing table...).
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let (result, message) = withConnectionMutex {
            let result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
            return (result, result == SQLITE_OK ? "" : lastErrorMessage)
        }
        guard result == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(
                resultCode: result,
                message: result == SQLITE_OK ? "the SQL holds no statement" : message,
                path: path,
                sql: sql
            )
        }
        return Statement(handle: statement, sql: sql, database: self)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// A read-write connection takes the write lock at once (`BEGIN IMMEDIATE`), so the
    /// transaction cannot fail half-way for want of it; a read-only one uses `BEGIN`.
    ///
    /// The transaction belongs to the connection, not to the thread: statements other threads
    /// run on this `Database` meanwhile become part of it, and a second `inTransaction` begun
    /// meanwhile fails. Threads sharing a connection take turns around whole transactions, as
    /// `MBTilesStore` does with its lock.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: The error `body` throws, or ``SQLiteError`` when the transaction cannot begin or commit.
    public func inTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute(mode == .readOnly || mode == .immutable ? "BEGIN" : "BEGIN IMMEDIATE")
        let result: Result
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        return result
    }

    /// The rowid of the most recent successful INSERT on this connection, by whichever thread.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows the most recent INSERT, UPDATE or DELETE on this connection changed,
    /// by whichever thread.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Whether the schema has a table or view with this name (case-insensitive, as SQLite compares).
    public func hasTable(named name: String) throws(SQLiteError) -> Bool {
        let statement = try prepare(
            "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE")
        try statement.bind([.text(name)])
        return try statement.step()
    }

    // MARK: - Internals

    /// SQLite's message for the last failed call on this connection.
    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs `body` holding the connection's mutex, so that a call and the error message read
    /// after it come from the same thread's work. The mutex is recursive.
    func withConnectionMutex<T>(_ body: () -> T) -> T {
        let mutex = sqlite3_db_mutex(handle)
        sqlite3_mutex_enter(mutex)
        defer { sqlite3_mutex_leave(mutex) }
        return body()
    }
}

/// Quotes an identifier (a table or column name) for SQL: `a"b` becomes `"a""b"`.
public func quotedSQLIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
