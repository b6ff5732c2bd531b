import Foundation
public import MapStyle

extension RasterSource {
    /// Makes the tile source a style's raster source describes: an ``MBTilesRasterSource`` for
    /// an MBTiles file, an ``HTTPRasterSource`` for URL templates.
    ///
    /// For example, satellite tiles for a hybrid map:
    ///
    /// ```swift
    /// let source = RasterSource(
    ///     tiles: .templates(["https://tiles.example.org/satellite/{z}/{x}/{y}{r}.jpg"]),
    ///     tileSize: 256, maxZoom: 19, attribution: "© Example")
    /// let tiles = try source.makeTileSource(scale: 2)
    /// ```
    ///
    /// A zoom end or attribution the source leaves out comes from the tiles: an MBTiles file's
    /// metadata, or 0, 22 and none for URL templates.
    ///
    /// - Parameters:
    ///   - scale: The render scale, for `{r}`. The default is 1.
    ///   - configuration: Requests and cache of an HTTP source. The default is the
    ///     ``HTTPRasterSource/Configuration``'s.
    /// - Throws: ``RasterTileError/invalidDescription(reason:)`` for an unconfigured source (no
    ///   `tiles`, no `url`), and the errors of the sources' initializers.
    public func makeTileSource(
        scale: Double = 1,
        configuration: HTTPRasterSource.Configuration = HTTPRasterSource.Configuration()
    ) throws(RasterTileError) -> any RasterTileSource {
        switch tiles {
        case .mbtiles(let file)?:
            return try MBTilesRasterSource(
                url: file, tileSizePoints: tileSize, minZoom: minZoom, maxZoom: maxZoom, attribution: attribution)
        case .templates(let templates)?:
            return try HTTPRasterSource(
                templates: templates, scheme: scheme, tileSizePoints: tileSize,
                minZoom: minZoom ?? 0, maxZoom: maxZoom ?? 22, attribution: attribution,
                scale: scale, configuration: configuration)
        case nil:
            throw .invalidDescription(reason: "the source has neither `tiles` nor an mbtiles:// `url`")
        }
    }
}
