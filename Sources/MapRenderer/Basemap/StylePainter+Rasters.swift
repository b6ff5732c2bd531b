import CCairo
import Foundation
import ImageCodec
import MapCore
import MapStyle
import RasterTiles

extension StylePainter {
    /// Draws a raster layer's tiles, each over its map rect. Tile rects are filled without
    /// antialiasing, so neighbouring tiles share their edge pixels exactly: no seams.
    func drawRaster(_ raster: RasterLayer, layer: StyleLayer) throws(RendererError) {
        guard let sourceID = layer.source else { return }
        guard case .raster(let description)? = style.sources[sourceID] else {
            throw .unknownSource(layer: layer.id, source: sourceID)
        }
        let source = try data.rasterSource(id: sourceID, description, scale: viewport.scale)
        let placements: [RasterTilePlacement]
        do { placements = try source.placements(covering: visibleMapRect, zoomLevel: viewport.zoomLevel) } catch {
            throw .raster(source: sourceID, reason: error.description)
        }
        let images: [TileID: RGBAImage]
        do { images = try source.images(for: Array(Set(placements.map(\.tile))).sorted()) } catch {
            throw .raster(source: sourceID, reason: error.description)
        }
        let opacity = raster.opacity.value(atZoom: zoomLevel)
        for placement in placements {
            guard let image = images[placement.tile], let surface = ImagePainter.makeSurface(image) else { continue }
            defer { cairo_surface_destroy(surface) }
            let rect = placement.mapRect
            guard let topLeft = viewport.unwrappedPoint(for: MapPoint(x: rect.minX, y: rect.minY)),
                  let topRight = viewport.unwrappedPoint(for: MapPoint(x: rect.maxX, y: rect.minY)),
                  let bottomLeft = viewport.unwrappedPoint(for: MapPoint(x: rect.minX, y: rect.maxY))
            else { continue }
            let width = Double(image.width), height = Double(image.height)
            // Image pixels to view points: exact for any heading; flat views only (no pitch).
            var matrix = cairo_matrix_t(
                xx: (topRight.x - topLeft.x) / width, yx: (topRight.y - topLeft.y) / width,
                xy: (bottomLeft.x - topLeft.x) / height, yy: (bottomLeft.y - topLeft.y) / height,
                x0: topLeft.x, y0: topLeft.y)
            cairo_save(cairo)
            cairo_transform(cairo, &matrix)
            cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
            cairo_rectangle(cairo, 0, 0, width, height)
            cairo_clip(cairo)
            cairo_set_source_surface(cairo, surface, 0, 0)
            cairo_pattern_set_extend(cairo_get_source(cairo), CAIRO_EXTEND_PAD)
            cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
            cairo_paint_with_alpha(cairo, opacity)
            cairo_restore(cairo)
        }
    }
}
