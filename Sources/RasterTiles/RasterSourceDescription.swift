import Foundation

/// A raster source as a style describes it (MapLibre Style Specification, "Sources: raster"),
/// from which a ``RasterTileSource`` is made.
///
/// The style's own model maps onto this value; for example, satellite tiles for a hybrid map:
///
/// ```swift
/// let description = RasterSourceDescription(
///     tiles: ["https://tiles.example.org/satellite/{z}/{x}/{y}{r}.jpg"],
///     tileSize: 256, maxZoom: 19, attribution: "© Example"
/// )
/// let source = try description.makeSource(scale: 2)
/// ```
public struct RasterSourceDescription: Hashable, Sendable {
    /// `tiles`: URL templates (see ``TileURLTemplate``). Used when ``url`` is nil.
    public var tiles: [String]
    /// `url`: `mbtiles://PATH` for an MBTiles file, the path absolute or relative to the style's folder.
    /// (TileJSON URLs are not read yet.)
    public var url: String?
    /// `scheme`: how `{y}` counts rows. The default is ``TileScheme/xyz``.
    public var scheme: TileScheme
    /// `tileSize`: the tiles' size in points. The default is 512, the specification's.
    public var tileSize: Int
    /// `minzoom`; nil for the source's own (0 for URL templates, the file's for MBTiles).
    public var minZoom: Int?
    /// `maxzoom`; nil for the source's own (22 for URL templates, the file's for MBTiles).
    public var maxZoom: Int?
    /// `attribution`; nil for the source's own (none for URL templates, the file's for MBTiles).
    public var attribution: String?

    /// Creates a description; see each property for its default.
    public init(
        tiles: [String] = [],
        url: String? = nil,
        scheme: TileScheme = .xyz,
        tileSize: Int = 512,
        minZoom: Int? = nil,
        maxZoom: Int? = nil,
        attribution: String? = nil
    ) {
        self.tiles = tiles
        self.url = url
        self.scheme = scheme
        self.tileSize = tileSize
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.attribution = attribution
    }

    /// Makes the source: an ``MBTilesRasterSource`` for an `mbtiles://` URL, an
    /// ``HTTPRasterSource`` for URL templates.
    ///
    /// - Parameters:
    ///   - scale: The render scale, for `{r}`. The default is 1.
    ///   - configuration: Requests and cache of an HTTP source. The default is the
    ///     ``HTTPRasterSource/Configuration``'s.
    ///   - base: The folder relative `mbtiles://` paths start from: the style's. The default is
    ///     nil, the working directory.
    /// - Throws: ``RasterTileError/invalidDescription(reason:)`` when there are neither templates
    ///   nor an `mbtiles://` URL, and the errors of the sources' initializers.
    public func makeSource(
        scale: Double = 1,
        configuration: HTTPRasterSource.Configuration = HTTPRasterSource.Configuration(),
        relativeTo base: URL? = nil
    ) throws(RasterTileError) -> any RasterTileSource {
        if let url {
            guard url.hasPrefix("mbtiles://") else {
                throw .invalidDescription(reason: "'\(url)' is not an mbtiles:// URL; TileJSON URLs are not supported, give `tiles` instead")
            }
            let path = String(url.dropFirst("mbtiles://".count))
            let folder = base.map { URL(fileURLWithPath: $0.path, isDirectory: true) }
            let file = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: path, relativeTo: folder).absoluteURL
            // An end the description leaves out comes from the file.
            return try MBTilesRasterSource(
                url: file, tileSizePoints: tileSize, minZoom: minZoom, maxZoom: maxZoom, attribution: attribution)
        }
        guard !tiles.isEmpty else {
            throw .invalidDescription(reason: "the source has neither `tiles` nor an mbtiles:// `url`")
        }
        return try HTTPRasterSource(
            templates: tiles, scheme: scheme, tileSizePoints: tileSize,
            minZoom: minZoom ?? 0, maxZoom: maxZoom ?? 22, attribution: attribution,
            scale: scale, configuration: configuration)
    }
}
