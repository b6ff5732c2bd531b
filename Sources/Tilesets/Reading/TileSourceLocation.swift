public import Foundation
public import MapCore
public import TileSources

/// Where tiles are: a tileset file or tile URL templates. ``open(scale:http:)`` is the one way
/// to open any ``TileSources/TileSource``, what raster and vector sources, `serve` and the
/// `tiles` tools all call:
///
/// ```swift
/// let world = try TileSourceLocation.file(URL(fileURLWithPath: "world.pmtiles")).open()
/// let city = try TileSourceLocation.file(URL(string: "https://example.org/city.pmtiles")!).open()
/// let imagery = try TileSourceLocation.templates(["https://tiles.example.org/{z}/{x}/{y}.jpg"], maxZoom: 19).open()
/// ```
public enum TileSourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// A tileset file: an MBTiles file (opened read-only) or a PMTiles archive, told apart by
    /// its first bytes, not its name; or, for an `http(s)` URL, a PMTiles archive on a web server,
    /// read with range requests into a cache (see ``HTTPRangeSource``).
    case file(URL)
    /// Tile URL templates serving the same tiles: `http(s)://`, fetched over HTTP into a cache
    /// (see ``HTTPTileSource``), or `file://`, read from a folder of tiles (see
    /// ``FileTemplateTileSource``); with how `{y}` counts rows (default XYZ), the zooms that have
    /// tiles (default 0 to 22) and who made them (default none).
    case templates([String], scheme: TileScheme = .xyz, minZoom: Int = 0, maxZoom: Int = 22, attribution: String? = nil)
    /// Several locations read as one, the first that has a tile giving it (see
    /// ``LayeredTileSource``): the street-level basemaps a user registered.
    indirect case layered([TileSourceLocation])

    /// Opens the tiles for reading; nothing is written to a file.
    ///
    /// - Parameters:
    ///   - scale: The render scale, for a template's `{r}` (`@2x` from 2). The default is 1.
    ///   - configuration: Requests and cache of URL templates and remote archives. The default
    ///     is ``HTTPTileSource/Configuration``'s: the user's cache folder.
    /// - Throws: ``TilesetsError`` naming the file or template: a file missing, a folder, neither
    ///   format or damaged; a template that makes no tile URLs, or a cache that cannot be opened.
    public func open(
        scale: Double = 1, http configuration: HTTPTileSource.Configuration = HTTPTileSource.Configuration()
    ) throws(TilesetsError) -> any TileSource {
        switch self {
        case .file(let url):
            return try TilesetFormat.openFile(url, http: configuration)
        case .templates(let templates, let scheme, let minZoom, let maxZoom, let attribution):
            if templates.contains(where: { $0.lowercased().hasPrefix("file://") }) {
                return try FileTemplateTileSource(
                    templates: templates, scheme: scheme, minZoom: minZoom, maxZoom: maxZoom, attribution: attribution)
            }
            return try HTTPTileSource(
                templates: templates, scheme: scheme, minZoom: minZoom, maxZoom: maxZoom, attribution: attribution,
                scale: scale, configuration: configuration)
        case .layered(let locations):
            return try LayeredTileSource(
                locations.map { location throws(TilesetsError) in try location.open(scale: scale, http: configuration) }
            )
        }
    }

    /// The location as messages name it: the file's path, or the first template.
    public var description: String {
        switch self {
        case .file(let url): url.isFileURL ? url.path : url.absoluteString
        case .templates(let templates, _, _, _, _): templates.first ?? "no templates"
        case .layered(let locations): locations.map(\.description).joined(separator: " + ")
        }
    }
}
