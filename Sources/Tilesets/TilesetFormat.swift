public import Foundation
import MapUtilities

/// The file formats a tileset is read from and written to.
public enum TilesetFormat: String, Hashable, Sendable, CaseIterable {
    /// MBTiles 1.3: an SQLite database (the `MBTiles` module's `MBTilesStore`).
    case mbtiles
    /// PMTiles v3: one file read with range requests (the `PMTiles` module).
    case pmtiles

    /// The format a path's extension names, in any case: `.mbtiles` or `.pmtiles`.
    ///
    /// - Throws: ``TilesetsError/unknownFormat(path:)`` for any other extension.
    public init(path: String) throws(TilesetsError) {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "mbtiles": self = .mbtiles
        case "pmtiles": self = .pmtiles
        default: throw .unknownFormat(path: path)
        }
    }

    /// The format of an existing file, by its first bytes: SQLite's `SQLite format 3` or `PMTiles`.
    ///
    /// - Throws: ``TilesetsError/fileSystem(path:reason:)`` when the file cannot be read,
    ///   ``TilesetsError/notATileset(path:reason:)`` when it starts as neither.
    public init(sniffing url: URL) throws(TilesetsError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw .fileSystem(path: url.displayPath, reason: "there is no such file")
        }
        guard !isFolder.boolValue else {
            throw .fileSystem(path: url.displayPath, reason: "it is a folder, not a tileset file")
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw .fileSystem(path: url.displayPath, reason: "it cannot be read (permission denied?)")
        }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 16)) ?? Data()
        if start.starts(with: Array("SQLite format 3".utf8)) {
            self = .mbtiles
        } else if start.starts(with: Array("PMTiles".utf8)) {
            self = .pmtiles
        } else if start.isEmpty {
            throw .notATileset(path: url.displayPath, reason: "the file is empty")
        } else {
            throw .notATileset(path: url.displayPath, reason: "it is neither an SQLite database nor a PMTiles archive")
        }
    }
}
