import Foundation
import MapCore
import MapSQLite
import MapTestSupport
import MapUtilities
import Testing

@testable import MBTiles

/// The deduplicated layout: martin's DDL, images named by MD5, one image for identical tiles.
struct MBTilesNormalizedSchemaTests {
    @Test func newFilesAreNormalizedAsMartinDetectsIt() throws {
        let directory = try TemporaryDirectory()
        let store = try MBTilesStore(url: directory.file("new.mbtiles"), mode: .create)
        #expect(store.schema == .normalized)
        #expect(store.isWritable)
        let database = try Database(path: store.path)
        // martin's `is_normalized_tables_type`, run as it is written: the two tables, and the
        // columns with these exact declared types.
        let detection = try database.prepare(
            """
            SELECT (SELECT COUNT(*) = 2 FROM sqlite_master WHERE (name = 'map' OR name = 'images') AND type = 'table')
            AND (SELECT COUNT(*) = 4 FROM pragma_table_info('map')
                 WHERE ((name = 'zoom_level' AND type LIKE '%INT%') OR (name = 'tile_column' AND type LIKE '%INT%')
                     OR (name = 'tile_row' AND type LIKE '%INT%') OR (name = 'tile_id' AND type = 'TEXT')))
            AND (SELECT COUNT(*) = 2 FROM pragma_table_info('images')
                 WHERE ((name = 'tile_id' AND type = 'TEXT') OR (name = 'tile_data' AND type = 'BLOB')))
            """)
        try detection.step()
        #expect(detection.int64(at: 0) == 1)
        var objects: [String] = []
        try database.prepare("SELECT type || ' ' || name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY 1")
            .forEachRow {
                objects.append($0.text(at: 0) ?? "")
            }
        #expect(objects == ["table images", "table map", "table metadata", "view tiles", "view tiles_with_hash"])
        let pragma = try database.prepare("PRAGMA application_id")
        try pragma.step()
        #expect(pragma.int64(at: 0) == 0x4D50_4258)
    }

    @Test func aThousandIdenticalTilesStoreOneImage() throws {
        let directory = try TemporaryDirectory()
        let store = try MBTilesStore(url: directory.file("ocean.mbtiles"), mode: .create)
        let writer = try MBTilesWriter(store: store, tilesPerBatch: 256)
        let ocean = Data(repeating: 0x42, count: 1_000)
        let tiles = try TileID.tiles(covering: .world, zoom: 5).prefix(1_000)
        #expect(tiles.count == 1_000)
        for tile in tiles { try writer.add(ocean, at: tile) }
        try writer.finish()

        #expect(try TestTiles.integer("SELECT count(*) FROM images", in: store.url) == 1)
        #expect(try TestTiles.integer("SELECT count(*) FROM map", in: store.url) == 1_000)
        let imageID = try Database(path: store.path).prepare("SELECT tile_id FROM images")
        try imageID.step()
        #expect(imageID.text(at: 0) == MD5.digest(of: ocean).uppercaseHexDigits)
        #expect(try store.count() == 1_000)
        for tile in tiles.prefix(20) { #expect(try store.tile(at: tile) == ocean) }

        let info = try store.info()
        #expect(info.tileCount == 1_000)
        #expect(info.tileBytes == 1_000_000)
        #expect(info.storedBlobCount == 1)
        #expect(info.storedBlobBytes == 1_000)
        #expect(info.deduplicationRatio == 1_000)
    }

    @Test func aReplacedTileLeavesNoUnusedImageOnceFinished() throws {
        let directory = try TemporaryDirectory()
        let store = try MBTilesStore(url: directory.file("replace.mbtiles"), mode: .create)
        let tile = try TileID(z: 2, x: 1, y: 1)
        try store.write([tile: Data([1]), try TileID(z: 2, x: 0, y: 0): Data([2])])
        try store.write(Data([3]), at: tile)
        #expect(try store.tile(at: tile) == Data([3]))
        #expect(try store.validate().unusedImageCount == 1)
        #expect(try store.removeUnusedImages() == 1)
        #expect(try TestTiles.integer("SELECT count(*) FROM images", in: store.url) == 2)

        let writer = try MBTilesWriter(store: store)
        try writer.add(Data([4]), at: tile)
        try writer.finish()
        #expect(try TestTiles.integer("SELECT count(*) FROM images", in: store.url) == 2)
        let report = try store.validate()
        #expect(report.unusedImageCount == 0)
        #expect(report.problems == ["metadata lacks `name` and `format`, which MBTiles 1.3 requires"])
    }

    @Test func emptyTilesAreEmptyBlobsNotNull() throws {
        let directory = try TemporaryDirectory()
        let store = try MBTilesStore(url: directory.file("empty-tiles.mbtiles"), mode: .create)
        let tile = try TileID(z: 1, x: 1, y: 1)
        try store.write(Data(), at: tile)
        #expect(try store.tile(at: tile) == Data())
        #expect(
            try TestTiles.integer("SELECT count(*) FROM images WHERE typeof(tile_data) = 'blob'", in: store.url) == 1)
    }

    @Test func anMbutilStyleFileIsReadAndWritten() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("mbutil.mbtiles")
        // mbutil's `optimize_database` layout: lowercase MD5 ids, a grid_id column, no primary keys.
        try Database(path: url.path, mode: .readWriteCreate).execute(
            """
            CREATE TABLE metadata (name text, value text);
            CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT, grid_id TEXT);
            CREATE TABLE images (tile_data blob, tile_id text);
            CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
            CREATE UNIQUE INDEX images_id ON images (tile_id);
            CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                map.tile_row AS tile_row, images.tile_data AS tile_data FROM map JOIN images ON images.tile_id = map.tile_id;
            INSERT INTO map VALUES (1, 0, 1, '0cc175b9c0f1b6a831c399e269772661', NULL), (1, 1, 1, '0cc175b9c0f1b6a831c399e269772661', NULL);
            INSERT INTO images VALUES (x'61', '0cc175b9c0f1b6a831c399e269772661');
            """)
        let store = try MBTilesStore(url: url, mode: .readWrite)
        #expect(store.schema == .normalized)
        #expect(try store.tile(at: TileID(z: 1, x: 0, y: 0)) == Data("a".utf8))
        try store.write(Data("b".utf8), at: TileID(z: 1, x: 0, y: 1))
        #expect(try store.tile(at: TileID(z: 1, x: 0, y: 1)) == Data("b".utf8))
        #expect(try store.count() == 3)
        #expect(try store.validate().mismatchedImageIDs.isEmpty)
    }
}
