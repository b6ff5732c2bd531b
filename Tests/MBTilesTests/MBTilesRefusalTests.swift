import Foundation
import MapCore
import MapSQLite
import MapTestSupport
import Testing

@testable import MBTiles

/// Files that are not MBTiles, damaged, or of an unknown layout: refused with one line naming
/// the file, and left exactly as they were, with nothing new beside them.
struct MBTilesRefusalTests {
    private static let modes: [MBTilesStore.Mode] = [.readOnly, .readWrite, .create]

    /// Opens `url` in every mode and checks each refusal and that the files stay as they were.
    private func expectRefusal(
        of url: URL, modes: [MBTilesStore.Mode] = modes, _ expected: (String) -> MBTilesError,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try TestTiles.snapshot(of: url)
        for mode in modes {
            let error = try #require(throws: MBTilesError.self, sourceLocation: sourceLocation) {
                try MBTilesStore(url: url, mode: mode)
            }
            #expect(error == expected(url.path), "\(mode)", sourceLocation: sourceLocation)
            let message = error.description
            #expect(
                message.hasPrefix(url.path + ": ") && !message.contains("\n"), "\(message)",
                sourceLocation: sourceLocation)
            #expect(
                try TestTiles.snapshot(of: url) == before, "\(mode) changed the files", sourceLocation: sourceLocation)
        }
    }

    /// A full disk (SQLITE_FULL) is said in plain words, with what to do, not as SQL.
    @Test func aFullDiskIsSaidInPlainWords() {
        let error = MBTilesError.sqlite(
            SQLiteError(
                resultCode: 13, message: "database or disk is full", path: "out.mbtiles.partial",
                sql: "INSERT INTO images (tile_id, tile_data) VALUES (?, ?)"))
        #expect(
            error.description
                == "out.mbtiles.partial: the disk is full (no space left for the tiles); what was committed is kept: free some space and run the same command again (with --resume for an export) to finish"
        )
        let other = MBTilesError.sqlite(
            SQLiteError(resultCode: 1, message: "no such table: x", path: "a.mbtiles", sql: "SELECT\n  1"))
        #expect(other.description == "a.mbtiles: no such table: x (SQLite code 1) in `SELECT 1`")
    }

    @Test func aTextFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.mbtiles")
        try Data("zoom_level,tile_column,tile_row\n".utf8).write(to: url)
        try expectRefusal(of: url) { .notMBTiles(path: $0, reason: "it is not an SQLite database") }
    }

    @Test func aZeroByteFileIsRefusedForReadingAndMadeMBTilesByCreate() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("empty.mbtiles")
        try Data().write(to: url)
        try expectRefusal(of: url, modes: [.readOnly, .readWrite]) {
            .notMBTiles(path: $0, reason: "the file is empty")
        }
        let created = try MBTilesStore(url: url, mode: .create)
        #expect(created.schema == .normalized)
    }

    @Test func anEmptyDatabaseIsRefusedForReading() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("blank.sqlite")
        try Database(path: url.path, mode: .readWriteCreate).execute("PRAGMA user_version = 3")
        try expectRefusal(of: url, modes: [.readOnly, .readWrite]) {
            .notMBTiles(path: $0, reason: "the database has no tables")
        }
    }

    @Test func theBasemapGeoPackageIsRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("world_map.gpkg")
        let basemap = RepositoryFiles.basemap.appendingPathComponent("world_map.gpkg")
        if FileManager.default.fileExists(atPath: basemap.path) {
            try FileManager.default.copyItem(at: basemap, to: url)
        } else {
            // Without the basemap (scripts/setup.sh fetches it): the table every GeoPackage has.
            try Database(path: url.path, mode: .readWriteCreate).execute(
                "CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL)")
        }
        try expectRefusal(of: url) { .notMBTiles(path: $0, reason: "it is a GeoPackage (it has `gpkg_contents`)") }
    }

    /// A foreign database in WAL mode: even reading its schema would make -wal and -shm files,
    /// had the first look not been taken through an immutable connection.
    @Test func aForeignWALDatabaseIsRefusedWithoutFilesBesideIt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("journal.sqlite")
        do {
            let database = try Database(path: url.path, mode: .readWriteCreate)
            try database.prepare("PRAGMA journal_mode = WAL").step()
            try database.execute("CREATE TABLE entries (id INTEGER PRIMARY KEY, text TEXT)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["journal.sqlite"])
        try expectRefusal(of: url) { .notMBTiles(path: $0, reason: "it has no `metadata` table") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["journal.sqlite"])
    }

    @Test func aDamagedFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("damaged.mbtiles")
        do {
            let store = try MBTilesStore(url: url, mode: .create)
            let writer = try MBTilesWriter(store: store)
            try writer.add(TestTiles.seeded(maximumZoom: 3))
            try writer.finish()
        }
        // The schema's b-tree on the first page, after the 100-byte header, overwritten.
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: 100)
        handle.write(Data(repeating: 0xA5, count: 400))
        try handle.close()
        try expectRefusal(of: url) { .corrupt(path: $0, reason: "database disk image is malformed") }
    }

    @Test func unknownLayoutsAreNamed() throws {
        let directory = try TemporaryDirectory()
        let noTiles = directory.file("no-tiles.mbtiles")
        try Database(path: noTiles.path, mode: .readWriteCreate).execute(
            "CREATE TABLE metadata (name text, value text)")
        try expectRefusal(of: noTiles) { .notMBTiles(path: $0, reason: "it has no `tiles` table or view") }

        let brokenView = directory.file("broken-view.mbtiles")
        try Database(path: brokenView.path, mode: .readWriteCreate).execute(
            """
            CREATE TABLE metadata (name text, value text);
            CREATE TABLE map (zoom_level integer, tile_column integer, tile_row integer, tile_id text);
            CREATE VIEW tiles AS SELECT map.zoom_level, map.tile_column, map.tile_row, images.tile_data
                FROM map JOIN images ON images.tile_id = map.tile_id;
            """)
        try expectRefusal(of: brokenView) {
            .invalidSchema(path: $0, table: "tiles", reason: "it cannot be read: no such table: main.images")
        }

        let oldColumns = directory.file("old-columns.mbtiles")
        try Database(path: oldColumns.path, mode: .readWriteCreate).execute(
            """
            CREATE TABLE metadata (name text, value text);
            CREATE TABLE tiles (zoom_level integer, column integer, row integer, tile_data blob);
            """)
        try expectRefusal(of: oldColumns) {
            .invalidSchema(path: $0, table: "tiles", reason: "it has no `tile_column`, `tile_row` columns")
        }
    }
}
