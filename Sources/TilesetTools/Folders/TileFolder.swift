public import Foundation
import MBTiles
import MapCore
import MapJSON
import MapUtilities
public import TileSources
import Tilesets

/// Tiles as files in a folder, `DIR/z/x/y.EXT` in the XYZ scheme (y counted from the north, as
/// web maps' URLs and mbutil's default have it), with the metadata in `DIR/metadata.json` (an
/// object of MBTiles metadata rows, as mbutil writes it): `mapwright tiles extract` and `import`.
public enum TileFolder {
    /// The file extension of a tile format: png, jpg, webp, pbf.
    public static func fileExtension(of format: TileFormat) -> String { format.rawValue }

    /// Writes every tile of a tileset into a folder, and `metadata.json`: all into a hidden
    /// folder beside it (`.NAME.partial-XXXXXX`), renamed into place when every tile is written,
    /// so a failed extraction (a damaged tileset, a full disk) leaves no partial folder.
    ///
    /// - Parameters:
    ///   - tileset: The tileset to read.
    ///   - folder: The folder to write; created when missing. A folder holding anything is
    ///     refused, as mbutil refuses one that exists, so no earlier files are mixed in or lost.
    /// - Returns: The number of tiles written.
    /// - Throws: ``TilesetToolsError/tileset(_:)`` (`fileSystem`) for a folder that is not empty or
    ///   cannot be written; the tileset's errors.
    @discardableResult
    public static func extract(_ tileset: any TileSource, to folder: URL) throws(TilesetToolsError) -> Int {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw .tileset(.fileSystem(path: folder.displayPath, reason: "it is a file, not a folder"))
            }
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            guard contents.isEmpty else {
                throw .tileset(
                    .fileSystem(
                        path: folder.displayPath,
                        reason:
                            "the folder is not empty (it holds \(contents.count) entries); name a new or empty folder"))
            }
        }
        let metadata = try TilesetToolsError.wrapping { try tileset.metadata() }
        let parent = folder.standardizedFileURL.deletingLastPathComponent()
        let made: Void? = try? FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        guard made != nil,
            let staging = AtomicFile.makeUniqueDirectory(
                in: parent, prefix: "." + folder.lastPathComponent + ".partial-")
        else {
            throw .tileset(.fileSystem(path: folder.displayPath, reason: AtomicFile.reason(writingIn: parent)))
        }
        var finished = false
        defer { if !finished { try? FileManager.default.removeItem(at: staging) } }
        let count = try writeTiles(of: tileset, metadata: metadata, into: staging, named: folder)
        // rename(2) replaces the empty folder the caller may have made.
        guard rename(staging.path, folder.path) == 0 else {
            throw .tileset(
                .fileSystem(path: folder.displayPath, reason: "cannot be made: \(String(cString: strerror(errno)))"))
        }
        finished = true
        return count
    }

    /// Writes the tiles and `metadata.json` of ``extract(_:to:)`` into `staging`; errors name
    /// `folder`, the folder asked for.
    private static func writeTiles(
        of tileset: any TileSource, metadata: TileMetadata, into staging: URL, named folder: URL
    ) throws(TilesetToolsError) -> Int {
        var count = 0
        var createdFolders = Set<String>()
        try TilesetToolsError.wrapping {
            try tileset.forEachTile { tile, data in
                let format = metadata.format ?? TileFormat(sniffing: data) ?? .png
                let column = staging.appendingPathComponent("\(tile.z)/\(tile.x)", isDirectory: true)
                if createdFolders.insert(column.path).inserted {
                    try FileManager.default.createDirectory(at: column, withIntermediateDirectories: true)
                }
                do throws(MapUtilitiesError) {
                    try AtomicFile.write(
                        data, to: column.appendingPathComponent("\(tile.y).\(fileExtension(of: format))"))
                } catch {
                    throw TilesetsError.fileSystem(path: folder.displayPath, reason: error.description)
                }
                count += 1
            }
        }
        var writer = JSONWriter()
        writer.value(.object(metadata.rows.mapValues { .string($0) }))
        do throws(MapUtilitiesError) {
            try AtomicFile.write(Data(writer.bytes), to: staging.appendingPathComponent("metadata.json"))
        } catch {
            throw .tileset(.fileSystem(path: folder.displayPath, reason: error.description))
        }
        return count
    }

    /// What ``importTiles(from:to:name:)`` did.
    public struct ImportReport: Sendable {
        /// Tiles written.
        public var tileCount: Int
        /// Files that are not `z/x/y.EXT` tiles (other names, addresses outside the grid,
        /// empty files), skipped.
        public var skippedFiles: [String]
    }

    /// Reads a folder of `z/x/y.EXT` tiles into a tileset file (`.mbtiles` or `.pmtiles`),
    /// written beside its final name and renamed into place.
    ///
    /// The metadata is `metadata.json` when the folder has one (values as strings, numbers or
    /// arrays of numbers), else: `name` the folder's name, `format` the tiles' extension. Missing
    /// `minzoom`, `maxzoom` and `bounds` are computed from the tiles.
    ///
    /// - Parameters:
    ///   - folder: The folder.
    ///   - output: The file to write.
    ///   - name: The tileset's name, over the metadata's; nil keeps it.
    /// - Throws: ``TilesetToolsError/tileset(_:)`` (`fileSystem`) for a folder that is missing, holds
    ///   no tile or tiles of several formats, or a `metadata.json` that cannot be read.
    public static func importTiles(from folder: URL, to output: URL, name: String? = nil) throws(TilesetToolsError)
        -> ImportReport
    {
        _ = try TilesetFormat(output: output)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .tileset(.fileSystem(path: folder.displayPath, reason: "there is no such folder"))
        }
        // The tiles first, so nothing is written for a folder without any.
        var tiles: [(TileID, URL)] = []
        var skipped: [String] = []
        var formats = Set<TileFormat>()
        let base = folder.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            if relative == "metadata.json" { continue }
            let parts = relative.split(separator: "/")
            let file = parts.last.map { $0.split(separator: ".", maxSplits: 1) } ?? []
            guard parts.count == 3, file.count == 2, let z = Int(parts[0]), let x = Int(parts[1]), let y = Int(file[0]),
                let format = TileFormat(metadataValue: String(file[1])), let tile = try? TileID(z: z, x: x, y: y)
            else {
                skipped.append(relative)
                continue
            }
            formats.insert(format)
            tiles.append((tile, url))
        }
        guard !tiles.isEmpty else {
            throw .tileset(
                .fileSystem(path: folder.displayPath, reason: "the folder holds no z/x/y tiles (such as 3/4/2.png)"))
        }
        guard formats.count == 1, let format = formats.first else {
            throw .tileset(
                .fileSystem(
                    path: folder.displayPath,
                    reason:
                        "the tiles are of several formats (\(formats.map(\.rawValue).sorted().joined(separator: ", "))); a tileset has one"
                ))
        }

        var metadata = try folderMetadata(folder) ?? TileMetadata(name: folder.standardizedFileURL.lastPathComponent)
        if let name { metadata.name = name }
        metadata.format = metadata.format ?? format
        let zooms = tiles.map(\.0.z)
        metadata.minZoom = metadata.minZoom ?? zooms.min()
        metadata.maxZoom = metadata.maxZoom ?? zooms.max()
        if metadata.bounds == nil, let deepest = metadata.maxZoom {
            let rects = tiles.filter { $0.0.z == deepest }.map { BoundingBox($0.0.mapRect) }
            metadata.bounds = rects.dropFirst().reduce(rects[0]) { $0.union($1) }
        }
        let count = try TilesetWriter.withTemporary(for: output) { (writer) throws(TilesetToolsError) in
            for (tile, url) in tiles {
                let data: Data
                do throws(MapUtilitiesError) { data = try Data(readingFile: url) } catch {
                    throw .tileset(.fileSystem(path: url.displayPath, reason: error.description))
                }
                guard !data.isEmpty else {
                    skipped.append(String(url.standardizedFileURL.path.dropFirst(base.count + 1)))
                    continue
                }
                try writer.add(data, at: tile)
            }
            return try writer.finish(metadata: metadata)
        }
        return ImportReport(tileCount: count, skippedFiles: skipped.sorted())
    }

    /// `metadata.json` as MBTiles metadata; nil when the folder has none.
    static func folderMetadata(_ folder: URL) throws(TilesetToolsError) -> TileMetadata? {
        let url = folder.appendingPathComponent("metadata.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let value: JSONValue
        do {
            value = try JSONValue.parse(try Data(readingFile: url, maximumBytes: 16 << 20))
        } catch let error as MapUtilitiesError {
            throw .tileset(.fileSystem(path: url.displayPath, reason: error.reason))
        } catch {
            throw .tileset(.fileSystem(path: url.displayPath, reason: "is not valid JSON: \(error)"))
        }
        guard case .object(let members) = value else {
            throw .tileset(.fileSystem(path: url.displayPath, reason: "is not a JSON object of metadata rows"))
        }
        var rows: [String: String] = [:]
        for (key, member) in members {
            switch member {
            case .string(let text): rows[key] = text
            case .number(let number): rows[key] = JSONValue.text(of: number)
            case .array(let items):
                rows[key] = items.compactMap { if case .number(let n) = $0 { JSONValue.text(of: n) } else { $0.text } }
                    .joined(separator: ",")
            default: continue
            }
        }
        do throws(MBTilesError) { return try TileMetadata(rows: rows, path: url.displayPath) } catch {
            throw .tileset(.mbtiles(error))
        }
    }
}
