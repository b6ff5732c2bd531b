import Foundation
import MapCore
import MapSQLite
import MapTestSupport
import Testing

@testable import MBTiles

/// `agg_tiles_hash` against outside references: values martin's own tests record, and the
/// definition computed again in Python over the same file.
struct MBTilesAggregateHashTests {
    /// The tiles of martin's `mbtiles/tests/copy.rs` (`TILES_V1`), as (z, x, TMS row, bytes).
    private static let martinTilesV1: [(Int, Int, Int, String)] = [
        (3, 6, 7, "root"), (5, 0, 0, "same"), (5, 0, 1, ""), (5, 1, 1, "edit-v1"), (5, 1, 2, ""),
        (5, 1, 3, "non-empty"), (5, 2, 2, "remove"), (5, 2, 3, ""), (6, 0, 3, "same"), (6, 1, 4, "edit-v1"),
        (6, 0, 5, "1-keep-1-rm"), (6, 2, 6, "1-keep-1-rm"),
    ]

    /// A flat file holding `tiles`, written with SQL as martin's test writes it.
    private func martinFile(_ tiles: [(Int, Int, Int, String)], in directory: TemporaryDirectory, name: String) throws
        -> URL
    {
        let url = directory.file(name)
        let database = try Database(path: url.path, mode: .readWriteCreate)
        try database.execute(
            """
            CREATE TABLE metadata (name TEXT NOT NULL PRIMARY KEY, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL,
                tile_data BLOB, PRIMARY KEY (zoom_level, tile_column, tile_row));
            """)
        for (z, x, row, text) in tiles {
            try database.execute(
                "INSERT INTO tiles VALUES (?, ?, ?, CAST(? AS blob))",
                arguments: [
                    .integer(Int64(z)), .integer(Int64(x)), .integer(Int64(row)), .text(text),
                ])
        }
        return url
    }

    /// The snapshots martin's tests keep (`copy__convert@v1__tiles__flat.snap`, `…z6__flat.snap`,
    /// and the empty file's value in `copy.rs`), over every layout we write.
    @Test(arguments: [MBTilesSchema.flat, .normalized])
    func matchesMartinsRecordedValues(schema: MBTilesSchema) throws {
        let directory = try TemporaryDirectory()
        let cases: [(String, [(Int, Int, Int, String)], String)] = [
            ("v1", Self.martinTilesV1, "9ED9178D7025276336C783C2B54D6258"),
            ("z6", Self.martinTilesV1.filter { $0.0 == 6 }, "675349A4153AEC0679BE9C0637AEEBCC"),
            ("empty", [], "D41D8CD98F00B204E9800998ECF8427E"),
        ]
        for (name, tiles, expected) in cases {
            // martin's own layout, written by SQL.
            let martin = try MBTilesStore(url: martinFile(tiles, in: directory, name: "\(name)-martin.mbtiles"))
            #expect(try martin.aggregateTilesHash() == expected, "\(name), flat file written by SQL")
            // The same tiles through our writer, in each layout.
            let ours = try MBTilesStore(
                url: directory.file("\(name)-\(schema).mbtiles"), mode: .create, newFileSchema: schema)
            let writer = try MBTilesWriter(store: ours, tilesPerBatch: 5)
            for (z, x, row, text) in tiles { try writer.add(Data(text.utf8), at: TileID(z: z, x: x, tmsY: row)) }
            #expect(try writer.finish() == expected, "\(name), \(schema) file written by MBTilesWriter")
            #expect(try ours.metadataValue(forKey: "agg_tiles_hash") == expected)
            #expect(try ours.checkAggregateTilesHash() == .matches(hash: expected))
        }
    }

    @Test func matchesAnIndependentPythonComputation() throws {
        let directory = try TemporaryDirectory()
        let store = try MBTilesStore(url: directory.file("seeded.mbtiles"), mode: .create)
        let writer = try MBTilesWriter(store: store, tilesPerBatch: 100)
        try writer.add(TestTiles.seeded(maximumZoom: 12))
        let stored = try #require(try writer.finish())

        // martin's definition, written again from its description with Python's own sqlite3 and
        // hashlib: MD5 over str(z) + str(x) + str(row) + bytes in (z, x, row) order, uppercase.
        let script = """
            import hashlib, sqlite3, sys
            connection = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            digest = hashlib.md5()
            for z, x, y, data in connection.execute(
                    "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY zoom_level, tile_column, tile_row"):
                digest.update(("%d%d%d" % (z, x, y)).encode() + (data or b""))
            wrong_ids = sum(1 for tile_id, data in connection.execute("SELECT tile_id, tile_data FROM images")
                            if hashlib.md5(data).hexdigest().upper() != tile_id)
            print(digest.hexdigest().upper(), wrong_ids)
            """
        let output = try ExternalCommand.run("python3", ["-c", script, store.path])
        #expect(output.status == 0, "\(output.transcript)")
        #expect(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "\(stored) 0")
    }

    @Test func aChangedTileIsAMismatchAndAnotherAlgorithmIsNamed() throws {
        let directory = try TemporaryDirectory()
        let store = try MBTilesStore(url: directory.file("changed.mbtiles"), mode: .create, newFileSchema: .flat)
        #expect(try store.checkAggregateTilesHash() == .missing(computed: "D41D8CD98F00B204E9800998ECF8427E"))
        try store.write([try TileID(z: 0, x: 0, y: 0): Data([1]), try TileID(z: 1, x: 0, y: 0): Data([2])])
        let hash = try store.updateAggregateTilesHash()
        // The MD5 of "000" 01 "101" 02 (0/0/0 is TMS row 0, 1/0/0 is TMS row 1), from Python's
        // hashlib.md5(b"000\x01101\x02").
        #expect(hash == "1E802B2BB1EC685C8EA0B49FFA3055C0")
        // Lowercase stored values match too.
        try store.setMetadataValue(hash.lowercased(), forKey: "agg_tiles_hash")
        #expect(try store.checkAggregateTilesHash() == .matches(hash: hash))

        try store.write(Data([9]), at: TileID(z: 1, x: 0, y: 0))
        let check = try store.checkAggregateTilesHash()
        #expect(check == .mismatch(stored: hash.lowercased(), computed: try store.aggregateTilesHash()))
        #expect(!check.isAcceptable)

        try store.setMetadataValue("fnv1a", forKey: "hash_algorithm")
        #expect(try store.checkAggregateTilesHash() == .unsupportedAlgorithm("fnv1a"))
    }
}
