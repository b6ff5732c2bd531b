import Foundation
public import MapStyle
import TileSources
public import Tilesets

extension RasterSource {
    /// Makes the raster tile source a style's raster source describes: a ``RasterTileSource``
    /// over its tileset file (MBTiles or PMTiles, told apart by the file's first bytes) or over
    /// an ``HTTPTileSource`` of its URL templates.
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
    /// A zoom end or attribution the source leaves out comes from the tiles: a tileset file's
    /// metadata, or 0, 22 and none for URL templates.
    ///
    /// - Parameters:
    ///   - scale: The render scale, for `{r}`. The default is 1.
    ///   - configuration: Requests and cache of an HTTP source. The default is the
    ///     ``HTTPTileSource/Configuration``'s.
    /// Several files (the registered DEMs) are read as one, the first that has a tile giving it.
    ///
    /// - Throws: ``MapDataError/invalidRasterSource(reason:)`` for an unconfigured source (no
    ///   `tiles`, no `url`; `basemap://terrain` unresolved or without a DEM), and the errors of the sources' initializers.
    public func makeTileSource(
        scale: Double = 1,
        configuration: HTTPTileSource.Configuration = HTTPTileSource.Configuration()
    ) throws(MapDataError) -> RasterTileSource {
        let location: TileSourceLocation
        switch self.tiles {
        case .file(let file)?:
            location = .file(file)
        case .templates(let templates)?:
            location = .templates(
                templates, scheme: scheme, minZoom: minZoom ?? 0, maxZoom: maxZoom ?? 22, attribution: attribution)
        case .files(let files)? where !files.isEmpty:
            location = files.count == 1 ? .file(files[0]) : .layered(files.map { .file($0) })
        case .files?, .terrainBasemaps?:
            throw .invalidRasterSource(
                reason: "no elevation tileset is registered (mapwright terrain add or terrain build)")
        case nil:
            throw .invalidRasterSource(reason: "the source has neither `tiles` nor an mbtiles:// or pmtiles:// `url`")
        }
        let tiles: any TileSource
        do throws(TilesetsError) { tiles = try location.open(scale: scale, http: configuration) } catch {
            throw .tileset(error)
        }
        return try RasterTileSource(
            tiles: tiles, tileSizePoints: tileSize, minZoom: minZoom, maxZoom: maxZoom, attribution: attribution)
    }
}
