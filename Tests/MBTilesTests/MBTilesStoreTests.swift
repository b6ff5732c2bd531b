import Foundation
import MapCore
import MapSQLite
import MapTestSupport
import Synchronization
import Testing
import TileSources

@testable import MBTiles

struct MBTilesStoreTests {
    /// A new MBTiles file in a folder that does not exist yet.
    private func makeStore(in directory: TemporaryDirectory, schema: MBTilesSchema = .normalized) throws -> MBTilesStore
    {
        try MBTilesStore(url: directory.file("nested/folder/test.mbtiles"), mode: .create, newFileSchema: schema)
    }

    private func bytes(_ id: TileID) -> Data {
        Data("tile \(id)".utf8)
    }

    @Test(arguments: [MBTilesSchema.flat, .normalized])
    func writtenTilesReadBack(schema: MBTilesSchema) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory, schema: schema)
        let tiles = try [TileID(z: 0, x: 0, y: 0), TileID(z: 3, x: 5, y: 2), TileID(z: 11, x: 327, y: 791)]
        for tile in tiles { try store.write(bytes(tile), at: tile) }

        #expect(try store.count() == 3)
        #expect(try store.zoomRange() == 0...11)
        for tile in tiles {
            #expect(try store.tile(at: tile) == bytes(tile))
            #expect(try store.contains(tile))
        }
        let absent = try TileID(z: 3, x: 2, y: 5)
        #expect(try store.tile(at: absent) == nil)
        #expect(try !store.contains(absent))
        #expect(
            try store.tiles(at: tiles + [absent]) == Dictionary(uniqueKeysWithValues: tiles.map { ($0, bytes($0)) }))
    }

    @Test(arguments: [MBTilesSchema.flat, .normalized])
    func writingATileAgainReplacesIt(schema: MBTilesSchema) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory, schema: schema)
        #expect(try store.zoomRange() == nil)
        let tile = try TileID(z: 1, x: 1, y: 0)
        try store.write(Data([1]), at: tile)
        try store.write([tile: Data([2, 2])])
        #expect(try store.tile(at: tile) == Data([2, 2]))
        #expect(try store.count() == 1)
    }

    @Test(arguments: [MBTilesSchema.flat, .normalized])
    func rowsAreStoredInTheTMSScheme(schema: MBTilesSchema) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory, schema: schema)
        // The specification's example: XYZ 11/327/791 is tile_row 1256 = 2^11 - 1 - 791.
        try store.write(Data([7]), at: TileID(z: 11, x: 327, y: 791))

        let database = try Database(path: store.path)
        let statement = try database.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
        #expect(try statement.step())
        #expect([statement.int64(at: 0), statement.int64(at: 1), statement.int64(at: 2)] == [11, 327, 1256])
        #expect(statement.blob(at: 3) == [7])
    }

    @Test func newFlatFilesFollowMBTiles13() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory, schema: .flat)
        #expect(store.schema == .flat)
        let database = try Database(path: store.path)
        let pragma = try database.prepare("PRAGMA application_id")
        try pragma.step()
        #expect(pragma.int64(at: 0) == 0x4D50_4258)
        var indexes: [String] = []
        try database.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' ORDER BY name").forEachRow {
            indexes.append($0.text(at: 0) ?? "")
        }
        #expect(
            indexes == [
                "CREATE UNIQUE INDEX name ON metadata (name)",
                "CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)",
            ])
        let journal = try database.prepare("PRAGMA journal_mode")
        try journal.step()
        #expect(journal.text(at: 0) == "wal")
        #expect(try store.metadataValue(forKey: "scheme") == "tms")
    }

    @Test(arguments: [MBTilesSchema.flat, .normalized])
    func metadataRoundTrips(schema: MBTilesSchema) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory, schema: schema)
        let metadata = TileMetadata(
            name: "Satellite",
            format: .jpg,
            bounds: BoundingBox(west: -180, south: -85.0511, east: 180, north: 85.0511),
            center: TileMetadata.Center(longitude: -122.1906, latitude: 37.7599, zoom: 11),
            minZoom: 0,
            maxZoom: 12,
            attribution: "<a href=\"https://example.org\">Example</a>",
            description: "Imagery",
            type: .baselayer,
            version: "2",
            json: #"{"vector_layers":[{"id":"water","fields":{}}]}"#,
            otherValues: ["generator": "Mapwright tests"]
        )
        try store.writeMetadata(metadata)
        let database = try Database(path: store.path)
        let row = try database.prepare("SELECT value FROM metadata WHERE name = 'bounds'")
        try row.step()
        #expect(row.text(at: 0) == "-180,-85.0511,180,85.0511")

        var expected = metadata
        expected.otherValues["scheme"] = "tms"
        #expect(try MBTilesStore(url: store.url).metadata() == expected)

        try store.setMetadataValue(nil, forKey: "generator")
        try store.setMetadataValue("image/png", forKey: "format")
        let changed = try store.metadata()
        #expect(changed.otherValues["generator"] == nil)
        #expect(changed.format == .png)
    }

    @Test func malformedMetadataNamesTheKeyAndFile() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try store.setMetadataValue("-180,-85,180", forKey: "bounds")
        #expect(
            throws: MBTilesError.invalidMetadata(
                path: store.path, name: "bounds", value: "-180,-85,180",
                reason: "expected 4 numbers separated by commas"
            )
        ) {
            try store.metadata()
        }
    }

    @Test(arguments: [MBTilesSchema.flat, .normalized])
    func reopenedFileKeepsItsTiles(schema: MBTilesSchema) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("reopen.mbtiles")
        let tile = try TileID(z: 4, x: 3, y: 9)
        do {
            let store = try MBTilesStore(url: url, mode: .create, newFileSchema: schema)
            try store.write(Data([4, 3, 9]), at: tile)
        }
        // An existing file keeps its layout, whatever a new one would get.
        let again = try MBTilesStore(url: url, mode: .create, newFileSchema: schema == .flat ? .normalized : .flat)
        #expect(again.schema == schema)
        #expect(try again.count() == 1)
        #expect(try again.tile(at: tile) == Data([4, 3, 9]))

        let reader = try MBTilesStore(url: url)
        #expect(!reader.isWritable)
        #expect(try reader.tile(at: tile) == Data([4, 3, 9]))
        #expect(throws: MBTilesError.readOnly(path: url.path, reason: "the file is open read-only")) {
            try reader.write(Data(), at: tile)
        }
    }

    @Test func aMissingFileIsNamed() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("absent.mbtiles")
        #expect(throws: MBTilesError.missingFile(path: url.path)) { try MBTilesStore(url: url) }
        #expect("\(MBTilesError.missingFile(path: url.path))" == "\(url.path): no such MBTiles file")
    }

    @Test func anSQLiteFileWithoutTheTablesIsRefusedAndLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("features.gpkg")
        try Database(path: url.path, mode: .readWriteCreate).execute("CREATE TABLE features (id INTEGER PRIMARY KEY)")

        for mode in [MBTilesStore.Mode.readOnly, .readWrite, .create] {
            #expect {
                try MBTilesStore(url: url, mode: mode)
            } throws: { error in
                "\(error)" == "\(url.path): not an MBTiles file: it has no `metadata` table"
            }
        }
        let tables = try Database(path: url.path).prepare("SELECT count(*) FROM sqlite_master")
        try tables.step()
        #expect(tables.int64(at: 0) == 1)
    }

    @Test func aFileThatIsNotSQLiteIsRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("picture.mbtiles")
        try Data(repeating: 0x42, count: 4096).write(to: url)
        #expect(throws: MBTilesError.notMBTiles(path: url.path, reason: "it is not an SQLite database")) {
            try MBTilesStore(url: url)
        }
    }

    @Test func aTableWithoutTheRequiredColumnsIsNamed() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("old.mbtiles")
        try Database(path: url.path, mode: .readWriteCreate).execute(
            """
            CREATE TABLE metadata (name text, value text);
            CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer);
            """)
        #expect(
            throws: MBTilesError.invalidSchema(path: url.path, table: "tiles", reason: "it has no `tile_data` column")
        ) {
            try MBTilesStore(url: url)
        }
    }

    @Test func tilesFromAnUnknownViewAreReadButNotWritten() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("with-hash.mbtiles")
        // martin's "flat-with-hash" layout: a table with a hash column, and a `tiles` view.
        try Database(path: url.path, mode: .readWriteCreate).execute(
            """
            CREATE TABLE metadata (name text, value text);
            CREATE TABLE tiles_with_hash (zoom_level integer, tile_column integer, tile_row integer, tile_data blob, tile_hash text);
            CREATE VIEW tiles AS SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles_with_hash;
            INSERT INTO tiles_with_hash VALUES (1, 0, 1, x'0102', '0CC175B9C0F1B6A831C399E269772661');
            """)
        let store = try MBTilesStore(url: url, mode: .readWrite)
        #expect(store.schema == .otherView)
        #expect(try store.tile(at: TileID(z: 1, x: 0, y: 0)) == Data([1, 2]))
        #expect(try store.count() == 1)
        #expect(!store.isWritable)
        #expect(throws: MBTilesError.readOnly(path: url.path, reason: "`tiles` is a view, not a table")) {
            try store.write(Data(), at: TileID(z: 0, x: 0, y: 0))
        }
    }

    @Test(arguments: [MBTilesSchema.flat, .normalized])
    func threadsReadAndWriteOneStoreAtOnce(schema: MBTilesSchema) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory, schema: schema)
        let tiles = try TileID.tiles(covering: .world, zoom: 3)  // 64 tiles
        try store.write(Dictionary(uniqueKeysWithValues: tiles.prefix(32).map { ($0, bytes($0)) }))
        // A second connection, as a tile server in another process would have.
        let otherConnection = try MBTilesStore(url: store.url)

        let failures = ConcurrentFailures()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            do {
                if worker.isMultiple(of: 2) {
                    // Writers: each adds its share of the second half, one small batch per tile.
                    for tile in tiles.dropFirst(32) where tile.x % 4 == worker / 2 {
                        try store.write([tile: bytes(tile)])
                    }
                } else {
                    for _ in 0..<5 {
                        let reader = worker == 1 ? otherConnection : store
                        let found = try reader.tiles(at: Array(tiles.prefix(32)))
                        if found.count != 32 || found.contains(where: { $0.value != bytes($0.key) }) {
                            failures.record("worker \(worker) read \(found.count) tiles")
                        }
                    }
                }
            } catch {
                failures.record("worker \(worker): \(error)")
            }
        }
        #expect(failures.messages.isEmpty)
        #expect(try store.count() == 64)
        #expect(try otherConnection.count() == 64)
        for tile in tiles { #expect(try otherConnection.tile(at: tile) == bytes(tile)) }
    }
}

/// Messages collected from worker threads.
private final class ConcurrentFailures: Sendable {
    private let list = Mutex<[String]>([])

    func record(_ message: String) {
        list.withLock { $0.append(message) }
    }

    var messages: [String] { list.withLock { $0 } }

    /// A file another connection is reading when a store opens it to write (two renders opening
    /// one tile cache at once) is put in WAL mode once the reader lets go, instead of failing at
    /// once with "database is locked": SQLite does not wait on its busy timeout for that change.
    @Test func openingForWritingWaitsForAReaderToPutTheFileInWAL() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.mbtiles")
        do {
            let store = try MBTilesStore(url: url, mode: .create)
            try store.write(Data("tile".utf8), at: TileID(z: 0, x: 0, y: 0))
        }
        // Back to a rollback journal, as a file no writer has opened in WAL yet is.
        try Database(path: url.path, mode: .readWrite).execute("PRAGMA journal_mode = DELETE")
        let reader = try Database(path: url.path)
        try reader.execute("BEGIN")
        _ = try reader.prepare("SELECT count(*) FROM tiles").step()
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            try? reader.execute("COMMIT")
            released.signal()
        }
        let store = try MBTilesStore(url: url, mode: .readWrite)
        released.wait()
        #expect(try store.tile(at: TileID(z: 0, x: 0, y: 0)) == Data("tile".utf8))
        let mode = try Database(path: url.path).prepare("PRAGMA journal_mode")
        #expect(try mode.step())
        #expect(mode.text(at: 0) == "wal")
    }
}
