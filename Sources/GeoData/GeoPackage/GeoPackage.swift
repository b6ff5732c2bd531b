import Foundation
public import MapCore
import MapJSON
import MapSQLite
import Synchronization

/// A GeoPackage file opened read-only: its feature tables, their rows as ``Feature``s, and
/// bounding-box queries through each table's R-tree spatial index.
///
/// For example:
///
/// ```swift
/// let geoPackage = try GeoPackage(path: "Tiles/basemap/world_map.gpkg")
/// let countries = try geoPackage.featureTable(named: "countries")
/// let europe = BoundingBox(west: -10, south: 35, east: 30, north: 60)
/// for feature in try geoPackage.features(in: countries, intersecting: europe) {
///     print(feature.properties["NAME"] ?? "")
/// }
/// ```
///
/// Tables in EPSG:4326 (longitude, latitude in degrees) are read as they are; tables in any other
/// SRS that PROJ knows (by its `ORGANIZATION:ID`, else its WKT definition) are transformed to
/// EPSG:4326 through MapProjection, and query boxes into the table's SRS for its R-tree. A table
/// whose SRS PROJ cannot transform throws
/// ``GeoDataError/unsupportedSRS(path:table:srsID:definition:)``; a feature with a position PROJ
/// cannot place keeps its properties with no geometry.
///
/// A `GeoPackage` may be shared between threads: its ``Database`` is in SQLite's serialized mode.
///
/// Related specification: OGC GeoPackage Encoding Standard 1.3, <https://www.geopackage.org/spec130/>
public final class GeoPackage: Sendable {
    /// The file's path, as given; errors name it.
    public let path: String

    private let database: Database
    /// PROJ's transformations of the tables not in EPSG:4326, by `srs_id`, made on first use.
    private let transforms = Mutex<[Int64: SRSTransform]>([:])

    /// Opens a GeoPackage read-only and checks it has the tables that list its features.
    ///
    /// - Throws: ``GeoDataError/unreadableFile(path:reason:)`` when the file is missing,
    ///   ``GeoDataError/invalidGeoPackage(path:reason:)`` when it is not SQLite or has no
    ///   `gpkg_contents` and `gpkg_geometry_columns` (GeoPackage 1.3 §1.1.3, §2.1.5).
    public init(path: String) throws(GeoDataError) {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadableFile(path: path, reason: "no such readable file")
        }
        do {
            let database = try Database(path: path, mode: .readOnly)
            for table in ["gpkg_contents", "gpkg_geometry_columns", "gpkg_spatial_ref_sys"] {
                guard try database.hasTable(named: table) else {
                    throw GeoDataError.invalidGeoPackage(path: path, reason: "it has no \(table) table")
                }
            }
            self.database = database
        } catch let error as GeoDataError {
            throw error
        } catch let error as SQLiteError where error.primaryResultCode == 26 {  // SQLITE_NOTADB
            throw .invalidGeoPackage(path: path, reason: "it is not an SQLite database")
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch {
            throw .invalidGeoPackage(path: path, reason: "\(error)")
        }
        self.path = path
    }

    // MARK: - Tables

    /// The feature tables, in `gpkg_contents` order (by name), whatever their SRS.
    ///
    /// - Throws: ``GeoDataError/sqlite(_:)`` when the GeoPackage tables cannot be read.
    public func featureTables() throws(GeoDataError) -> [FeatureTable] {
        let sql = """
            SELECT c.table_name, g.column_name, g.geometry_type_name, g.srs_id,
                   s.organization, s.organization_coordsys_id, s.srs_name, s.definition,
                   c.min_x, c.min_y, c.max_x, c.max_y
            FROM gpkg_contents AS c
            JOIN gpkg_geometry_columns AS g ON g.table_name = c.table_name
            LEFT JOIN gpkg_spatial_ref_sys AS s ON s.srs_id = g.srs_id
            WHERE c.data_type = 'features'
            ORDER BY c.table_name
            """
        return try sqlite { () throws(SQLiteError) in
            let statement = try database.prepare(sql)
            var tables: [FeatureTable] = []
            while try statement.step() {
                let name = statement.text(at: 0) ?? ""
                let column = statement.text(at: 1) ?? ""
                let bounds: BoundingBox? =
                    (8...11).contains(where: statement.isNull(at:))
                    ? nil
                    : BoundingBox(
                        west: statement.double(at: 8), south: statement.double(at: 9),
                        east: statement.double(at: 10), north: statement.double(at: 11)
                    )
                let wkt = statement.text(at: 7).flatMap { $0.lowercased() == "undefined" || $0.isEmpty ? nil : $0 }
                let spatialIndex = "rtree_\(name)_\(column)"
                tables.append(
                    FeatureTable(
                        name: name,
                        geometryColumn: column,
                        geometryTypeName: statement.text(at: 2) ?? "GEOMETRY",
                        srsID: statement.int64(at: 3),
                        srsDefinition: FeatureTable.srsDefinition(
                            organization: statement.text(at: 4),
                            identifier: statement.isNull(at: 5) ? nil : statement.int64(at: 5),
                            name: statement.text(at: 6)
                        ),
                        srsWKT: wkt,
                        bounds: bounds,
                        spatialIndexTable: try database.hasTable(named: spatialIndex) ? spatialIndex : nil,
                        columns: []
                    ))
            }
            for index in tables.indices {
                tables[index].columns = try columns(of: tables[index].name)
            }
            return tables
        }
    }

    /// The feature table with this name (compared case-insensitively, as SQLite does).
    ///
    /// - Throws: ``GeoDataError/featureTableNotFound(path:table:available:)`` listing the
    ///   tables there are.
    public func featureTable(named name: String) throws(GeoDataError) -> FeatureTable {
        let tables = try featureTables()
        guard let table = tables.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw .featureTableNotFound(path: path, table: name, available: tables.map(\.name))
        }
        return table
    }

    // MARK: - Features

    /// The table's features whose envelope meets `box`, or all of them when `box` is `nil`.
    ///
    /// With the table's R-tree index (GeoPackage 1.3 Annex F.3, `rtree_<table>_<column>`),
    /// SQLite finds the rows; without it every row is read and its envelope (from the header,
    /// else computed) compared. The R-tree stores 32-bit floats rounded outwards, so a feature
    /// within about 1e-5 degrees of the box may be returned too.
    ///
    /// Columns other than the primary key and the geometry become properties (BLOBs are left
    /// out); the primary key becomes ``Feature/id``.
    ///
    /// - Throws: ``GeoDataError/unsupportedSRS(path:table:srsID:definition:)`` when PROJ cannot
    ///   transform the table's SRS to EPSG:4326, ``GeoDataError/invalidGeometry(path:table:featureID:reason:)`` naming
    ///   the first row whose blob is malformed, ``GeoDataError/sqlite(_:)``.
    public func features(in table: FeatureTable, intersecting box: BoundingBox? = nil) throws(GeoDataError) -> [Feature]
    {
        let transform = try srsTransform(of: table)
        let indexBox = box.flatMap { box in transform == nil ? box : transform?.tableBox(box) }
        if let indexBox, let index = table.spatialIndexTable {
            let condition = "t.\(quotedSQLIdentifier(table.primaryKeyColumn)) IN (\(rtreeQuery(index)))"
            return try rows(
                of: table, transform: transform, condition: condition, arguments: rtreeArguments(indexBox),
                envelopeFilter: nil)
        }
        return try rows(of: table, transform: transform, condition: nil, arguments: [], envelopeFilter: box)
    }

    /// The table's features with the primary keys `identifiers`, each once, in no particular
    /// order (``Feature/id`` tells them apart); keys with no row are left out.
    ///
    /// What a source reading rows on demand calls with the keys an R-tree query found.
    ///
    /// - Throws: As ``features(in:intersecting:)``.
    public func features(in table: FeatureTable, withIDs identifiers: [Int64]) throws(GeoDataError) -> [Feature] {
        guard !identifiers.isEmpty else { return [] }
        let transform = try srsTransform(of: table)
        var features: [Feature] = []
        // SQLite allows 32,766 bound parameters; batches stay well under it.
        let unique = Array(Set(identifiers)).sorted()
        for start in stride(from: 0, to: unique.count, by: 10_000) {
            let batch = unique[start..<min(unique.count, start + 10_000)]
            let condition =
                "t.\(quotedSQLIdentifier(table.primaryKeyColumn)) IN (\(Array(repeating: "?", count: batch.count).joined(separator: ",")))"
            features += try rows(
                of: table, transform: transform, condition: condition, arguments: batch.map { .integer($0) },
                envelopeFilter: nil)
        }
        return features
    }

    /// The primary keys of every row of the table, in the order ``features(in:intersecting:)``
    /// reads them without a box (the table's own order).
    ///
    /// - Throws: ``GeoDataError/sqlite(_:)``.
    public func featureIDs(in table: FeatureTable) throws(GeoDataError) -> [Int64] {
        let sql = "SELECT t.\(quotedSQLIdentifier(table.primaryKeyColumn)) FROM \(quotedSQLIdentifier(table.name)) AS t"
        return try sqlite { () throws(SQLiteError) in
            let statement = try database.prepare(sql)
            var identifiers: [Int64] = []
            while try statement.step() {
                identifiers.append(statement.int64(at: 0))
            }
            return identifiers
        }
    }

    /// Reads the rows meeting `condition` (all when nil) as features, their geometry
    /// transformed to EPSG:4326 by `transform`; with `envelopeFilter`, only those whose
    /// envelope meets it.
    private func rows(
        of table: FeatureTable, transform: SRSTransform?, condition: String?, arguments: [SQLiteValue],
        envelopeFilter box: BoundingBox?
    ) throws(GeoDataError) -> [Feature] {
        let selected = ([table.primaryKeyColumn, table.geometryColumn] + table.attributeColumns)
            .map { "t." + quotedSQLIdentifier($0) }
            .joined(separator: ", ")
        var sql = "SELECT \(selected) FROM \(quotedSQLIdentifier(table.name)) AS t"
        if let condition { sql += " WHERE " + condition }
        let columnNames = table.attributeColumns

        var features: [Feature] = []
        var failure: GeoDataError?
        try sqlite { () throws(SQLiteError) in
            let statement = try database.prepare(sql)
            try statement.bind(arguments)
            while failure == nil, try statement.step() {
                let featureID = statement.int64(at: 0)
                var decoded: GeoPackageGeometry?
                if let blob = statement.blob(at: 1) {
                    do throws(GeoDataError) {
                        decoded = try GeoPackageGeometry(decoding: blob)
                    } catch {
                        failure = .invalidGeometry(
                            path: path, table: table.name, featureID: featureID, reason: error.description)
                        break
                    }
                }
                if let transform, let projected = decoded {
                    // The header's envelope is in the table's SRS: the transformed geometry's box replaces it.
                    decoded = transform.geographic(projected.geometry).map { geometry in
                        var geographic = projected
                        geographic.geometry = geometry
                        geographic.envelope = nil
                        return geographic
                    }
                }
                if let box {
                    guard let envelope = decoded?.envelope ?? decoded?.geometry.boundingBox, envelope.intersects(box)
                    else {
                        continue
                    }
                }
                var properties: [String: FeatureValue] = [:]
                properties.reserveCapacity(columnNames.count)
                for (offset, name) in columnNames.enumerated() {
                    switch statement.value(at: offset + 2) {
                    case .null: properties[name] = .null
                    case .integer(let integer): properties[name] = .number(Double(integer))
                    case .real(let real): properties[name] = .number(real)
                    case .text(let text): properties[name] = .string(text)
                    case .blob: continue
                    }
                }
                features.append(
                    Feature(id: .number(Double(featureID)), geometry: decoded?.geometry, properties: properties))
            }
        }
        if let failure { throw failure }
        return features
    }

    /// The primary keys of the table's features whose envelope meets `box`, found through the
    /// table's R-tree; `nil` when the table has none (the caller then filters by itself).
    ///
    /// - Throws: ``GeoDataError/sqlite(_:)``.
    public func featureIDs(in table: FeatureTable, intersecting box: BoundingBox) throws(GeoDataError) -> [Int64]? {
        guard let index = table.spatialIndexTable else { return nil }
        let transform = try srsTransform(of: table)
        guard let box = transform == nil ? box : transform?.tableBox(box) else { return nil }
        return try sqlite { () throws(SQLiteError) in
            let statement = try database.prepare(rtreeQuery(index))
            try statement.bind(rtreeArguments(box))
            var identifiers: [Int64] = []
            while try statement.step() {
                identifiers.append(statement.int64(at: 0))
            }
            return identifiers
        }
    }

    // MARK: - Internals

    /// The columns of a table, with the primary key and geometry columns marked.
    private func columns(of table: String) throws(SQLiteError) -> [FeatureTable.Column] {
        let statement = try database.prepare("PRAGMA table_info(\(quotedSQLIdentifier(table)))")
        var columns: [FeatureTable.Column] = []
        while try statement.step() {
            columns.append(
                FeatureTable.Column(
                    name: statement.text(at: 1) ?? "",
                    declaredType: statement.text(at: 2) ?? "",
                    isPrimaryKey: statement.int64(at: 5) == 1
                ))
        }
        return columns
    }

    /// The table's transformation to EPSG:4326, made once per SRS; nil for EPSG:4326 tables.
    private func srsTransform(of table: FeatureTable) throws(GeoDataError) -> SRSTransform? {
        guard !table.isWGS84 else { return nil }
        if let made = transforms.withLock({ $0[table.srsID] }) { return made }
        let made = try SRSTransform(table: table, path: path)
        return transforms.withLock { transforms in
            if let existing = transforms[table.srsID] { return existing }
            transforms[table.srsID] = made
            return made
        }
    }

    private func rtreeQuery(_ index: String) -> String {
        "SELECT id FROM \(quotedSQLIdentifier(index)) WHERE minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?"
    }

    private func rtreeArguments(_ box: BoundingBox) -> [SQLiteValue] {
        [.real(box.east), .real(box.west), .real(box.north), .real(box.south)]
    }

    private func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(GeoDataError) -> T {
        do {
            return try body()
        } catch {
            throw .sqlite(error)
        }
    }
}
