import Foundation
package import ImageCodec
import MapCore
package import MapStyle
import MapUtilities
import Tilesets

extension MapData {
    /// The tile source behind a style's raster source: its MBTiles or PMTiles file, or its URL
    /// templates fetched over HTTP with the tiles cached in an MBTiles file under ``tileCacheDirectory``.
    /// Made once per source and scale, and shared by every render.
    ///
    /// - Throws: ``MapDataError/raster(source:reason:)`` for an unconfigured source, or one that
    ///   cannot be opened.
    package func rasterSource(id: String, _ source: RasterSource, scale: Double) throws(MapDataError)
        -> RasterTileSource
    {
        let key = "raster:\(id)|\(source)|\(scale >= 2 ? "@2x" : "@1x")"
        return try cachedRaster(key) { () throws(MapDataError) in
            guard source.isConfigured else { throw .raster(source: id, reason: "no tiles are configured") }
            do throws(MapDataError) {
                return try source.makeTileSource(
                    scale: scale, configuration: HTTPTileSource.Configuration(cacheDirectory: tileCacheDirectory))
            } catch {
                throw .raster(source: id, reason: error.description)
            }
        }
    }
}

extension MapData {
    /// The picture of an image source, decoded to RGBA: a PNG or JPEG file, told apart by its
    /// first bytes. Decoded once per file and kept while the map data is.
    ///
    /// - Throws: ``MapDataError/raster(source:reason:)`` when the file cannot be read or decoded.
    package func image(of source: ImageSource, id: String) throws(MapDataError) -> RGBAImage {
        try cachedImage("image:\(source.url.path)") { () throws(MapDataError) in try decodedImage(of: source, id: id) }
    }

    private func decodedImage(of source: ImageSource, id: String) throws(MapDataError) -> RGBAImage {
        let bytes: Data
        do { bytes = try Data(readingFile: source.url, maximumBytes: 256 << 20) } catch {
            throw .raster(source: id, reason: error.description)
        }
        do {
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try RGBAImage(pngData: bytes) }
            return try RGBAImage(jpegData: bytes)
        } catch {
            throw .raster(source: id, reason: "\(source.url.displayPath) is neither a PNG nor a JPEG image: \(error)")
        }
    }
}
