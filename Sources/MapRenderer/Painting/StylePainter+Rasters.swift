import CCairo
import Foundation
import ImageCodec
import MapCore
import MapData
import MapStyle

extension StylePainter {
    /// Draws a raster layer: a raster source's tiles, each over its map rect, or an image
    /// source's picture between its four corners, with the layer's colour adjustments,
    /// resampling and opacity. Tile rects are filled without antialiasing, so neighbouring tiles
    /// share their edge pixels exactly: no seams.
    func drawRaster(_ raster: RasterLayer, layer: StyleLayer) throws(RendererError) {
        guard let sourceID = layer.source else { return }
        let opacity = raster.opacity.value(atZoom: zoomLevel)
        guard opacity > 0 else { return }
        let look = RasterLook(
            opacity: opacity, adjustment: raster.colorAdjustment(atZoom: zoomLevel),
            filter: raster.resampling.value(atZoom: zoomLevel) == .nearest ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
        switch style.sources[sourceID] {
        case .raster(let description)?:
            let tiles = try rasterTiles(sourceID: sourceID, description)
            for tile in tiles {
                guard
                    let surface = ImagePainter.makeSurface(
                        look.adjustment.isIdentity ? tile.image : tile.image.adjusted(by: look.adjustment))
                else { continue }
                defer { cairo_surface_destroy(surface) }
                drawTileImage(surface, of: tile, look: look)
            }
        case .image(let image)?:
            try drawImageSource(image, id: sourceID, look: look)
        default:
            throw .unknownSource(layer: layer.id, source: sourceID)
        }
    }

    /// How a raster layer draws its pictures.
    struct RasterLook {
        let opacity: Double
        let adjustment: RasterColorAdjustment
        let filter: cairo_filter_t
    }

    /// A tile to draw: the image of the tile itself or of its nearest ancestor with one, and
    /// the part of that image covering the tile.
    struct PlacedRasterTile {
        /// Where the tile goes, in map points (world copy included).
        let mapRect: MapRect
        /// The image: the tile's own, or an ancestor's.
        let image: RGBAImage
        /// The tile the image belongs to.
        let imageTile: TileID
        /// The tile drawn.
        let tile: TileID
    }

    /// The tiles of a raster (or raster-dem) source a view draws, as MapLibre draws them: the
    /// tiles at the view's tile zoom within the source's `bounds`; where one is missing, its
    /// nearest ancestor that the source has, scaled up over it.
    func rasterTiles(sourceID: String, _ description: RasterSource) throws(RendererError) -> [PlacedRasterTile] {
        // `basemap://terrain` without a registered DEM draws nothing, quietly.
        if description.tiles?.drawsNothing == true { return [] }
        let source = try RendererError.readingData { () throws(MapDataError) in
            try data.rasterSource(id: sourceID, description, scale: viewport.scale)
        }
        var placements: [RasterTilePlacement]
        do { placements = try source.placements(covering: visibleMapRect, zoomLevel: viewport.zoomLevel) } catch {
            throw .mapData(.raster(source: sourceID, reason: error.description))
        }
        if let bounds = description.bounds { placements = placements.filter { Self.tile($0.tile, isWithin: bounds) } }
        var images: [TileID: RGBAImage] = [:]
        var wanted = Set(placements.map(\.tile))
        // Missing tiles fall back to their parents, a level at a time, at most 10 levels up
        // (MapLibre retains the nearest loaded ancestor so far up and draws it where the child
        // is missing).
        let lowestZoom = max(source.minZoom, (placements.first?.tile.z ?? 0) - Self.maximumOverzoomLevels)
        while !wanted.isEmpty {
            let found: [TileID: RGBAImage]
            do { found = try source.images(for: wanted.sorted()) } catch {
                throw .mapData(.raster(source: sourceID, reason: error.description))
            }
            images.merge(found) { old, _ in old }
            wanted = Set(
                wanted.filter { found[$0] == nil }.compactMap { tile in
                    tile.z > lowestZoom ? tile.parent : nil
                }
            ).subtracting(images.keys)
        }
        var result: [PlacedRasterTile] = []
        for placement in placements {
            var candidate: TileID? = placement.tile
            while let tile = candidate, tile.z >= lowestZoom {
                if let image = images[tile] {
                    result.append(
                        PlacedRasterTile(
                            mapRect: placement.mapRect, image: image, imageTile: tile, tile: placement.tile))
                    break
                }
                candidate = tile.parent
            }
        }
        return result
    }

    /// How many levels up a missing tile's ancestor may be and still be drawn in its place:
    /// 10, MapLibre's.
    static let maximumOverzoomLevels = 10

    /// Whether a tile meets `bounds`, as MapLibre's tile bounds test it: the tile's column and
    /// row lie within those the bounds' edges fall in at its zoom.
    static func tile(_ tile: TileID, isWithin bounds: BoundingBox) -> Bool {
        let tiles = Double(tile.tilesPerSide)
        func column(_ longitude: Double) -> Double { (longitude + 180) / 360 * tiles }
        func row(_ latitude: Double) -> Double {
            let clamped = min(85.051129, max(-85.051129, latitude)) * .pi / 180
            return (1 - log(tan(clamped) + 1 / cos(clamped)) / .pi) / 2 * tiles
        }
        let minX = column(bounds.west).rounded(.down)
        let maxX = column(bounds.east).rounded(.up)
        let minY = row(bounds.north).rounded(.down)
        let maxY = row(bounds.south).rounded(.up)
        let x = Double(tile.x)
        let y = Double(tile.y)
        return x >= minX && x < maxX && y >= minY && y < maxY
    }

    /// Draws a tile's image (already a surface) over its map rect: the part of an ancestor's
    /// image that covers the tile when the image is an ancestor's.
    func drawTileImage(_ surface: OpaquePointer, of tile: PlacedRasterTile, look: RasterLook) {
        let shift = rasterAlignment
        let rect = tile.mapRect.offsetBy(dx: shift.x, dy: shift.y)
        guard let topLeft = viewport.unwrappedPoint(for: MapPoint(x: rect.minX, y: rect.minY)),
            let topRight = viewport.unwrappedPoint(for: MapPoint(x: rect.maxX, y: rect.minY)),
            let bottomLeft = viewport.unwrappedPoint(for: MapPoint(x: rect.minX, y: rect.maxY))
        else { return }
        let width = Double(cairo_image_surface_get_width(surface))
        let height = Double(cairo_image_surface_get_height(surface))
        // The image's part for this tile: the whole image, or a 1/2^levels square of an ancestor's.
        let levels = tile.tile.z - tile.imageTile.z
        let share = 1 / Double(1 << levels)
        let originX = Double(tile.tile.x - (tile.imageTile.x << levels)) * share * width
        let originY = Double(tile.tile.y - (tile.imageTile.y << levels)) * share * height
        let partWidth = width * share
        let partHeight = height * share
        // Image pixels of the part to view points: exact for any heading; flat views only (no pitch).
        var matrix = cairo_matrix_t(
            xx: (topRight.x - topLeft.x) / partWidth, yx: (topRight.y - topLeft.y) / partWidth,
            xy: (bottomLeft.x - topLeft.x) / partHeight, yy: (bottomLeft.y - topLeft.y) / partHeight,
            x0: topLeft.x, y0: topLeft.y)
        cairo_save(cairo)
        cairo_transform(cairo, &matrix)
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
        cairo_rectangle(cairo, 0, 0, partWidth, partHeight)
        cairo_clip(cairo)
        cairo_set_source_surface(cairo, surface, -originX, -originY)
        cairo_pattern_set_extend(cairo_get_source(cairo), CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(cairo_get_source(cairo), look.filter)
        cairo_paint_with_alpha(cairo, look.opacity)
        cairo_restore(cairo)
    }

    /// How far raster pictures move, in map points, so that the world's pixel grid falls on the
    /// view's pixels, as MapLibre aligns raster tiles: the view's centre, in points of the
    /// world at this zoom, rounded to a whole point (half a point off for a view of odd width
    /// or height, turned with the view). Tiles drawn at their own size are then crisp, not
    /// resampled between pixels.
    var rasterAlignment: MapPoint {
        guard let center = viewport.mapPoint(for: ViewPoint(x: viewport.size.width / 2, y: viewport.size.height / 2))
        else {
            return MapPoint(x: 0, y: 0)
        }
        let zoomScale = ZoomLevel.zoomScale(atZoomLevel: viewport.zoomLevel)
        let x = center.x * zoomScale
        let y = center.y * zoomScale
        let width = viewport.size.width.rounded()
        let height = viewport.size.height.rounded()
        let xShift = width.truncatingRemainder(dividingBy: 2) / 2
        let yShift = height.truncatingRemainder(dividingBy: 2) / 2
        // MapLibre's angle is the bearing turned the other way.
        let angle = -viewport.camera.headingDegrees * .pi / 180
        var dx = x - x.rounded() + cos(angle) * xShift + sin(angle) * yShift
        var dy = y - y.rounded() + cos(angle) * yShift + sin(angle) * xShift
        if dx > 0.5 { dx -= 1 }
        if dy > 0.5 { dy -= 1 }
        return MapPoint(x: dx / zoomScale, y: dy / zoomScale)
    }

    /// Draws an image source's picture as MapLibre does: two triangles (top left, top right,
    /// bottom left; top right, bottom left, bottom right), each mapped linearly, in every world
    /// copy the view shows. The corners are placed as given, longitudes beyond ±180 included
    /// (an image from -270° to 90° spans one world from there), never each moved alone.
    private func drawImageSource(_ source: ImageSource, id: String, look: RasterLook) throws(RendererError) {
        guard source.corners.count == 4 else { return }
        let image = try RendererError.readingData { () throws(MapDataError) in try data.image(of: source, id: id) }
        guard
            let surface = ImagePainter.makeSurface(
                look.adjustment.isIdentity ? image : image.adjusted(by: look.adjustment))
        else { return }
        defer { cairo_surface_destroy(surface) }
        let world = WebMercator.worldSize
        let shift = rasterAlignment
        let corners = zip(source.corners, source.longitudes).map { corner, longitude in
            MapPoint(x: (longitude + 180) / 360 * world + shift.x, y: MapPoint(corner).y + shift.y)
        }
        let minX = corners.map(\.x).min()!
        let maxX = corners.map(\.x).max()!
        let firstCopy = Int(((visibleMapRect.minX - maxX) / world).rounded(.down))
        let lastCopy = Int(((visibleMapRect.maxX - minX) / world).rounded(.up))
        guard firstCopy <= lastCopy else { return }
        for copy in firstCopy...lastCopy {
            let offset = Double(copy) * world
            guard minX + offset < visibleMapRect.maxX, maxX + offset > visibleMapRect.minX else { continue }
            var points: [ViewPoint] = []
            for corner in corners {
                guard let view = viewport.unwrappedPoint(for: MapPoint(x: corner.x + offset, y: corner.y)) else {
                    return
                }
                points.append(view)
            }
            drawImage(surface, width: Double(image.width), height: Double(image.height), at: points, look: look)
        }
    }

    /// Draws an image over four view points (top left, top right, bottom right, bottom left).
    private func drawImage(
        _ surface: OpaquePointer, width: Double, height: Double, at points: [ViewPoint], look: RasterLook
    ) {
        let (topLeft, topRight, bottomRight, bottomLeft) = (points[0], points[1], points[2], points[3])
        let triangles: [[(ViewPoint, Double, Double)]] = [
            [(topLeft, 0, 0), (topRight, width, 0), (bottomLeft, 0, height)],
            [(topRight, width, 0), (bottomLeft, 0, height), (bottomRight, width, height)],
        ]
        for triangle in triangles {
            guard var matrix = Self.affineMatrix(triangle) else { continue }
            cairo_save(cairo)
            cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
            cairo_move_to(cairo, triangle[0].0.x, triangle[0].0.y)
            cairo_line_to(cairo, triangle[1].0.x, triangle[1].0.y)
            cairo_line_to(cairo, triangle[2].0.x, triangle[2].0.y)
            cairo_close_path(cairo)
            cairo_clip(cairo)
            cairo_transform(cairo, &matrix)
            cairo_set_source_surface(cairo, surface, 0, 0)
            cairo_pattern_set_extend(cairo_get_source(cairo), CAIRO_EXTEND_PAD)
            cairo_pattern_set_filter(cairo_get_source(cairo), look.filter)
            cairo_paint_with_alpha(cairo, look.opacity)
            cairo_restore(cairo)
        }
    }

    /// The affine map taking three image points (u, v) to three view points; nil when the
    /// image points are collinear.
    static func affineMatrix(_ points: [(ViewPoint, Double, Double)]) -> cairo_matrix_t? {
        let (p0, u0, v0) = points[0]
        let (p1, u1, v1) = points[1]
        let (p2, u2, v2) = points[2]
        let du1 = u1 - u0
        let dv1 = v1 - v0
        let du2 = u2 - u0
        let dv2 = v2 - v0
        let determinant = du1 * dv2 - du2 * dv1
        guard determinant != 0 else { return nil }
        let dx1 = p1.x - p0.x
        let dy1 = p1.y - p0.y
        let dx2 = p2.x - p0.x
        let dy2 = p2.y - p0.y
        // Solve [xx xy; yx yy] · [du dv] = [dx dy] for both edges.
        let xx = (dx1 * dv2 - dx2 * dv1) / determinant
        let xy = (dx2 * du1 - dx1 * du2) / determinant
        let yx = (dy1 * dv2 - dy2 * dv1) / determinant
        let yy = (dy2 * du1 - dy1 * du2) / determinant
        return cairo_matrix_t(
            xx: xx, yx: yx, xy: xy, yy: yy, x0: p0.x - xx * u0 - xy * v0, y0: p0.y - yx * u0 - yy * v0)
    }
}

extension RGBAImage {
    /// The image with a raster layer's colour adjustments applied to every pixel's straight
    /// colour; alpha is kept.
    func adjusted(by adjustment: RasterColorAdjustment) -> RGBAImage {
        var pixels = self.pixels
        pixels.withUnsafeMutableBufferPointer { pixels in
            var offset = 0
            while offset + 3 < pixels.count {
                let adjusted = adjustment.adjusted(
                    red: Double(pixels[offset]) / 255, green: Double(pixels[offset + 1]) / 255,
                    blue: Double(pixels[offset + 2]) / 255)
                pixels[offset] = UInt8((adjusted.red * 255).rounded())
                pixels[offset + 1] = UInt8((adjusted.green * 255).rounded())
                pixels[offset + 2] = UInt8((adjusted.blue * 255).rounded())
                offset += 4
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
