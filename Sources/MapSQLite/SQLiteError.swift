public import Foundation

/// An error reported by SQLite, naming the database file and, when there was one, the SQL.
///
/// The result code is SQLite's extended code, so `SQLITE_CONSTRAINT_UNIQUE` (2067) stays
/// distinguishable from a plain `SQLITE_CONSTRAINT` (19); ``primaryResultCode`` gives the latter.
///
/// For example:
///
/// ```swift
/// do { _ = try Database(path: "missing.gpkg") }
/// catch { print(error) } // missing.gpkg: unable to open database file (SQLite code 14)
/// ```
///
/// Related SQLite documentation: <https://sqlite.org/rescode.html>
public struct SQLiteError: Error, Hashable, Sendable {
    /// SQLite's extended result code.
    public var resultCode: Int32
    /// SQLite's message, or the wrapper's own when SQLite reported none (SQL holding no statement).
    public var message: String
    /// The path of the database file, as it was opened.
    public var path: String
    /// The statement that failed, when the error concerns one.
    public var sql: String?

    /// Creates an error.
    public init(resultCode: Int32, message: String, path: String, sql: String? = nil) {
        self.resultCode = resultCode
        self.message = message
        self.path = path
        self.sql = sql
    }

    /// The primary result code: the low 8 bits of ``resultCode``.
    public var primaryResultCode: Int32 { resultCode & 0xFF }
}

extension SQLiteError: CustomStringConvertible, LocalizedError {
    public var description: String {
        var text = "\(path): \(message) (SQLite code \(resultCode))"
        if let sql { text += " in `\(sql)`" }
        return text
    }

    public var errorDescription: String? { description }
}
