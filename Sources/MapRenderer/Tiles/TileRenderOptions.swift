import Foundation
public import MapCore

/// How ``MapTileRenderer`` cuts the map into tiles: their size and density, the metatiles they
/// are rendered in, and what they show.
///
/// A tile of ``tileSizePoints`` at ``scale`` is `tileSizePoints × scale` pixels square, drawing
/// the geometry of a `tileSizePoints` tile at that density: a 256-point tile @2x is 512 × 512
/// pixels with lines, text and pins twice as sharp, covering the same ground as a 256-pixel tile
/// @1x. Style zooms follow MapLibre's convention, which assumes 512-point tiles: a 256-point tile
/// at zoom z draws the style at zoom z − 1, a 512-point tile at zoom z draws it at z.
public struct TileRenderOptions: Hashable, Sendable {
    /// What tiles show.
    public enum Layers: String, Hashable, Sendable, CaseIterable {
        /// The style's layers (background, areas, lines, imagery, labels): a basemap, the same
        /// whatever the photos and overlays.
        case basemap
        /// The overlays, markers (pins, clusters, marker images) and the callout on a transparent
        /// background (alpha 0 wherever nothing is drawn), to lay over any basemap.
        case overlays
        /// Both in one image, as `mapwright render` draws them (without the attribution plate):
        /// labels keep clear of the markers and the callout.
        case all
    }

    /// The tile sizes allowed, in points: 256 and 512.
    public static let tileSizesPoints: [Int] = [256, 512]
    /// The scales allowed, in pixels per point: 1, 2 and 3.
    public static let scaleRange: ClosedRange<Int> = 1...3
    /// The largest buffer allowed, in points: 1,024.
    public static let maximumBufferPoints = 1_024

    /// The tile's side in points, 256 or 512. The default is 256.
    public var tileSizePoints: Int
    /// Pixels per point, 1 to 3. The default is 1.
    public var scale: Int
    /// Tiles per metatile side, in ``MetatileID/sizeRange``. The default is 8 (mod_tile's).
    public var metatileSize: Int
    /// Points rendered around each metatile and thrown away. The default is 0: nothing drawn
    /// depends on where a render's edges are (labels and the callout are placed for the world
    /// region by region, markers and dashes are found from world positions), so no buffer is needed for
    /// seamless tiles; it only costs pixels.
    public var bufferPoints: Int
    /// What the tiles show. The default is ``Layers/all``.
    public var layers: Layers
    /// The most bytes of label placements a renderer keeps (roughly counted): placed labels of
    /// the regions least recently drawn are forgotten beyond it and placed again when asked for.
    /// The default is 128 MiB.
    public var keptPlacementBytes: Int

    /// Creates options; see each property for its default.
    public init(
        tileSizePoints: Int = 256, scale: Int = 1, metatileSize: Int = MetatileID.defaultSize, bufferPoints: Int = 0,
        layers: Layers = .all, keptPlacementBytes: Int = 128 << 20
    ) {
        self.tileSizePoints = tileSizePoints
        self.scale = scale
        self.metatileSize = metatileSize
        self.bufferPoints = bufferPoints
        self.layers = layers
        self.keptPlacementBytes = keptPlacementBytes
    }

    /// A tile's side in pixels: ``tileSizePoints`` × ``scale``.
    public var tileSizePixels: Int { tileSizePoints * scale }

    /// The zoom level a viewport showing tiles of zoom `tileZoom` has (Mapwright's zoom levels
    /// put the world in 256 points at zoom 0): `tileZoom` for 256-point tiles, `tileZoom + 1`
    /// for 512-point tiles.
    public func viewportZoomLevel(forTileZoom tileZoom: Int) -> Double {
        Double(tileZoom) + log2(Double(tileSizePoints) / 256)
    }

    /// The zoom level the style is drawn at in tiles of zoom `tileZoom`, by MapLibre's
    /// convention (style zooms assume 512-point tiles): `tileZoom − 1` for 256-point tiles,
    /// `tileZoom` for 512-point tiles.
    public func styleZoomLevel(forTileZoom tileZoom: Int) -> Double {
        viewportZoomLevel(forTileZoom: tileZoom) + MapSnapshotter.styleZoomOffset
    }

    /// The first problem with these options, in words; nil when they are valid.
    var problem: String? {
        if !TileRenderOptions.tileSizesPoints.contains(tileSizePoints) {
            return "tile size \(tileSizePoints) is not 256 or 512 points"
        }
        if !TileRenderOptions.scaleRange.contains(scale) { return "scale \(scale) is not 1, 2 or 3" }
        if !MetatileID.sizeRange.contains(metatileSize) {
            return
                "metatile size \(metatileSize) is outside \(MetatileID.sizeRange.lowerBound)-\(MetatileID.sizeRange.upperBound) tiles per side"
        }
        if !(0...TileRenderOptions.maximumBufferPoints).contains(bufferPoints) {
            return "buffer \(bufferPoints) points is outside 0-\(TileRenderOptions.maximumBufferPoints)"
        }
        if keptPlacementBytes < 0 { return "kept placement bytes \(keptPlacementBytes) is negative" }
        return nil
    }
}
