import Foundation
import MapCore
import MapStyle
import RasterTiles
import Tilesets

extension MapData {
    /// The tile source behind a style's raster source: its MBTiles or PMTiles file, or its URL
    /// templates fetched over HTTP with the tiles cached in an MBTiles file under ``tileCacheDirectory``.
    /// Made once per source and scale, and shared by every render.
    ///
    /// - Throws: ``RendererError/style(_:)`` for an unconfigured source, ``RendererError/raster(source:reason:)``
    ///   for one that cannot be opened.
    func rasterSource(id: String, _ source: RasterSource, scale: Double) throws(RendererError) -> RasterTileSource {
        let key = "raster:\(id)|\(source)|\(scale >= 2 ? "@2x" : "@1x")"
        return try cachedRaster(key) { () throws(RendererError) in
            guard source.isConfigured else { throw .raster(source: id, reason: "no tiles are configured") }
            do throws(RasterTileError) {
                return try source.makeTileSource(
                    scale: scale, configuration: HTTPTileSource.Configuration(cacheDirectory: tileCacheDirectory))
            } catch {
                throw .raster(source: id, reason: error.description)
            }
        }
    }
}
