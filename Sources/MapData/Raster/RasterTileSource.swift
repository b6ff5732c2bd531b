public import Foundation
public import ImageCodec
public import MapCore
import MapUtilities
public import TileSources
import Tilesets

/// Raster tiles for base maps and overlays (satellite imagery, hill shading, a scanned map) from
/// any ``TileSources/TileSource``: an MBTiles or PMTiles file, or tile URL templates fetched over
/// HTTP (``HTTPTileSource``). Tiles are decoded to RGBA here, and only here: PNG or JPEG, told
/// apart by their first bytes.
///
/// The renderer asks for the tiles a view needs (see ``RasterTileCover``) in one blocking batch,
/// then draws each image into its tile's map rect. For example:
///
/// ```swift
/// let source = try RasterTileSource(url: URL(fileURLWithPath: "Tiles/satellite.pmtiles"))
/// let visible = viewport.visibleRegion.mapRect
/// let placements = try source.placements(covering: visible, zoomLevel: viewport.zoomLevel)
/// let images = try source.images(for: placements.map(\.tile))
/// for placement in placements {
///     if let image = images[placement.tile] { canvas.draw(image, in: placement.mapRect) }
/// }
/// ```
///
/// The zoom range and attribution come from the tiles' metadata (`minzoom`, `maxzoom`,
/// `attribution`) unless given; without `minzoom` and `maxzoom`, from the zoom levels an MBTiles
/// file's tiles have, else 0 to 22. A file is opened read-only, so a server or an export may
/// write it meanwhile.
public struct RasterTileSource: Sendable {
    /// The encoded tiles.
    public let tiles: any TileSource
    /// The width and height a tile covers on screen at its own zoom level, in points: 256 or 512.
    ///
    /// It says which tile zoom a view needs (see ``RasterTileCover/tileZoom(forZoomLevel:tileSizePoints:)``),
    /// not how many pixels the images have: a 256-point tile may come as a 512-pixel `@2x` image.
    public let tileSizePoints: Int
    /// The lowest zoom level with tiles; views zoomed further out draw none.
    public let minZoom: Int
    /// The highest zoom level with tiles; views zoomed further in scale these tiles up.
    public let maxZoom: Int
    /// Who made the imagery, to show on the map; may hold HTML. Nil when the source does not say.
    public let attribution: String?

    /// Opens a tileset file of raster tiles, MBTiles or PMTiles (told apart by its first bytes).
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - tileSizePoints: The tiles' size in points: 256 or 512. Neither format records it; the
    ///     default is 256, the size of nearly every raster tileset (512-pixel images of a
    ///     256-point tileset are `@2x` tiles, still 256 points).
    ///   - zoomRange: The zoom levels to draw tiles from, when not the file's own. The default is nil.
    ///   - attribution: The attribution to show, when not the file's own. The default is nil.
    /// - Throws: ``MapDataError/tileset(_:)`` when the file cannot be opened as a tileset,
    ///   ``MapDataError/unsupportedRasterFormat(path:format:)`` when its `format` is not PNG or JPEG.
    public init(
        url: URL,
        tileSizePoints: Int = 256,
        zoomRange: ClosedRange<Int>? = nil,
        attribution: String? = nil
    ) throws(MapDataError) {
        let tiles: any TileSource
        do throws(TilesetsError) { tiles = try TileSourceLocation.file(url).open() } catch { throw .tileset(error) }
        try self.init(
            tiles: tiles, tileSizePoints: tileSizePoints,
            minZoom: zoomRange?.lowerBound, maxZoom: zoomRange?.upperBound, attribution: attribution)
    }

    /// Draws the raster tiles of any tile source.
    ///
    /// - Parameters:
    ///   - tiles: The tiles.
    ///   - tileSizePoints: The tiles' size in points: 256 or 512. The default is 256.
    ///   - zoomRange: The zoom levels to draw tiles from, when not the source's own. The default is nil.
    ///   - attribution: The attribution to show, when not the source's own. The default is nil.
    /// - Throws: The source's error when its metadata cannot be read (see ``MapDataError``),
    ///   ``MapDataError/unsupportedRasterFormat(path:format:)`` when its `format` is not PNG or JPEG.
    public init(
        tiles: any TileSource,
        tileSizePoints: Int = 256,
        zoomRange: ClosedRange<Int>? = nil,
        attribution: String? = nil
    ) throws(MapDataError) {
        try self.init(
            tiles: tiles, tileSizePoints: tileSizePoints,
            minZoom: zoomRange?.lowerBound, maxZoom: zoomRange?.upperBound, attribution: attribution)
    }

    /// Takes each end of the zoom range that is nil from the source (as a style's `minzoom` or
    /// `maxzoom` alone does); the range is at least `minZoom`.
    init(tiles: any TileSource, tileSizePoints: Int, minZoom: Int?, maxZoom: Int?, attribution: String?)
        throws(MapDataError)
    {
        let metadata = try Self.reading { try tiles.metadata() }
        var sourceZooms = 0...22
        if minZoom == nil || maxZoom == nil {
            if let minimum = metadata.minZoom, let maximum = metadata.maxZoom, minimum <= maximum {
                sourceZooms = minimum...maximum
            } else if let stored = try Self.reading({ try tiles.zoomRange() }) {
                sourceZooms = stored
            }
        }
        // WebP and vector tiles cannot be drawn; an unknown or missing format is sniffed per tile.
        if let format = metadata.format, ![.png, .jpg].contains(format) {
            throw .unsupportedRasterFormat(
                path: tiles.fileURL?.path ?? tiles.sourceDescription, format: format.rawValue)
        }
        self.tiles = tiles
        self.tileSizePoints = tileSizePoints
        self.minZoom = minZoom ?? sourceZooms.lowerBound
        self.maxZoom = max(self.minZoom, maxZoom ?? sourceZooms.upperBound)
        self.attribution = attribution ?? metadata.attribution
    }

    /// The images of several tiles, decoded to RGBA; blocks until all are read or fetched.
    ///
    /// Tiles the source does not have (not in the file, a 404 from the server, a zoom outside
    /// ``minZoom``...``maxZoom``) are simply absent from the result.
    ///
    /// - Throws: ``MapDataError`` when the source cannot be read or reached, or a tile cannot
    ///   be decoded (naming the tile and its file or URL).
    public func images(for tiles: [TileID]) throws(MapDataError) -> [TileID: RGBAImage] {
        let wanted = Set(tiles.filter { (minZoom...maxZoom).contains($0.z) }).sorted()
        let source = self.tiles
        let data = try Self.reading { try source.tiles(at: wanted) }
        return try RasterImageDecoding.images(from: data) { tile in source.location(of: tile) }
    }

    /// The tiles a view of `mapRect` at `zoomLevel` draws from this source, and where: see
    /// ``RasterTileCover/placements(covering:zoomLevel:tileSizePoints:minZoom:maxZoom:maximumCount:)``.
    ///
    /// - Throws: ``MapCoreError/tooManyTiles(count:limit:)`` when the cover exceeds `maximumCount`.
    public func placements(
        covering mapRect: MapRect,
        zoomLevel: Double,
        maximumCount: Int = RasterTileCover.defaultMaximumCount
    ) throws(MapCoreError) -> [RasterTilePlacement] {
        try RasterTileCover.placements(
            covering: mapRect, zoomLevel: zoomLevel, tileSizePoints: tileSizePoints,
            minZoom: minZoom, maxZoom: maxZoom, maximumCount: maximumCount)
    }

    /// Runs `body`, which reads the tile source, with its error as a ``MapDataError``: the
    /// source's own error (MBTiles, PMTiles, HTTP) as Tilesets wraps it.
    static func reading<T>(_ body: () throws -> T) throws(MapDataError) -> T {
        do { return try body() } catch let error as MapDataError {
            throw error
        } catch {
            do throws(TilesetsError) { return try TilesetsError.wrapping { throw error } } catch {
                throw .tileset(error)
            }
        }
    }
}
