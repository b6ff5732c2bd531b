public import Foundation
public import MapSQLite
public import MapUtilities

/// Why an MBTiles file could not be opened, read or written: the one error of the MBTiles module.
///
/// Every case names the file, so the message can be shown to a person as is:
///
/// ```swift
/// do { _ = try MBTilesStore(url: URL(fileURLWithPath: "Tiles/basemap/world_map.gpkg")) }
/// catch { print(error) }
/// // Tiles/basemap/world_map.gpkg: not an MBTiles file: it has no `tiles` table
/// ```
public enum MBTilesError: Error, Hashable, Sendable {
    /// The file to open for reading does not exist.
    case missingFile(path: String)
    /// The file is not an MBTiles file: empty, not an SQLite database, another SQLite format (a
    /// GeoPackage…), or without a `metadata` table or a `tiles` table or view.
    case notMBTiles(path: String, reason: String)
    /// The file is an SQLite database that SQLite finds damaged ("database disk image is malformed").
    case corrupt(path: String, reason: String)
    /// A table or view the MBTiles 1.3 specification requires lacks a column or cannot be read.
    case invalidSchema(path: String, table: String, reason: String)
    /// A row of `tiles` whose address is outside the tile grid (a zoom beyond 30, a column or
    /// row beyond 2^zoom − 1); `row` is the stored TMS `tile_row`.
    case invalidTileAddress(path: String, zoom: Int64, column: Int64, row: Int64)
    /// A metadata value that cannot be read as its key requires (a `bounds` without four numbers…).
    case invalidMetadata(path: String, name: String, value: String, reason: String)
    /// A write to a store opened read-only, or whose `tiles` is a view.
    case readOnly(path: String, reason: String)
    /// The folder meant to hold a new store cannot be created.
    case unwritableDirectory(path: String, reason: String)
    /// SQLite failed; the error names the file and the statement.
    case sqlite(SQLiteError)
}

extension MBTilesError: CustomStringConvertible, LocalizedError {
    /// A one-line message for a person, naming the file.
    public var description: String {
        switch self {
        case .missingFile(let path):
            "\(path): no such MBTiles file"
        case .notMBTiles(let path, let reason):
            "\(path): not an MBTiles file: \(reason)"
        case .corrupt(let path, let reason):
            "\(path): the MBTiles file is damaged: \(reason)"
        case .invalidSchema(let path, let table, let reason):
            "\(path): the `\(table)` table does not follow MBTiles 1.3: \(reason)"
        case .invalidMetadata(let path, let name, let value, let reason):
            "\(path): metadata `\(name)` = '\(value)': \(reason)"
        case .invalidTileAddress(let path, let zoom, let column, let row):
            "\(path): a tile at zoom_level \(zoom), tile_column \(column), tile_row \(row) is outside the tile grid"
        case .readOnly(let path, let reason):
            "\(path): cannot write tiles: \(reason)"
        case .unwritableDirectory(let path, let reason):
            "\(path): cannot create the folder for the tile store: \(reason)"
        case .sqlite(let error) where error.primaryResultCode == 13:  // SQLITE_FULL
            "\(error.path): the disk is full (no space left for the tiles); what was committed is kept: free some space and run the same command again (with --resume for an export) to finish"
        case .sqlite(let error):
            // SQL spread over lines stays on the message's one line.
            error.description.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
                separator: " ")
        }
    }

    public var errorDescription: String? { description }
}

// MARK: - From SQLite

extension MBTilesError {
    /// The error to report for `error`, thrown while working on the MBTiles file at `path`:
    /// a ``MBTilesError`` as it is; SQLite's "malformed" and "not a database" as ``corrupt(path:reason:)``
    /// and ``notMBTiles(path:reason:)``; other SQLite errors as ``sqlite(_:)``.
    static func wrapping(_ error: any Error, path: String) -> MBTilesError {
        switch error {
        case let error as MBTilesError:
            return error
        case let error as SQLiteError:
            switch error.primaryResultCode {
            case 11: return .corrupt(path: path, reason: error.message)  // SQLITE_CORRUPT
            case 26: return .notMBTiles(path: path, reason: "it is not an SQLite database")  // SQLITE_NOTADB
            default: return .sqlite(error)
            }
        default:
            return .sqlite(SQLiteError(resultCode: 1, message: "\(error)", path: path))
        }
    }
}

/// Bad input: exit status 2.
extension MBTilesError: ExitStatusError {}
