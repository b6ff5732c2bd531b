import Foundation
import MapSQLite
import Synchronization

/// Read-only connections to one MBTiles file, lent to one thread at a time.
///
/// A thread takes an idle connection or, when every one is busy, opens another, so readers never
/// wait for each other and a thread that reads while it iterates (a diff, a merge) cannot
/// deadlock. Connections come back after each use; at most ``maximumIdleCount`` are kept.
/// In WAL mode each read sees the file as of the last commit before it began, whatever a writer
/// is doing meanwhile.
final class MBTilesReaderPool: Sendable {
    /// The file.
    let path: String
    /// How many idle connections are kept open for the next reads.
    let maximumIdleCount: Int
    private let idle = Mutex<[MBTilesReader]>([])

    init(path: String, maximumIdleCount: Int) {
        precondition(maximumIdleCount >= 1, "keep at least one reader")
        self.path = path
        self.maximumIdleCount = maximumIdleCount
    }

    /// Runs `body` with a connection of its own, errors wrapped as ``MBTilesError``.
    func withReader<Result>(_ body: (MBTilesReader) throws -> Result) throws(MBTilesError) -> Result {
        let reader = try checkOut()
        defer { checkIn(reader) }
        do {
            return try body(reader)
        } catch {
            throw MBTilesError.wrapping(error, path: path)
        }
    }

    /// An idle connection, or a new one.
    func checkOut() throws(MBTilesError) -> MBTilesReader {
        if let reader = idle.withLock({ $0.popLast() }) { return reader }
        do {
            return try MBTilesReader(path: path)
        } catch {
            throw MBTilesError.wrapping(error, path: path)
        }
    }

    /// Takes a connection back; it is closed when enough are idle.
    func checkIn(_ reader: MBTilesReader) {
        let surplus: MBTilesReader? = idle.withLock { readers in
            guard readers.count < maximumIdleCount else { return reader }
            readers.append(reader)
            return nil
        }
        _ = surplus  // closed here, outside the lock
    }

    /// Closes the idle connections (those lent out close when they come back). Before switching
    /// the journal mode, which needs the file to itself.
    func closeIdleConnections() {
        let closed = idle.withLock { readers in
            defer { readers.removeAll() }
            return readers
        }
        _ = closed
    }
}

/// One read-only connection and the statements prepared on it.
///
/// Used by one thread at a time: ``MBTilesReaderPool`` lends it out to one caller until it comes
/// back, which is what makes the unchecked `Sendable` sound.
final class MBTilesReader: @unchecked Sendable {
    let database: Database
    private var statements: [String: Statement] = [:]

    init(path: String) throws(SQLiteError) {
        database = try Database(path: path, mode: .readOnly)
    }

    /// Runs `body` with a statement for `sql`, prepared once per connection, reset afterwards so
    /// that no read transaction stays open (an open one would keep the WAL from being checkpointed).
    func withStatement<Result>(_ sql: String, _ body: (Statement) throws -> Result) throws -> Result {
        let statement: Statement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try database.prepare(sql)
            statements[sql] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }
}
