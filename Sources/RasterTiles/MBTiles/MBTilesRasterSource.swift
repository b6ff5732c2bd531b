public import Foundation
public import ImageCodec
public import MapCore
public import TileStore

/// Raster tiles from an MBTiles file: PNG or JPEG images, decoded to RGBA.
///
/// The zoom range and attribution come from the file's metadata (`minzoom`, `maxzoom`,
/// `attribution`); without `minzoom` and `maxzoom`, from the zoom levels its tiles have.
/// For example:
///
/// ```swift
/// let source = try MBTilesRasterSource(url: URL(fileURLWithPath: "Tiles/satellite.mbtiles"))
/// let images = try source.images(for: [TileID(z: 2, x: 1, y: 1)])
/// ```
///
/// The file is opened read-only, so a server or an export may write it meanwhile (WAL).
public struct MBTilesRasterSource: RasterTileSource {
    /// The file's store, opened read-only.
    public let store: MBTilesStore
    /// The file's metadata, as read when the source was opened.
    public let metadata: MBTilesMetadata
    public let tileSizePoints: Int
    public let minZoom: Int
    public let maxZoom: Int
    public let attribution: String?

    /// Opens an MBTiles file of raster tiles.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - tileSizePoints: The tiles' size in points: 256 or 512. MBTiles does not record it; the
    ///     default is 256, the size of nearly every raster tileset (512-pixel images of a
    ///     256-point tileset are `@2x` tiles, still 256 points).
    ///   - zoomRange: The zoom levels to draw tiles from, when not the file's own. The default is nil.
    ///   - attribution: The attribution to show, when not the file's own. The default is nil.
    /// - Throws: ``RasterTileError/store(_:)`` when the file cannot be opened as MBTiles,
    ///   ``RasterTileError/unsupportedFormat(path:format:)`` when its `format` is not PNG or JPEG.
    public init(
        url: URL,
        tileSizePoints: Int = 256,
        zoomRange: ClosedRange<Int>? = nil,
        attribution: String? = nil
    ) throws(RasterTileError) {
        try self.init(
            url: url, tileSizePoints: tileSizePoints,
            minZoom: zoomRange?.lowerBound, maxZoom: zoomRange?.upperBound, attribution: attribution)
    }

    /// Opens an MBTiles file of raster tiles, taking each end of the zoom range that is nil from
    /// the file (as a style's `minzoom` or `maxzoom` alone does); the range is at least `minZoom`.
    init(url: URL, tileSizePoints: Int, minZoom: Int?, maxZoom: Int?, attribution: String?) throws(RasterTileError) {
        do {
            store = try MBTilesStore(url: url, mode: .readOnly)
            metadata = try store.metadata()
            var fileZooms = 0...22
            if minZoom == nil || maxZoom == nil {
                if let minimum = metadata.minZoom, let maximum = metadata.maxZoom, minimum <= maximum {
                    fileZooms = minimum...maximum
                } else if let stored = try store.zoomRange() {
                    fileZooms = stored
                }
            }
            self.minZoom = minZoom ?? fileZooms.lowerBound
            self.maxZoom = max(self.minZoom, maxZoom ?? fileZooms.upperBound)
        } catch {
            throw .store(error)
        }
        // WebP and vector tiles cannot be drawn; an unknown or missing format is sniffed per tile.
        if let format = metadata.format, ![.png, .jpg].contains(format) {
            throw .unsupportedFormat(path: url.path, format: format.rawValue)
        }
        self.tileSizePoints = tileSizePoints
        self.attribution = attribution ?? metadata.attribution
    }

    /// The images of the tiles the file has; tiles outside ``minZoom``...``maxZoom`` are not looked up.
    ///
    /// - Throws: ``RasterTileError/store(_:)`` when the file cannot be read,
    ///   ``RasterTileError/undecodableTile(tile:source:reason:)`` when a tile is not a PNG or JPEG.
    public func images(for tiles: [TileID]) throws(RasterTileError) -> [TileID: RGBAImage] {
        let wanted = tiles.filter { (minZoom...maxZoom).contains($0.z) }
        let data: [TileID: Data]
        do { data = try store.tiles(at: wanted) } catch { throw .store(error) }
        let path = store.path
        return try RasterImageDecoding.images(from: data) { _ in path }
    }
}
