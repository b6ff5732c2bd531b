import Foundation
import MapSQLite

/// How an MBTiles file lays out its tiles. Every layout answers `SELECT … FROM tiles`, as
/// MBTiles 1.3 requires; they differ in what is behind `tiles`.
///
/// Related: <https://maplibre.org/martin/mbtiles-schema.html> (martin's `mbtiles` tool calls
/// these "flat" and "normalized").
public enum MBTilesSchema: String, Hashable, Sendable, CaseIterable {
    /// A `tiles` table, one row per tile with its bytes: the specification's own layout. What the
    /// HTTP tile cache uses, and what most tools write.
    case flat
    /// Deduplicated, as martin's `mbtiles` tool and mbutil write it: `map (zoom_level,
    /// tile_column, tile_row, tile_id)` and `images (tile_id, tile_data)` behind a `tiles` view,
    /// the `tile_id` the MD5 of the bytes in 32 uppercase hexadecimal digits. A tileset of
    /// identical ocean tiles stores one image. What new exports use.
    case normalized
    /// A `tiles` view over tables this store does not write (martin's `tiles_with_hash`,
    /// hand-made views…): read, never written.
    case otherView

    /// Whether ``MBTilesStore`` writes tiles in this layout.
    public var isWritable: Bool { self != .otherView }
}

// MARK: - Detection

extension MBTilesSchema {
    /// What a look at a file's schema found.
    enum Inspection {
        /// The file has no tables, views or indexes at all (a new or zero-byte file).
        case empty
        /// An MBTiles file in this layout.
        case mbtiles(MBTilesSchema)
    }

    /// Looks at the schema of the database open on `database`, reading only `sqlite_master` and
    /// column lists.
    ///
    /// - Throws: ``MBTilesError/notMBTiles(path:reason:)`` for another SQLite format or one
    ///   without the tables, ``MBTilesError/invalidSchema(path:table:reason:)`` for a table or
    ///   view without a required column or a view that does not compile, SQLite's errors otherwise.
    static func inspect(_ database: Database, path: String) throws -> Inspection {
        var types: [String: String] = [:]
        var objectCount = 0
        try database.prepare("SELECT lower(name), type FROM sqlite_master").forEachRow { row in
            objectCount += 1
            let name = row.text(at: 0) ?? ""
            if types[name] == nil || row.text(at: 1) != "index" { types[name] = row.text(at: 1) }
        }
        guard objectCount > 0 else { return .empty }
        if types["gpkg_contents"] != nil {
            throw MBTilesError.notMBTiles(path: path, reason: "it is a GeoPackage (it has `gpkg_contents`)")
        }
        guard types["metadata"] == "table" || types["metadata"] == "view" else {
            throw MBTilesError.notMBTiles(path: path, reason: "it has no `metadata` table")
        }
        guard let tilesType = types["tiles"], tilesType == "table" || tilesType == "view" else {
            throw MBTilesError.notMBTiles(path: path, reason: "it has no `tiles` table or view")
        }
        try requireColumns(["name", "value"], of: "metadata", in: database, path: path)
        try requireColumns(
            ["zoom_level", "tile_column", "tile_row", "tile_data"], of: "tiles", in: database, path: path)
        if tilesType == "table" { return .mbtiles(.flat) }
        if types["map"] == "table", types["images"] == "table",
            try columns(of: "map", in: database, path: path).isSuperset(of: [
                "zoom_level", "tile_column", "tile_row", "tile_id",
            ]),
            try columns(of: "images", in: database, path: path).isSuperset(of: ["tile_id", "tile_data"])
        {
            return .mbtiles(.normalized)
        }
        return .mbtiles(.otherView)
    }

    /// The lowercased column names of a table or view.
    private static func columns(of table: String, in database: Database, path: String) throws -> Set<String> {
        var present: Set<String> = []
        do {
            try database.prepare("PRAGMA table_info(\(quotedSQLIdentifier(table)))").forEachRow { row in
                present.insert((row.text(at: 1) ?? "").lowercased())
            }
        } catch let error as SQLiteError where error.primaryResultCode == 1 {
            // A view over a missing table or column fails to compile here.
            throw MBTilesError.invalidSchema(path: path, table: table, reason: "it cannot be read: \(error.message)")
        }
        return present
    }

    private static func requireColumns(_ required: [String], of table: String, in database: Database, path: String)
        throws
    {
        let present = try columns(of: table, in: database, path: path)
        let missing = required.filter { !present.contains($0) }
        guard missing.isEmpty else {
            let list = missing.map { "`\($0)`" }.joined(separator: ", ")
            throw MBTilesError.invalidSchema(
                path: path, table: table, reason: "it has no \(list) column\(missing.count == 1 ? "" : "s")")
        }
    }
}

// MARK: - Creation

extension MBTilesSchema {
    /// The MBTiles application id, "MPBX", from SQLite's list of assigned magic numbers.
    static let applicationID: Int32 = 0x4D50_4258

    /// The statements that make a new file in this layout.
    ///
    /// Flat files keep the specification's example schema (a unique index `tile_index`), which
    /// caches made before deduplication also have. Normalized files use martin's DDL, which its
    /// `mbtiles` tool recognises as normalized (column types `INTEGER`, `TEXT`, `BLOB`, spelled
    /// so), with its `tiles_with_hash` view that exposes each image's id.
    var creationSQL: String {
        switch self {
        case .flat:
            """
            PRAGMA application_id = \(Self.applicationID);
            CREATE TABLE metadata (name text, value text);
            CREATE UNIQUE INDEX name ON metadata (name);
            CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
            CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
            INSERT INTO metadata (name, value) VALUES ('scheme', 'tms');
            """
        case .normalized:
            """
            PRAGMA application_id = \(Self.applicationID);
            CREATE TABLE metadata (name TEXT NOT NULL PRIMARY KEY, value TEXT);
            CREATE TABLE map (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, \
            tile_id TEXT, PRIMARY KEY (zoom_level, tile_column, tile_row));
            CREATE TABLE images (tile_id TEXT NOT NULL PRIMARY KEY, tile_data BLOB);
            CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, \
            map.tile_row AS tile_row, images.tile_data AS tile_data FROM map JOIN images ON images.tile_id = map.tile_id;
            CREATE VIEW tiles_with_hash AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, \
            map.tile_row AS tile_row, images.tile_data AS tile_data, images.tile_id AS tile_hash \
            FROM map JOIN images ON images.tile_id = map.tile_id;
            INSERT INTO metadata (name, value) VALUES ('scheme', 'tms');
            """
        case .otherView:
            preconditionFailure("MBTilesStore does not make files with a `tiles` view of its own")
        }
    }
}
