public import Foundation
public import MapSQLite
public import MapUtilities

/// An error reading vector data, naming the file and the place in it: the feature index in a
/// GeoJSON file, the line in a GPX file, the table and row in a GeoPackage.
///
/// Messages read as one line a person can act on:
///
/// ```text
/// trip.geojson: feature 3: coordinates[1]: latitude 95.0 is outside [-90, 90]
/// walk.gpx: line 12: <trkpt> has no lat attribute
/// world_map.gpkg: table 'roads': its SRS is EPSG:3857 (srs_id 3857); only EPSG:4326 is read
/// ```
public enum GeoDataError: Error, Hashable, Sendable {
    /// The file could not be read at all (missing, unreadable).
    case unreadableFile(path: String, reason: String)
    /// The file is not JSON; `reason` is `JSONSyntaxError.reason` (MapJSON), a whole phrase such
    /// as "is not valid JSON: unexpected end of file at line 3, column 1".
    case invalidJSON(path: String, reason: String)
    /// The JSON is not valid GeoJSON. `featureIndex` is the 0-based index in the
    /// FeatureCollection's `features`, `nil` for the top-level object.
    case invalidGeoJSON(path: String, featureIndex: Int?, reason: String)
    /// The GPX file is not well-formed XML or not valid GPX 1.1; `line` is 1-based.
    case invalidGPX(path: String, line: Int, reason: String)
    /// The file is well-formed but holds nothing to draw; `missing` says what, as in
    /// "track points" or "features".
    case nothingToDraw(path: String, missing: String)
    /// Bytes that are not valid WKB; `offset` is where reading failed, in bytes from the start.
    case invalidWKB(offset: Int, reason: String)
    /// The file is not a GeoPackage this reader understands (missing gpkg tables, for instance).
    case invalidGeoPackage(path: String, reason: String)
    /// The GeoPackage has no feature table of this name; `available` lists those it has.
    case featureTableNotFound(path: String, table: String, available: [String])
    /// A feature table's SRS is one PROJ cannot transform to EPSG:4326 (an undefined or
    /// unknown SRS).
    case unsupportedSRS(path: String, table: String, srsID: Int64, definition: String)
    /// A GeoJSON file's legacy `crs` cannot be used (linked, or unknown to PROJ); `reason`
    /// names the CRS.
    case unsupportedCRS(path: String, reason: String)
    /// A row's geometry blob cannot be decoded.
    case invalidGeometry(path: String, table: String, featureID: Int64, reason: String)
    /// SQLite failed; the error names the database file.
    case sqlite(SQLiteError)
}

extension GeoDataError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            return "\(path): cannot read the file: \(reason)"
        case .invalidJSON(let path, let reason):
            return "\(path): \(reason)"
        case .invalidGeoJSON(let path, let featureIndex?, let reason):
            return "\(path): feature \(featureIndex): \(reason)"
        case .invalidGeoJSON(let path, nil, let reason):
            return "\(path): not valid GeoJSON: \(reason)"
        case .invalidGPX(let path, let line, let reason):
            return "\(path): line \(line): \(reason)"
        case .nothingToDraw(let path, let missing):
            return "\(path): has no \(missing)"
        case .invalidWKB(let offset, let reason):
            return "invalid WKB at byte \(offset): \(reason)"
        case .invalidGeoPackage(let path, let reason):
            return "\(path): not a readable GeoPackage: \(reason)"
        case .featureTableNotFound(let path, let table, let available):
            let list = available.isEmpty ? "it has none" : "it has " + available.joined(separator: ", ")
            return "\(path): no feature table '\(table)' (\(list))"
        case .unsupportedSRS(let path, let table, let srsID, let definition):
            return
                "\(path): table '\(table)': its SRS is \(definition) (srs_id \(srsID)), which PROJ cannot transform to EPSG:4326"
        case .unsupportedCRS(let path, let reason):
            return "\(path): \(reason)"
        case .invalidGeometry(let path, let table, let featureID, let reason):
            return "\(path): table '\(table)', feature \(featureID): \(reason)"
        case .sqlite(let error):
            return error.description
        }
    }

    public var errorDescription: String? { description }
}

/// Bad input: exit status 2.
extension GeoDataError: ExitStatusError {}
