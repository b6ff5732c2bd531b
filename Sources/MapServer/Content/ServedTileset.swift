public import Foundation
import MBTiles
import MapCore
public import MapUtilities
import Synchronization
public import TileSources
public import Tilesets

/// An MBTiles or PMTiles file served as it is under `/tilesets/NAME/…` and `/data/NAME/…`; or,
/// for `/data` alone, several read as one (``files``: the street basemaps a style reads together,
/// a tile from the first that covers its place and zoom and has it).
///
/// The file is opened at start-up and again whenever another file is renamed over it (an export
/// finishing, see ``TilesetWatcher``): ``current`` is the file as last opened, and a request
/// takes it once and reads every tile it needs from it, so a request in flight while the file is
/// replaced finishes on the old file, without errors. The old file is closed when the last such
/// request lets it go.
public final class ServedTileset: Sendable {
    /// The name in URLs: the file's name without its extension.
    public let name: String
    /// The file's path; the first file's when several are read as one.
    public let url: URL
    /// The files read, first first: ``url`` alone, or several read as one.
    public let files: [URL]
    private let state: Mutex<OpenTileset>

    /// Opens a tileset file.
    ///
    /// - Parameter name: The name in URLs. The default is the file's name without its extension.
    /// - Throws: ``TilesetsError`` naming the file.
    public convenience init(url: URL, name: String? = nil) throws(TilesetsError) {
        try self.init(files: [url], name: name ?? url.deletingPathExtension().lastPathComponent)
    }

    /// Opens tileset files read as one (`Tilesets`' `LayeredTileSource`): a tile comes from the
    /// first file whose zooms and bounds hold it and that has it; the metadata is theirs
    /// combined (zooms and bounds spanning all, the first's `vector_layers`).
    ///
    /// - Parameters:
    ///   - files: One file or more.
    ///   - name: The name in URLs.
    /// - Throws: ``TilesetsError`` naming the file that cannot be opened.
    public init(files: [URL], name: String) throws(TilesetsError) {
        guard let first = files.first else { throw .invalidSource(reason: "a served tileset needs at least one file") }
        self.name = name
        url = first
        self.files = files
        state = Mutex(try OpenTileset(name: name, files: files, generation: 0))
    }

    /// The file as last opened: its reader, its metadata and its generation.
    public var current: OpenTileset { state.withLock { $0 } }

    /// Opens the files at ``files`` again (another file was renamed over one) and makes it
    /// ``current``, one generation on; the file opened before stays open for the requests that
    /// hold it. When the new file cannot be opened (it is missing, or not yet whole), nothing
    /// changes.
    ///
    /// - Returns: The generation replaced.
    /// - Throws: ``TilesetsError`` naming the file.
    @discardableResult
    func reopen() throws(TilesetsError) -> Int {
        var opened = try OpenTileset(name: name, files: files, generation: 0)
        return state.withLock { current in
            defer { current = opened }
            opened.generation = current.generation + 1
            return current.generation
        }
    }

    /// Makes the file as opened one generation past `generation`: a tileset opened again by a
    /// reload of everything served (``MapTileServer/reload(with:)``) goes on from the one it
    /// replaces.
    func continueGenerations(after generation: Int) {
        state.withLock { $0.generation = max($0.generation, generation + 1) }
    }

    /// Moves the file as opened on by one generation, without opening it again (its `-wal` file
    /// changed: its open reader sees the new tiles), so tiles kept in memory under the earlier
    /// generation are no longer answered; `seen` is what the files are now.
    ///
    /// - Returns: The generation replaced.
    @discardableResult
    func advanceGeneration(seen: [FileIdentity?]) -> Int {
        state.withLock { opened in
            defer {
                opened.generation += 1
                opened.fileStates = seen
            }
            return opened.generation
        }
    }
}

/// A served tileset file as it was opened once: the reader, the metadata read then and a
/// generation that counts the changes to the file the server noticed (memory keeps its tiles by
/// generation, so a tile read from an earlier state of the file is never answered for a later one).
public struct OpenTileset: Sendable {
    /// The name in URLs.
    public let name: String
    /// The open file: an `MBTilesStore` or a `PMTilesReader`.
    public let source: any TileSource
    /// Its metadata, read when it was opened.
    public let metadata: TileMetadata
    /// 0 for the file opened at start-up, one more for each change noticed since.
    public internal(set) var generation: Int
    /// What the files were when they were opened (or last seen changed, see
    /// ``ServedTileset/advanceGeneration(seen:)``): each file's identity, then its `-wal` file's
    /// (``fileStates(of:)``), taken just before opening, so that a file replaced at any moment
    /// after (even at once after start-up) differs from it (``TilesetWatcher``).
    public internal(set) var fileStates: [FileIdentity?]

    init(name: String, files: [URL], generation: Int) throws(TilesetsError) {
        self.name = name
        fileStates = Self.fileStates(of: files)
        let source =
            files.count == 1
            ? try TileSourceLocation.file(files[0]).open()
            : try TileSourceLocation.layered(files.map { .file($0) }).open()
        self.source = source
        metadata = try TilesetsError.wrapping { try source.metadata() }
        self.generation = generation
    }

    /// Each file's identity, then its `-wal` file's: an MBTiles file written by SQLite in WAL
    /// mode changes its `-wal` file first. An empty `-wal` file counts as none: a reader of a
    /// file in WAL mode makes one on its first read.
    static func fileStates(of files: [URL]) -> [FileIdentity?] {
        files.flatMap { file -> [FileIdentity?] in
            let wal = FileIdentity(path: file.path + "-wal")
            return [FileIdentity(path: file.path), wal?.sizeBytes == 0 ? nil : wal]
        }
    }

    /// The file extension of its tiles: png, jpg, webp or pbf.
    public var fileExtension: String {
        switch metadata.format {
        case .jpg: "jpg"
        case .webp: "webp"
        case .pbf: "pbf"
        default: "png"
        }
    }

    /// Where its tiles are kept in memory.
    var memorySource: MemoryTileSource { .tileset(name, generation: generation) }

    /// Whether a tile lies within the tileset's zooms and bounds.
    func covers(_ tile: TileID) -> Bool {
        if let minZoom = metadata.minZoom, tile.z < minZoom { return false }
        if let maxZoom = metadata.maxZoom, tile.z > maxZoom { return false }
        if let bounds = metadata.bounds {
            // The tile's edges as they are, not normalised: a tile ending at 180° must not end at -180°.
            let side = 360 / Double(1 << tile.z)
            let west = Double(tile.x) * side - 180
            let east = west + side
            let region = tile.region
            let crossesAntimeridian = bounds.east < bounds.west
            let overlapsLongitudes =
                crossesAntimeridian
                ? east >= bounds.west || west <= bounds.east
                : east >= bounds.west && west <= bounds.east
            if !overlapsLongitudes || region.north < bounds.south || region.south > bounds.north { return false }
        }
        return true
    }
}
