public import ImageCodec
public import MapCore

/// A source of raster tiles, base map or overlay: satellite imagery, hill shading, a scanned map.
///
/// The renderer asks for the tiles a view needs (see ``RasterTileCover``) in one blocking batch,
/// then draws each image into its tile's map rect. For example:
///
/// ```swift
/// let source = try MBTilesRasterSource(url: URL(fileURLWithPath: "Tiles/satellite.mbtiles"))
/// let visible = viewport.visibleRegion.mapRect
/// let placements = try source.placements(covering: visible, zoomLevel: viewport.zoomLevel)
/// let images = try source.images(for: placements.map(\.tile))
/// for placement in placements {
///     if let image = images[placement.tile] { canvas.draw(image, in: placement.mapRect) }
/// }
/// ```
public protocol RasterTileSource: Sendable {
    /// The width and height a tile covers on screen at its own zoom level, in points: 256 or 512.
    ///
    /// It says which tile zoom a view needs (see ``RasterTileCover/tileZoom(forZoomLevel:tileSizePoints:)``),
    /// not how many pixels the images have: a 256-point tile may come as a 512-pixel `@2x` image.
    var tileSizePoints: Int { get }
    /// The lowest zoom level with tiles; views zoomed further out draw none.
    var minZoom: Int { get }
    /// The highest zoom level with tiles; views zoomed further in scale these tiles up.
    var maxZoom: Int { get }
    /// Who made the imagery, to show on the map; may hold HTML. Nil when the source does not say.
    var attribution: String? { get }

    /// The images of several tiles, decoded to RGBA; blocks until all are read or fetched.
    ///
    /// Tiles the source does not have (not in the file, a 404 from the server, a zoom outside
    /// ``minZoom``...``maxZoom``) are simply absent from the result.
    ///
    /// - Throws: ``RasterTileError`` when the source cannot be read or reached, or a tile cannot
    ///   be decoded.
    func images(for tiles: [TileID]) throws(RasterTileError) -> [TileID: RGBAImage]
}

// MARK: - Default implementations

extension RasterTileSource {
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
}
