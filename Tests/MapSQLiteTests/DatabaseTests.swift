import Foundation
import MapSQLite
import MapTestSupport
import Synchronization
import Testing

struct DatabaseTests {
    private func makeDatabase(in directory: TemporaryDirectory) throws -> Database {
        let database = try Database(path: directory.path("test.sqlite"), mode: .readWriteCreate)
        try database.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, weight REAL, payload BLOB)")
        return database
    }

    @Test func boundValuesReadBackWithTheirTypes() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(in: directory)
        try database.execute(
            "INSERT INTO items VALUES (?, ?, ?, ?)", arguments: [7, "seven", 7.5, .blob([0, 255, 7])])
        try database.execute("INSERT INTO items VALUES (?, ?, ?, ?)", arguments: [8, nil, nil, .blob([])])
        #expect(database.lastInsertedRowID == 8)

        let statement = try database.prepare("SELECT id, name, weight, payload FROM items ORDER BY id")
        #expect(statement.columnCount == 4)
        #expect(statement.columnName(at: 1) == "name")
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 7)
        #expect(statement.text(at: 1) == "seven")
        #expect(statement.double(at: 2) == 7.5)
        #expect(statement.blob(at: 3) == [0, 255, 7])
        #expect(statement.data(at: 3) == Data([0, 255, 7]))
        #expect(statement.value(at: 1) == .text("seven"))
        #expect(try statement.step())
        #expect(statement.isNull(at: 1))
        #expect(statement.text(at: 1) == nil)
        #expect(statement.value(at: 2) == .null)
        #expect(statement.blob(at: 3) == [])
        #expect(try !statement.step())
    }

    @Test func statementRunsAgainAfterReset() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(in: directory)
        let insert = try database.prepare("INSERT INTO items (name) VALUES (?)")
        for name in ["a", "b", "c"] {
            insert.reset()
            try insert.bind(.text(name), at: 1)
            try insert.step()
        }
        var names: [String] = []
        try database.prepare("SELECT name FROM items ORDER BY id").forEachRow { row in
            names.append(row.text(at: 0) ?? "")
        }
        #expect(names == ["a", "b", "c"])
    }

    @Test func failedTransactionIsRolledBack() throws {
        struct Abort: Error {}
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(in: directory)
        #expect(throws: Abort.self) {
            try database.inTransaction {
                try database.execute("INSERT INTO items (name) VALUES ('lost')")
                throw Abort()
            }
        }
        let kept = try database.inTransaction {
            try database.execute("INSERT INTO items (name) VALUES ('kept')")
            return database.changes
        }
        #expect(kept == 1)
        let count = try database.prepare("SELECT count(*), group_concat(name) FROM items")
        #expect(try count.step())
        #expect(count.int64(at: 0) == 1)
        #expect(count.text(at: 1) == "kept")
    }

    @Test func errorNamesTheFileAndTheStatement() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(in: directory)
        let error = try #require(throws: SQLiteError.self) {
            try database.prepare("SELECT name FROM nowhere")
        }
        #expect(error.primaryResultCode == 1)  // SQLITE_ERROR
        #expect(error.description.contains(directory.path("test.sqlite")))
        #expect(error.description.contains("no such table: nowhere"))
        #expect(error.description.contains("SELECT name FROM nowhere"))
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        let directory = try TemporaryDirectory()
        _ = try makeDatabase(in: directory)
        let readOnly = try Database(path: directory.path("test.sqlite"))
        #expect(try readOnly.hasTable(named: "ITEMS"))
        let error = try #require(throws: SQLiteError.self) {
            try readOnly.execute("INSERT INTO items (name) VALUES ('x')")
        }
        #expect(error.primaryResultCode == 8)  // SQLITE_READONLY
    }

    @Test func dataBindsAsABlobAndColumnsLendTheirBytes() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(in: directory)
        let insert = try database.prepare("INSERT INTO items (id, name, payload) VALUES (?, ?, ?)")
        for (id, payload) in [(1, Data([1, 2, 3])), (2, Data())] {
            insert.reset()
            try insert.bind(.integer(Int64(id)), at: 1)
            try insert.bind(.text("é\(id)"), at: 2)
            try insert.bind(payload, at: 3)
            try insert.step()
        }
        let select = try database.prepare("SELECT payload, typeof(payload), name, id, NULL FROM items ORDER BY id")
        #expect(try select.step())
        #expect(select.withUnsafeBytes(at: 0) { Array($0) } == [1, 2, 3])
        #expect(select.withUnsafeBytes(at: 2) { Array($0) } == Array("é1".utf8))
        #expect(select.withUnsafeBytes(at: 3) { Array($0) } == Array("1".utf8))
        #expect(select.withUnsafeBytes(at: 4) { $0.count } == 0)
        #expect(try select.step())
        // Empty data is an empty blob, not NULL.
        #expect(select.text(at: 1) == "blob")
        #expect(select.data(at: 0) == Data())
    }

    @Test func immutableConnectionLeavesNoFilesBesideAWALDatabase() throws {
        let directory = try TemporaryDirectory()
        // A name with the characters a `file:` URI must escape.
        let path = directory.path("odd %3F?#name.sqlite")
        do {
            let writer = try Database(path: path, mode: .readWriteCreate)
            try writer.prepare("PRAGMA journal_mode = WAL").step()
            try writer.execute("CREATE TABLE items (id INTEGER PRIMARY KEY); INSERT INTO items VALUES (7)")
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(before == ["odd %3F?#name.sqlite"])
        do {
            let reader = try Database(path: path, mode: .immutable)
            let statement = try reader.prepare("SELECT id FROM items")
            #expect(try statement.step())
            #expect(statement.int64(at: 0) == 7)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == before)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == before)
    }

    @Test func missingFileIsNamedInTheError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("absent.sqlite")
        let error = try #require(throws: SQLiteError.self) { try Database(path: path) }
        #expect(error.path == path)
        #expect(error.primaryResultCode == 14)  // SQLITE_CANTOPEN
        #expect(error.localizedDescription.contains("absent.sqlite"))
    }

    @Test func connectionIsUsableFromManyThreads() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(in: directory)
        try database.inTransaction {
            for index in 0..<100 {
                try database.execute("INSERT INTO items (weight) VALUES (?)", arguments: [.real(Double(index))])
            }
        }
        let sums = LockedArray()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            guard let statement = try? database.prepare("SELECT sum(weight) FROM items"),
                (try? statement.step()) == true
            else {
                return
            }
            sums.append(statement.double(at: 0))
        }
        #expect(sums.values == Array(repeating: 4950, count: 16))
    }
}

/// Doubles appended from several threads.
private final class LockedArray: Sendable {
    private let storage = Mutex<[Double]>([])

    func append(_ value: Double) {
        storage.withLock { $0.append(value) }
    }

    var values: [Double] { storage.withLock { $0 } }
}
