import CCairo
import Foundation
import ImageCodec
import MapCore
import MapData
import MapStyle

extension StylePainter {
    /// Draws a hillshade layer as MapLibre does: each raster-dem tile in view (or its nearest
    /// ancestor, scaled up, where it is missing) decoded to elevations, its border taken from the
    /// neighbouring tiles drawn, its slopes shaded by the layer's light and colours, the shading
    /// stretched over the tile.
    func drawHillshade(_ hillshade: HillshadeLayer, layer: StyleLayer) throws(RendererError) {
        guard let sourceID = layer.source else { return }
        guard case .rasterDEM(let dem)? = style.sources[sourceID] else {
            throw .unknownSource(layer: layer.id, source: sourceID)
        }
        let tiles = try rasterTiles(sourceID: sourceID, dem.tiles)
        guard !tiles.isEmpty else { return }
        let maxZoom = try RendererError.readingData { () throws(MapDataError) in
            try data.rasterSource(id: sourceID, dem.tiles, scale: viewport.scale)
        }.maxZoom
        let shader = HillshadeShader(hillshade, zoom: zoomLevel, bearingDegrees: viewport.camera.headingDegrees)

        var images: [TileID: RGBAImage] = [:]
        for tile in tiles { images[tile.imageTile] = tile.image }
        var grids: [TileID: DEMGrid] = [:]
        for (tile, image) in images { grids[tile] = DEMGrid(image: image, encoding: dem.encoding) }
        var surfaces: [TileID: OpaquePointer] = [:]
        defer { for surface in surfaces.values { cairo_surface_destroy(surface) } }
        let look = RasterLook(opacity: 1, adjustment: RasterColorAdjustment(), filter: CAIRO_FILTER_GOOD)
        for tile in tiles {
            if surfaces[tile.imageTile] == nil {
                guard var grid = grids[tile.imageTile] else { continue }
                Self.backfill(&grid, of: tile.imageTile, from: grids)
                guard let surface = Self.shadedSurface(grid, tile: tile.imageTile, maxZoom: maxZoom, shader: shader)
                else { continue }
                surfaces[tile.imageTile] = surface
            }
            if let surface = surfaces[tile.imageTile] { drawTileImage(surface, of: tile, look: look) }
        }
    }

    /// Fills a DEM tile's border from its loaded neighbours at the same zoom (columns wrap
    /// around the antimeridian).
    static func backfill(_ grid: inout DEMGrid, of tile: TileID, from grids: [TileID: DEMGrid]) {
        let perSide = tile.tilesPerSide
        for dy in -1...1 {
            for dx in -1...1 where dx != 0 || dy != 0 {
                let y = tile.y + dy
                guard y >= 0, y < perSide,
                    let neighbourID = try? TileID(z: tile.z, x: (tile.x + dx + perSide) % perSide, y: y),
                    let neighbour = grids[neighbourID]
                else { continue }
                grid.backfill(from: neighbour, dx: dx, dy: dy)
            }
        }
    }

    /// A tile's shading as a Cairo ARGB32 surface the size of the tile's image, transparent
    /// where the tile has no data (``DEMGrid/noData``); nil when Cairo cannot make one. The
    /// caller destroys it.
    static func shadedSurface(_ grid: DEMGrid, tile: TileID, maxZoom: Int, shader: HillshadeShader) -> OpaquePointer? {
        let dimension = grid.dimension
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(dimension), Int32(dimension)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(surface)
        else { return nil }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let slopes = grid.slopes(zoom: tile.z, maxZoom: maxZoom)
        // The shader interpolates latitude linearly from the tile's top edge to its bottom.
        let rect = tile.mapRect
        let north = MapPoint(x: rect.minX, y: rect.minY).coordinate.latitude
        let south = MapPoint(x: rect.minX, y: rect.maxY).coordinate.latitude
        for y in 0..<dimension {
            let row = UnsafeMutableRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            let latitude = north + (south - north) * (Double(y) + 0.5) / Double(dimension)
            for x in 0..<dimension {
                if let noData = grid.noData, noData[y * dimension + x] {
                    row[x] = 0
                    continue
                }
                let index = (y * dimension + x) * 2
                row[x] = shader.color(east: slopes[index], south: slopes[index + 1], latitudeDegrees: latitude).argb32
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
