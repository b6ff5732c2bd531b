public import Foundation
public import MapCore
public import TileSources

/// Tiles in files named by `file://` URL templates (`file:///data/tiles/{z}/{x}/{y}.pbf`), as a
/// style's `tiles` may give them for a folder of tiles: each tile read from its own file, a
/// missing file being a tile the source does not have. A ``TileSources/TileSource`` opened through
/// ``TileSourceLocation/templates(_:scheme:minZoom:maxZoom:attribution:)``.
///
/// The folder cannot be listed: ``forEachTile(_:)`` throws.
public struct FileTemplateTileSource: TileSource {
    /// The templates, all `file://`; a tile's file comes from the one `(x + y) mod count` picks.
    public let templates: [TileURLTemplate]
    /// The zoom levels with tiles; tiles outside are not looked for.
    public let minZoom: Int, maxZoom: Int
    /// Who made the tiles; nil when the source does not say.
    public let attribution: String?

    /// - Throws: ``TilesetsError/invalidTemplate(_:reason:)``, ``TilesetsError/invalidSource(reason:)``
    ///   for no templates, a template that is not `file://`, or an empty zoom range.
    public init(
        templates: [String], scheme: TileScheme = .xyz, minZoom: Int = 0, maxZoom: Int = 22, attribution: String? = nil
    ) throws(TilesetsError) {
        if let other = templates.first(where: { !$0.lowercased().hasPrefix("file://") }) {
            throw .invalidTemplate(other, reason: "a folder of tiles is named by file:// templates")
        }
        self.templates = try TileURLTemplate.parse(templates, scheme: scheme, minZoom: minZoom, maxZoom: maxZoom)
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.attribution = attribution
    }

    /// The file a tile is read from.
    public func path(for tile: TileID) -> String {
        let url = templates[(tile.x + tile.y) % templates.count].url(for: tile)
        let path = String(url.dropFirst("file://".count))
        return path.removingPercentEncoding ?? path
    }

    public var sourceDescription: String { templates[0].template }

    public var fileURL: URL? { nil }

    public func location(of id: TileID) -> String { path(for: id) }

    /// The tile's file's bytes; nil outside the zooms or when there is no such file.
    ///
    /// - Throws: ``TilesetsError/fileSystem(path:reason:)`` when the file is there but cannot be read.
    public func tile(at id: TileID) throws(TilesetsError) -> Data? {
        guard (minZoom...maxZoom).contains(id.z) else { return nil }
        let path = path(for: id)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .fileSystem(path: path, reason: "the tile's file cannot be read")
        }
        return data
    }

    /// The zooms and attribution it was given; the format is told per tile by its bytes.
    public func metadata() throws(TilesetsError) -> TileMetadata {
        TileMetadata(name: sourceDescription, minZoom: minZoom, maxZoom: maxZoom, attribution: attribution)
    }

    /// Throws ``TilesetsError/invalidSource(reason:)``: a folder named by templates is not listed.
    public func forEachTile(_ body: (TileID, Data) throws -> Void) throws {
        throw TilesetsError.invalidSource(
            reason: "the tiles of \(sourceDescription) cannot be listed; only asked for by address")
    }
}
