import CSQLite
public import Foundation

/// A compiled SQL statement: bind parameters, step through rows, read typed columns.
///
/// For example:
///
/// ```swift
/// let statement = try database.prepare("SELECT fid, NAME FROM countries WHERE ISO_A3 = ?")
/// try statement.bind("FRA")
/// while try statement.step() {
///     print(statement.int64(at: 0), statement.text(at: 1) ?? "")
/// }
/// ```
///
/// Parameter indices start at 1, as in SQL; column indices start at 0, as in SQLite's C API.
/// A statement is not `Sendable`: use it on one thread at a time (prepare one per thread).
///
/// Related SQLite documentation: <https://sqlite.org/c3ref/stmt.html>
public final class Statement {
    /// The SQL the statement was compiled from.
    public let sql: String
    /// The connection the statement belongs to; the statement keeps it open.
    public let database: Database

    private let handle: OpaquePointer

    init(handle: OpaquePointer, sql: String, database: Database) {
        self.handle = handle
        self.sql = sql
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: - Binding

    /// Binds a value to the parameter at `index` (1-based).
    ///
    /// - Throws: ``SQLiteError`` when the index is out of range.
    public func bind(_ value: SQLiteValue, at index: Int) throws(SQLiteError) {
        let position = Int32(index)
        // SQLITE_TRANSIENT: SQLite copies text and blobs before the call returns.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let result: Int32
        switch value {
        case .null:
            result = sqlite3_bind_null(handle, position)
        case .integer(let integer):
            result = sqlite3_bind_int64(handle, position, integer)
        case .real(let real):
            result = sqlite3_bind_double(handle, position, real)
        case .text(let text):
            result = sqlite3_bind_text(handle, position, text, -1, transient)
        case .blob(let bytes):
            result = bytes.withUnsafeBytes { bindBlob($0, at: position) }
        }
        try check(result, binding: index)
    }

    /// Binds bytes as a blob to the parameter at `index` (1-based), copied once, straight from `data`.
    /// Empty data is an empty blob, not NULL.
    ///
    /// - Throws: ``SQLiteError`` when the index is out of range.
    public func bind(_ data: Data, at index: Int) throws(SQLiteError) {
        let result = data.withUnsafeBytes { bindBlob($0, at: Int32(index)) }
        try check(result, binding: index)
    }

    /// Binds a blob, SQLite copying the bytes before returning (`SQLITE_TRANSIENT`); zero bytes
    /// bind an empty blob (a null pointer alone would bind NULL).
    private func bindBlob(_ buffer: UnsafeRawBufferPointer, at position: Int32) -> Int32 {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return sqlite3_bind_zeroblob(handle, position, 0) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        return sqlite3_bind_blob64(handle, position, base, sqlite3_uint64(buffer.count), transient)
    }

    private func check(_ result: Int32, binding index: Int) throws(SQLiteError) {
        guard result == SQLITE_OK else {
            throw SQLiteError(
                resultCode: result,
                message: "cannot bind parameter \(index): \(String(cString: sqlite3_errstr(result)))",
                path: database.path,
                sql: sql
            )
        }
    }

    /// Binds values to the parameters in order, from parameter 1.
    ///
    /// - Throws: ``SQLiteError`` when there are more values than parameters.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// Binds values to the parameters in order, from parameter 1.
    public func bind(_ values: SQLiteValue...) throws(SQLiteError) {
        try bind(values)
    }

    // MARK: - Stepping

    /// Runs the statement to its next row.
    ///
    /// - Returns: `true` when a row is ready to read, `false` when the statement is done.
    /// - Throws: ``SQLiteError`` with SQLite's message.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let (result, message) = database.withConnectionMutex {
            let result = sqlite3_step(handle)
            return (result, result == SQLITE_ROW || result == SQLITE_DONE ? "" : database.lastErrorMessage)
        }
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(resultCode: result, message: message, path: database.path, sql: sql)
        }
    }

    /// Calls `body` for each row, with the statement positioned on it.
    ///
    /// - Throws: ``SQLiteError`` from stepping, or the error `body` throws (which stops the loop).
    public func forEachRow(_ body: (Statement) throws -> Void) throws {
        while try step() {
            try body(self)
        }
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    public func reset() {
        sqlite3_reset(handle)
    }

    // MARK: - Columns

    /// The number of columns in each row.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of the column at `index` (0-based), as the query spells it.
    public func columnName(at index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// Whether the current row's column at `index` is NULL.
    public func isNull(at index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// The column as an integer (SQLite converts other classes; NULL is 0).
    public func int64(at index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }

    /// The column as a real (SQLite converts other classes; NULL is 0).
    public func double(at index: Int) -> Double {
        sqlite3_column_double(handle, Int32(index))
    }

    /// The column as UTF-8 text, or `nil` when it is NULL.
    public func text(at index: Int) -> String? {
        guard let pointer = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column's bytes, or `nil` when it is NULL. A zero-length blob gives `[]`.
    public func blob(at index: Int) -> [UInt8]? {
        let column = Int32(index)
        if sqlite3_column_type(handle, column) == SQLITE_NULL { return nil }
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The column's bytes as `Data`, or `nil` when it is NULL; copied once, straight from SQLite.
    public func data(at index: Int) -> Data? {
        let column = Int32(index)
        if sqlite3_column_type(handle, column) == SQLITE_NULL { return nil }
        guard let pointer = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: pointer, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// Calls `body` with the column's bytes where SQLite holds them, without a copy: a blob's
    /// bytes, a text's UTF-8 bytes, a number's text form; an empty buffer for NULL. The buffer is
    /// valid only inside `body`, for the current row.
    public func withUnsafeBytes<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
        -> Result
    {
        let column = Int32(index)
        let pointer: UnsafeRawPointer?
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: pointer = nil
        case SQLITE_BLOB: pointer = sqlite3_column_blob(handle, column)
        default: pointer = sqlite3_column_text(handle, column).map { UnsafeRawPointer($0) }
        }
        // The byte count is asked after the pointer, as SQLite's documentation requires.
        let count = pointer == nil ? 0 : Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The column as stored, in its own storage class.
    public func value(at index: Int) -> SQLiteValue {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(double(at: index))
        case SQLITE_TEXT: return .text(text(at: index) ?? "")
        case SQLITE_BLOB: return .blob(blob(at: index) ?? [])
        default: return .null
        }
    }
}
