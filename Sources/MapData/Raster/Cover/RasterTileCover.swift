import Foundation
public import MapCore

/// Which raster tiles a view draws, at which zoom, and where.
///
/// **The tile zoom rule**, MapLibre's for raster sources: a tile of `tileSizePoints` points is
/// drawn as close to its own size as whole zoom levels allow, so
///
///     z = max(0, round(zoomLevel − log2(tileSizePoints / 256)))
///
/// with `zoomLevel` in this package's convention (the world is 256 × 2^zoomLevel points wide,
/// as in MapKit; MapLibre's zoom is one less). A 256-point tile at zoom level 10.4 uses z = 10
/// and is drawn at 2^0.4 = 1.32 times its size; a 512-point tile uses z = 9. Rounding (not
/// flooring, as vector sources do) keeps raster tiles between 0.71 and 1.41 times their size.
/// Then z below the source's `minZoom` draws nothing and z above its `maxZoom` becomes `maxZoom`
/// (those tiles are scaled up).
///
/// The screen scale does not enter the rule: a source with `@2x` images (`{r}` in the URL) gives
/// sharp tiles at scale 2, one without gives the same tiles scaled up. Asking for the next zoom
/// instead would halve the size of the labels baked into the images, as MapLibre, Mapbox and
/// Leaflet also avoid.
public enum RasterTileCover {
    /// The default limit on the number of placements: 4,096, far more than a 4K view needs
    /// (about 16 × 9 tiles of 256 points at scale 1, doubled for world copies).
    public static let defaultMaximumCount = 4_096

    /// The farthest a rect's edge may lie from the origin, in map points: 10^15.
    private static let maximumOrdinate: Double = 1e15

    /// The tile zoom a view at `zoomLevel` uses for tiles of `tileSizePoints` points, before the
    /// source's zoom range applies: `max(0, round(zoomLevel − log2(tileSizePoints / 256)))`,
    /// at most 30.
    ///
    /// For example, zoom level 3.6 uses tile zoom 4 for 256-point tiles and 3 for 512-point tiles.
    public static func tileZoom(forZoomLevel zoomLevel: Double, tileSizePoints: Int) -> Int {
        let ideal = (zoomLevel - log2(Double(tileSizePoints) / WebMercator.tileSizePoints)).rounded()
        guard ideal.isFinite else { return 0 }
        return Int(min(Double(TileID.maximumZoom), max(0, ideal)))
    }

    /// The tiles to draw for a view of `mapRect`, each with the rect to draw it in.
    ///
    /// x is not wrapped: a rect reaching past the antimeridian (``MapRect/crossesAntimeridian``,
    /// or starting west of 0) gets the tiles of the world copy it reaches, with rects shifted by
    /// whole worlds, and a rect wider than the world gets each tile once per copy it shows. y is
    /// clamped into the world. Tiles are half-open, as in ``TileID/tiles(covering:zoom:maximumCount:)``.
    /// Placements come row by row from the north, west to east.
    ///
    /// For example, a view from 170°E to 170°W at tile zoom 2 draws the tiles of columns 3 and 0,
    /// column 0 one world east:
    ///
    /// ```swift
    /// let view = MapRect(x: 0.97 * WebMercator.worldSize, y: 0.4 * WebMercator.worldSize,
    ///                    width: 0.06 * WebMercator.worldSize, height: 0.2 * WebMercator.worldSize)
    /// try RasterTileCover.placements(covering: view, zoomLevel: 2, tileSizePoints: 256)
    /// // 2/3/1 (offset 0), 2/0/1 (offset 1), 2/3/2 (offset 0), 2/0/2 (offset 1)
    /// ```
    ///
    /// - Parameters:
    ///   - mapRect: The visible area in map points; x may run past either edge of the world.
    ///   - zoomLevel: The view's zoom level, fractional levels allowed.
    ///   - tileSizePoints: The source's tile size in points, 256 or 512.
    ///   - minZoom: The source's lowest tile zoom; a view needing less draws nothing. The default is 0.
    ///   - maxZoom: The source's highest tile zoom; deeper views scale its tiles up. The default is 22.
    ///   - maximumCount: The most placements allowed. The default is ``defaultMaximumCount``.
    /// - Returns: The placements; none for a null rect, one with NaN edges, or one farther than
    ///   10^15 map points (some 3.7 million worlds) from the origin.
    /// - Throws: ``MapCoreError/tooManyTiles(count:limit:)`` when there would be more than `maximumCount`.
    public static func placements(
        covering mapRect: MapRect,
        zoomLevel: Double,
        tileSizePoints: Int,
        minZoom: Int = 0,
        maxZoom: Int = 22,
        maximumCount: Int = defaultMaximumCount
    ) throws(MapCoreError) -> [RasterTilePlacement] {
        let edges = [mapRect.minX, mapRect.minY, mapRect.maxX, mapRect.maxY]
        guard !mapRect.isNull, edges.allSatisfy({ abs($0) <= maximumOrdinate }) else { return [] }
        var zoom = tileZoom(forZoomLevel: zoomLevel, tileSizePoints: tileSizePoints)
        guard zoom >= minZoom else { return [] }
        zoom = min(zoom, maxZoom, TileID.maximumZoom)

        let perSide = 1 << zoom
        let tileSize = WebMercator.worldSize / Double(perSide)
        let rows = span(from: mapRect.minY, to: mapRect.maxY, tileSize: tileSize)
        let columns = span(from: mapRect.minX, to: mapRect.maxX, tileSize: tileSize)
        let clampedRows = (min(Double(perSide - 1), max(0, rows.first)), min(Double(perSide - 1), max(0, rows.last)))
        let exactCount = (clampedRows.1 - clampedRows.0 + 1) * (columns.last - columns.first + 1)
        guard exactCount <= Double(maximumCount) else {
            throw .tooManyTiles(count: exactCount < Double(Int.max) ? Int(exactCount) : .max, limit: maximumCount)
        }
        // Within the limit, so the indices are small enough for Int: at most maximumCount columns
        // from a first column that is at most (10^15 / a quarter map point) from 0.
        let count = Int(exactCount)
        var placements: [RasterTilePlacement] = []
        placements.reserveCapacity(count)
        for y in Int(clampedRows.0)...Int(clampedRows.1) {
            for column in Int(columns.first)...Int(columns.last) {
                // Floor division: column -1 is the last column of the world to the west.
                let worldOffset = column >= 0 ? column / perSide : -((-column - 1) / perSide) - 1
                let x = column - worldOffset * perSide
                // x and y lie in the grid by construction.
                placements.append(RasterTilePlacement(tile: try TileID(z: zoom, x: x, y: y), worldOffset: worldOffset))
            }
        }
        return placements
    }

    /// The first and last tile indices whose half-open spans meet [start, end]: at least the one
    /// holding `start`. Not clamped: columns run on into the neighbouring worlds.
    private static func span(from start: Double, to end: Double, tileSize: Double) -> (first: Double, last: Double) {
        let first = (start / tileSize).rounded(.down)
        return (first, max(first, (end / tileSize).rounded(.up) - 1))
    }
}
