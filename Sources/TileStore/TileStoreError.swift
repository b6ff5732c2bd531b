import Foundation
import MapSQLite

/// Why a tile store could not be opened, read or written.
///
/// Every case names the file, so the message can be shown to a person as is:
///
/// ```swift
/// do { _ = try MBTilesStore(url: URL(fileURLWithPath: "Tiles/basemap/world_map.gpkg")) }
/// catch { print(error) }
/// // Tiles/basemap/world_map.gpkg: not an MBTiles file: it has no `tiles` table
/// ```
public enum TileStoreError: Error, Hashable, Sendable {
    /// The file to open for reading does not exist.
    case missingFile(path: String)
    /// The file is not an MBTiles file: not an SQLite database, or without a `metadata` or `tiles` table.
    case notMBTiles(path: String, reason: String)
    /// A table the MBTiles 1.3 specification requires lacks a column.
    case invalidSchema(path: String, table: String, reason: String)
    /// A metadata value that cannot be read as its key requires (a `bounds` without four numbers…).
    case invalidMetadata(path: String, name: String, value: String, reason: String)
    /// A write to a store opened read-only, or whose `tiles` is a view.
    case readOnly(path: String, reason: String)
    /// The folder meant to hold a new store cannot be created.
    case unwritableDirectory(path: String, reason: String)
    /// SQLite failed; the error names the file and the statement.
    case sqlite(SQLiteError)
}

extension TileStoreError: CustomStringConvertible, LocalizedError {
    /// A one-line message for a person, naming the file.
    public var description: String {
        switch self {
        case .missingFile(let path):
            "\(path): no such MBTiles file"
        case .notMBTiles(let path, let reason):
            "\(path): not an MBTiles file: \(reason)"
        case .invalidSchema(let path, let table, let reason):
            "\(path): the `\(table)` table does not follow MBTiles 1.3: \(reason)"
        case .invalidMetadata(let path, let name, let value, let reason):
            "\(path): metadata `\(name)` = '\(value)': \(reason)"
        case .readOnly(let path, let reason):
            "\(path): cannot write tiles: \(reason)"
        case .unwritableDirectory(let path, let reason):
            "\(path): cannot create the folder for the tile store: \(reason)"
        case .sqlite(let error):
            error.description
        }
    }

    public var errorDescription: String? { description }
}
