import CCairo
public import Foundation
public import ImageCodec
public import MapCore
public import MapData
public import MapStyle
import MapUtilities
import Synchronization

/// Renders a style and its annotations and overlays as XYZ tiles, a metatile at a time: the
/// same drawing code as ``MapSnapshotter`` (a tile is a small render of the same style and
/// annotations), with labels and the callout placed for the whole world so that tiles meet
/// without seams.
///
/// Make one renderer for a tileset and call it from any number of threads at once: prepared
/// geometry is shared through ``MapData``, each zoom's label placement is computed once by the
/// first thread that needs it, and every render has its own canvas (Pango's font maps are per
/// thread, see `FontConfiguration`). For example, an export on all cores with one writer:
///
/// ```swift
/// let renderer = try MapTileRenderer(data: data, style: style, content: content, options: TileRenderOptions(scale: 2))
/// let cover = try MetatileCover(region: region, zoomLevels: 0...8, metatileSize: renderer.options.metatileSize)
/// let metatiles = Array(cover.metatiles)            // or cover.metatiles(inShard: k, of: n)
/// DispatchQueue.concurrentPerform(iterations: metatiles.count) { index in
///     let tiles = try! renderer.encodedTiles(of: metatiles[index], only: cover.tiles(in: metatiles[index]))
///     writer.add(tiles)                            // one writer, fed from every thread
/// }
/// ```
///
/// **Seams.** Within a metatile, tiles are cut from one image. Across metatiles (and across the
/// windows a large metatile is drawn in) nothing drawn depends on where a render's edges are:
/// - labels and the callout are placed once per zoom for the whole world, from whole features
///   (``TilePlacement``); a label is drawn whole by every tile it touches, or by none;
/// - each render finds every marker (pin with its shadow, marker image, cluster disc with its
///   halo) that reaches into it, from a cluster index queried at the zoom with a margin, so a
///   pin whose tip lies in the neighbouring metatile is drawn where it overlaps this one;
/// - dashed lines are dashed from each line's first vertex (`DashPattern`), overlays are drawn
///   whole, fills and strokes are clipped well outside the render.
/// Stitched tiles equal one render of the same area (the tests compare them pixel for pixel).
///
/// **Zoom convention.** Style zooms assume 512-point tiles, as MapLibre's do (and as images
/// have them, see ``MapSnapshotter/styleZoomOffset``): a 256-point tile at zoom z draws the style
/// at z − 1, a 512-point tile at z draws it at z (see
/// ``TileRenderOptions/styleZoomLevel(forTileZoom:)``). Clusters are queried at the viewport's
/// zoom (the points that pins take on screen).
public final class MapTileRenderer: Sendable {

    /// The vector data the style draws from.
    public let data: MapData
    /// The style: basemap layers, pin, cluster and callout appearance.
    public let style: Style
    /// The annotations and overlays.
    public let content: MapTileContent
    /// Tile size, scale, metatile size and layers.
    public let options: TileRenderOptions

    private let snapshotter: MapSnapshotter
    /// The largest side of one render, in pixels; larger metatiles are drawn in several windows.
    let maximumWindowPixels: Int
    /// Each region's placement, made once and kept up to ``TileRenderOptions/keptPlacementBytes``.
    private let placements: OnceCache<PlacementRegion, TilePlacement>
    /// PNGs of uniform tiles by colour, size and encoding.
    private let uniformPNGs = Mutex<[UniformTileKey: Data]>([:])

    private struct UniformTileKey: Hashable {
        /// The tile's one pixel: straight RGBA, or premultiplied ARGB32 from a canvas.
        var pixel: UInt32
        var premultiplied: Bool
        var sizePixels: Int
        var encoding: TilePNGEncoding
        var adaptiveFiltering: Bool
    }

    /// Creates a renderer for a tileset.
    ///
    /// - Parameters:
    ///   - data: The vector data, shared with other renderers and snapshotters.
    ///   - style: The style. Its raster sources must be configured when the basemap is drawn.
    ///   - content: Annotations, clusters and overlays. The default is none.
    ///   - options: Tile size, scale, metatile size, buffer and layers. The default is 256-point
    ///     tiles @1x in metatiles of 8 × 8, everything drawn.
    /// - Throws: ``RendererError/invalidTileOptions(reason:)`` for options out of range or a
    ///   cluster index not built over the annotations; ``RendererError/style(_:)`` for a raster
    ///   source without tiles.
    public convenience init(
        data: MapData, style: Style, content: MapTileContent = MapTileContent(),
        options: TileRenderOptions = TileRenderOptions()
    ) throws(RendererError) {
        try self.init(data: data, style: style, content: content, options: options, maximumWindowPixels: 4_096)
    }

    init(data: MapData, style: Style, content: MapTileContent, options: TileRenderOptions, maximumWindowPixels: Int)
        throws(RendererError)
    {
        if let problem = options.problem { throw .invalidTileOptions(reason: problem) }
        if let problem = content.markers?.problem { throw .invalidTileOptions(reason: problem) }
        if options.layers != .overlays {
            do { try style.requireConfiguredRasterSources() } catch { throw .style(error) }
        }
        self.data = data
        self.style = style
        self.content = content
        self.options = options
        self.maximumWindowPixels = max(options.tileSizePixels, maximumWindowPixels)
        snapshotter = MapSnapshotter(data: data)
        placements = OnceCache(maximumCost: options.keptPlacementBytes) { $0.estimatedBytes }
    }

    /// The metatile of ``options``' size holding a tile.
    public func metatile(containing tile: TileID) -> MetatileID {
        MetatileID(containing: tile, size: options.metatileSize)
    }

    // MARK: - Rendering

    /// Renders a metatile and cuts it into tiles.
    ///
    /// - Parameters:
    ///   - metatile: The metatile; its size need not be ``options``' (a renderer draws any block
    ///     of tiles alike).
    ///   - only: The tiles wanted, e.g. a cover's ``MetatileCover/tiles(in:)``; tiles of other
    ///     metatiles are ignored. The default, nil, is all of the metatile's tiles. Only the rows
    ///     and columns holding wanted tiles are drawn.
    /// - Returns: The tiles in ``TileID`` order (row by row from the north-west).
    /// - Throws: ``RendererError`` for unreadable data or a raster source that fails.
    public func renderMetatile(_ metatile: MetatileID, only: [TileID]? = nil) throws(RendererError) -> [RenderedTile] {
        var tiles: [RenderedTile] = []
        try forEachTile(of: metatile, only: only) { tiles.append($0) }
        return tiles.sorted { $0.tile < $1.tile }
    }

    /// Renders a metatile, cuts it into tiles and encodes them as PNG (see ``pngData(for:encoding:)``).
    ///
    /// - Returns: The tiles in ``TileID`` order.
    /// - Throws: ``RendererError``; ``RendererError/encoding(tile:reason:)`` when a tile cannot be encoded.
    public func encodedTiles(
        of metatile: MetatileID, only: [TileID]? = nil, encoding: TilePNGEncoding = TilePNGEncoding()
    ) throws(RendererError) -> [EncodedTile] {
        var tiles: [EncodedTile] = []
        try forEachTileRegion(of: metatile, only: only) { (tile, canvas, x, y) throws(RendererError) in
            let data: Data
            if encoding.palette {
                data = try pngData(
                    for: RenderedTile(
                        tile: tile,
                        image: canvas.rgbaImage(
                            x: x, y: y, width: options.tileSizePixels, height: options.tileSizePixels)),
                    encoding: encoding)
            } else {
                // Encoded from the canvas, without a straight-alpha copy of the tile first.
                data = try pngData(
                    for: tile, pixels: canvas.premultipliedPixels(x: x, y: y, side: options.tileSizePixels),
                    encoding: encoding)
            }
            tiles.append(EncodedTile(tile: tile, data: data))
        }
        return tiles.sorted { $0.tile < $1.tile }
    }

    /// Renders the tiles of a metatile window by window (at most ``maximumWindowPixels`` a
    /// side), handing each tile to `body` as soon as its window is cut: memory holds one window.
    public func forEachTile(
        of metatile: MetatileID, only: [TileID]? = nil, _ body: (RenderedTile) throws(RendererError) -> Void
    ) throws(RendererError) {
        let side = options.tileSizePixels
        try forEachTileRegion(of: metatile, only: only) { (tile, canvas, x, y) throws(RendererError) in
            try body(RenderedTile(tile: tile, image: canvas.rgbaImage(x: x, y: y, width: side, height: side)))
        }
    }

    /// Renders the tiles of a metatile window by window, as ``forEachTile(of:only:_:)`` does,
    /// handing `body` each tile with its window's canvas and the tile's top-left pixel in it.
    private func forEachTileRegion(
        of metatile: MetatileID, only: [TileID]?, _ body: (TileID, Canvas, Int, Int) throws(RendererError) -> Void
    ) throws(RendererError) {
        let wanted = only.map { Set($0.filter(metatile.contains)) }
        var columns = metatile.tileColumns
        var rows = metatile.tileRows
        if let wanted {
            guard let minX = wanted.map(\.x).min(), let maxX = wanted.map(\.x).max(),
                let minY = wanted.map(\.y).min(), let maxY = wanted.map(\.y).max()
            else { return }
            columns = minX...maxX
            rows = minY...maxY
        }
        let tilesPerWindow = max(1, maximumWindowPixels / options.tileSizePixels)
        for rowStart in stride(from: rows.lowerBound, through: rows.upperBound, by: tilesPerWindow) {
            let windowRows = rowStart...min(rows.upperBound, rowStart + tilesPerWindow - 1)
            for columnStart in stride(from: columns.lowerBound, through: columns.upperBound, by: tilesPerWindow) {
                let windowColumns = columnStart...min(columns.upperBound, columnStart + tilesPerWindow - 1)
                let windowTiles = windowRows.flatMap { row in
                    windowColumns.compactMap { column in try? TileID(z: metatile.z, x: column, y: row) }
                }.filter { wanted?.contains($0) ?? true }
                guard !windowTiles.isEmpty else { continue }
                let canvas = try renderWindow(zoom: metatile.z, columns: windowColumns, rows: windowRows)
                let side = options.tileSizePixels
                let buffer = options.bufferPoints * options.scale
                for tile in windowTiles {
                    let x = buffer + (tile.x - windowColumns.lowerBound) * side
                    let y = buffer + (tile.y - windowRows.lowerBound) * side
                    try body(tile, canvas, x, y)
                }
            }
        }
    }

    /// One render of a block of tiles at a zoom level, as one image: what the tiles of the block
    /// show, stitched (previews, and the tests that check tiles for seams).
    ///
    /// - Parameters:
    ///   - zoom: The tile zoom level.
    ///   - columns: The block's columns, within the world at `zoom`.
    ///   - rows: The block's rows, within the world.
    /// - Returns: An image `columns.count × tileSizePixels` wide and `rows.count × tileSizePixels` high.
    /// - Throws: ``RendererError``, ``RendererError/imageTooLarge(width:height:limit:)`` past
    ///   16,384 pixels a side, ``RendererError/invalidTileOptions(reason:)`` for a block outside the world.
    public func image(zoom: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) throws(RendererError) -> RGBAImage {
        guard (0...TileID.maximumZoom).contains(zoom), columns.lowerBound >= 0, rows.lowerBound >= 0,
            columns.upperBound < 1 << zoom, rows.upperBound < 1 << zoom
        else { throw .invalidTileOptions(reason: "tiles \(columns) x \(rows) are outside the world at zoom \(zoom)") }
        let canvas = try renderWindow(zoom: zoom, columns: columns, rows: rows)
        let buffer = options.bufferPoints * options.scale
        return canvas.rgbaImage(
            x: buffer, y: buffer, width: columns.count * options.tileSizePixels,
            height: rows.count * options.tileSizePixels)
    }

    /// Draws the tiles `columns` × `rows` of a zoom, with ``TileRenderOptions/bufferPoints``
    /// around them, into a new canvas.
    private func renderWindow(zoom: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) throws(RendererError)
        -> Canvas
    {
        let tilePoints = Double(options.tileSizePoints)
        let buffer = Double(options.bufferPoints)
        let scale = Double(options.scale)
        // The window in world points: the world at this zoom is tilePoints × 2^zoom points wide.
        let origin = ViewPoint(
            x: Double(columns.lowerBound) * tilePoints - buffer, y: Double(rows.lowerBound) * tilePoints - buffer)
        let size = ViewSize(
            width: Double(columns.count) * tilePoints + 2 * buffer, height: Double(rows.count) * tilePoints + 2 * buffer
        )
        let limit = MapSnapshotter.maximumPixelsPerSide
        guard size.width * scale <= Double(limit), size.height * scale <= Double(limit) else {
            throw .imageTooLarge(width: Int(size.width * scale), height: Int(size.height * scale), limit: limit)
        }
        let viewportZoom = options.viewportZoomLevel(forTileZoom: zoom)
        let pointsPerMapPoint = ZoomLevel.zoomScale(atZoomLevel: viewportZoom)
        // Exactly the window's centre (a power-of-two scale of whole points): every window puts a
        // map point at its world point less the window's origin, to the last bit.
        let center = MapPoint(
            x: (origin.x + size.width / 2) / pointsPerMapPoint, y: (origin.y + size.height / 2) / pointsPerMapPoint)
        let viewport: Viewport
        do {
            viewport = try Viewport(centerMapPoint: center, zoomLevel: viewportZoom, size: size, scale: scale)
        } catch {
            throw .invalidTileOptions(reason: error.description)
        }
        let snapshotOptions = MapSnapshotOptions(
            viewport: viewport, style: style, markers: content.markers, overlays: content.overlays,
            showsAttribution: false)
        let pass = RenderPass(
            drawsBasemap: options.layers != .overlays,
            drawsOverlays: options.layers != .basemap,
            placement: try placement(forTileZoom: zoom, meeting: ViewRect(origin: origin, size: size)),
            worldOrigin: origin,
            clipMarginPixels: RenderPass.tileClipMarginPixels)
        let canvas = try Canvas(
            widthPoints: size.width, heightPoints: size.height, scale: scale, target: .image, fonts: data.fonts)
        try snapshotter.draw(snapshotOptions, pass: pass, in: canvas.cairo, pixelScale: scale)
        return canvas
    }

    // MARK: - Encoding

    /// A tile as PNG bytes, the same bytes for the same pixels and encoding: rows unfiltered for
    /// flat-colour vector tiles (faster and smaller), PNG's adaptive filters when the style draws
    /// raster imagery at the tile's zoom. A uniform tile (open sea, an empty overlay tile) is
    /// encoded once per colour and the bytes reused. Safe to call from any thread.
    ///
    /// - Throws: ``RendererError/encoding(tile:reason:)``.
    public func pngData(for tile: RenderedTile, encoding: TilePNGEncoding = TilePNGEncoding()) throws(RendererError)
        -> Data
    {
        let adaptive = adaptiveFiltering(tile.tile)
        let first = tile.isUniform ? tile.image.pixels.withUnsafeBytes({ $0.bindMemory(to: UInt32.self).first }) : nil
        let key = first.map {
            UniformTileKey(
                pixel: $0, premultiplied: false, sizePixels: tile.image.width, encoding: encoding,
                adaptiveFiltering: adaptive)
        }
        return try uniformCached(key) { () throws(RendererError) in
            try encoding.check(tile.tile)
            do throws(ImageCodecError) {
                return try tile.image.pngData(
                    compressionLevel: encoding.compressionLevel, colorMode: encoding.palette ? .palette : .rgba,
                    filtering: adaptive ? .adaptive : .none)
            } catch {
                throw .encoding(tile: tile.tile.description, reason: error.description)
            }
        }
    }

    /// A tile's pixels, still on its canvas, as the RGBA PNG bytes ``pngData(for:encoding:)``
    /// gives for the same pixels (`encoding` is not a palette).
    private func pngData(for tile: TileID, pixels: PremultipliedPixels, encoding: TilePNGEncoding) throws(RendererError)
        -> Data
    {
        let adaptive = adaptiveFiltering(tile)
        let key = pixels.uniformWord.map {
            UniformTileKey(
                pixel: $0, premultiplied: true, sizePixels: pixels.width, encoding: encoding,
                adaptiveFiltering: adaptive)
        }
        return try uniformCached(key) { () throws(RendererError) in
            try encoding.check(tile)
            do throws(ImageCodecError) {
                return try pixels.pngData(
                    compressionLevel: encoding.compressionLevel, filtering: adaptive ? .adaptive : .none)
            } catch {
                throw .encoding(tile: tile.description, reason: error.description)
            }
        }
    }

    /// Whether a tile's rows take PNG's adaptive filters: where the style draws raster imagery
    /// at its zoom.
    private func adaptiveFiltering(_ tile: TileID) -> Bool {
        options.layers != .overlays && style.drawsRasterPixels(atZoom: options.styleZoomLevel(forTileZoom: tile.z))
    }

    /// The bytes of a uniform tile, encoded by `encode` once per key (nil: not uniform, always encoded).
    private func uniformCached(_ key: UniformTileKey?, encode: () throws(RendererError) -> Data) throws(RendererError)
        -> Data
    {
        guard let key else { return try encode() }
        if let data = uniformPNGs.withLock({ $0[key] }) { return data }
        let data = try encode()
        uniformPNGs.withLock { $0[key] = data }
        return data
    }

    // MARK: - Placement

    /// Places the labels of the tile zooms ahead of their tiles, on every core at once: an export
    /// that goes zoom by zoom otherwise places each zoom's labels on one core while the others
    /// wait for them. Only zooms placed whole (see ``PlacementRegion``) are placed ahead; deeper
    /// zooms' regions are placed by the tiles that meet them, each on its own core. A zoom whose
    /// placement fails is left to fail where its tiles ask for it.
    public func preparePlacements(forTileZooms zooms: some Collection<Int>) {
        let zooms = zooms.filter {
            PlacementRegion.worldPoints(zoom: $0, tileSizePoints: options.tileSizePoints) <= PlacementRegion.sidePoints
        }
        _ = [Bool](concurrentlyComputing: zooms.count) { index in
            let world = PlacementRegion.worldPoints(zoom: zooms[index], tileSizePoints: options.tileSizePoints)
            return
                (try? placement(forTileZoom: zooms[index], meeting: ViewRect(x: 0, y: 0, width: world, height: world)))
                != nil
        }
    }

    /// The labels and callout that may show in `window` (world points) at a tile zoom: those of
    /// the regions within reach of it (see ``PlacementRegion``), each placed on first use (other
    /// threads wanting the same region wait; threads on other regions go on), in region order.
    func placement(forTileZoom zoom: Int, meeting window: ViewRect) throws(RendererError) -> TilePlacement {
        let regions = PlacementRegion.regions(meeting: window, zoom: zoom, tileSizePoints: options.tileSizePoints)
        var parts: [TilePlacement] = []
        for region in regions { parts.append(try placement(of: region)) }
        if parts.count == 1 { return parts[0] }
        return TilePlacement(merging: parts, near: window)
    }

    /// Forgets the label placements kept (they are placed again when tiles ask for them): what a
    /// server near its memory limit lets go.
    public func forgetPlacements() {
        placements.removeAll()
    }

    /// The bytes of label placements kept, roughly counted (see ``TileRenderOptions/keptPlacementBytes``).
    public var keptPlacementBytes: Int { placements.totalCost }

    /// A region's labels and callout, placed on first use.
    func placement(of region: PlacementRegion) throws(RendererError) -> TilePlacement {
        try placements.value(for: region) { () throws(RendererError) in try makePlacement(for: region) }
    }
}
