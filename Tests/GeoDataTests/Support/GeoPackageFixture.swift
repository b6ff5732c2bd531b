import GeoData
import MapCore
import MapSQLite

/// Builds small GeoPackage files with MapSQLite: the three required gpkg tables, one feature
/// table `places` (fid, geom, name, population, area, thumbnail) and, optionally, its R-tree.
struct GeoPackageFixture {
    struct Place {
        var name: String
        var geometry: Geometry?
        var population: Int64? = nil
        /// Writes the geometry as an empty one (flag set, `POINT EMPTY`).
        var isEmpty = false
    }

    var spatialIndex = true
    var srsID: Int64 = 4326
    var blobWriter = GeoPackageBlobWriter()

    /// Writes the GeoPackage and returns its path.
    @discardableResult
    func write(_ places: [Place], to path: String) throws -> String {
        let database = try Database(path: path, mode: .readWriteCreate)
        try database.execute(
            """
            PRAGMA application_id = 1196444487;
            PRAGMA user_version = 10300;
            CREATE TABLE gpkg_spatial_ref_sys (
                srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
                organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
            INSERT INTO gpkg_spatial_ref_sys VALUES
                ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', NULL),
                ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', NULL),
                ('WGS 84 geodetic', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84"]', NULL),
                ('WGS 84 / Pseudo-Mercator', 3857, 'EPSG', 3857, 'PROJCS["WGS 84 / Pseudo-Mercator"]', NULL),
                ('WGS 84 / UTM zone 33N', 32633, 'EPSG', 32633, 'PROJCS["WGS 84 / UTM zone 33N"]', NULL),
                ('A grid of nobody''s', 990001, 'NONE', 990001, 'undefined', NULL);
            CREATE TABLE gpkg_contents (
                table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
                description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
                min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER);
            CREATE TABLE gpkg_geometry_columns (
                table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
                srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
                PRIMARY KEY (table_name, column_name));
            CREATE TABLE places (
                fid INTEGER PRIMARY KEY AUTOINCREMENT, geom GEOMETRY, name TEXT, population INTEGER,
                area REAL, thumbnail BLOB);
            """)
        try database.execute(
            "INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES ('places', 'features', 'places', ?)",
            arguments: [.integer(srsID)]
        )
        try database.execute(
            "INSERT INTO gpkg_geometry_columns VALUES ('places', 'geom', 'GEOMETRY', ?, 0, 0)",
            arguments: [.integer(srsID)]
        )
        if spatialIndex {
            try database.execute("CREATE VIRTUAL TABLE rtree_places_geom USING rtree(id, minx, maxx, miny, maxy)")
        }
        try database.inTransaction {
            for place in places {
                let blob: SQLiteValue
                if place.isEmpty {
                    blob = .blob(blobWriter.encodeEmpty())
                } else if let geometry = place.geometry {
                    blob = .blob(blobWriter.encode(geometry))
                } else {
                    blob = .null
                }
                try database.execute(
                    "INSERT INTO places (geom, name, population, area, thumbnail) VALUES (?, ?, ?, ?, ?)",
                    arguments: [
                        blob, .text(place.name), place.population.map(SQLiteValue.integer) ?? .null, 12.5,
                        .blob([1, 2, 3]),
                    ]
                )
                // Annex F.3: empty and NULL geometries have no R-tree entry.
                if spatialIndex, !place.isEmpty, let box = place.geometry?.boundingBox {
                    try database.execute(
                        "INSERT INTO rtree_places_geom VALUES (?, ?, ?, ?, ?)",
                        arguments: [
                            .integer(database.lastInsertedRowID), .real(box.west), .real(box.east), .real(box.south),
                            .real(box.north),
                        ]
                    )
                }
            }
        }
        return path
    }
}
