import MapCore

/// What a render draws beyond its ``MapSnapshotOptions``: an image (the defaults), or one
/// window of tiles (see ``MapTileRenderer``).
struct RenderPass {
    /// Whether the style's layers (background, fills, lines, rasters, labels) are drawn.
    var drawsBasemap = true
    /// Whether the overlays, markers and the callout are drawn.
    var drawsOverlays = true
    /// Whether what lies on the ground is drawn: the style's background, fill, line and raster
    /// layers and the overlays. A pitched image draws the ground apart, in perspective (see
    /// ``PerspectiveGround``), and then the rest upright over it.
    var drawsGround = true
    /// Whether the style's labels (symbol layers) are drawn.
    var drawsLabels = true
    /// Whether the markers and the callout are drawn.
    var drawsMarkers = true
    /// Whether fill-extrusion, circle and heatmap layers are drawn with the ground's layers.
    /// The flat levels of a pitched view leave them out: the pitched view draws them over its
    /// ground itself, in its own perspective (buildings raised, circles upright or lying on the
    /// ground, heatmap kernels on the ground and coloured on the screen, as GL draws them).
    var drawsPerspectiveLayers = true
    /// Labels and the callout placed once for the whole world at this zoom, so that every tile
    /// draws them alike; `nil` places them in the view, as an image does.
    var placement: TilePlacement?
    /// For one band of an image, the image's placement, made on another thread while the band
    /// draws the layers below its first labels, and waited for there (see
    /// `MapSnapshotter.drawInBands`); set, it takes the place of ``placement``.
    var pendingPlacement: (@Sendable () throws(RendererError) -> TilePlacement)?
    /// Where the view's top-left corner lies in ``placement``'s world points.
    var worldOrigin = ViewPoint(x: 0, y: 0)
    /// For one band of an image, what its bands share (see `StylePainter.bandSharing`).
    var bandSharing: BandSharing?
    /// Which of the style's layers are drawn: all of them (the default), or, for a band drawn in
    /// two steps, those below its first labels, or the rest with the overlays and foreground.
    var layerSpan = LayerSpan.all

    /// Which of the style's layers a pass draws.
    enum LayerSpan {
        case all
        /// The visible layers below the first visible symbol layer (all of them without one).
        case belowLabels
        /// The first visible symbol layer and those above, then the overlays and the foreground.
        case labelsAndAbove
    }
    /// How far beyond the view the style's geometry is cut, in pixels; nil cuts it 16 pixels
    /// out, as images do. Tiles cut it ``tileClipMarginPixels`` out.
    var clipMarginPixels: Double?

    /// Tiles' clip margin: 2^21 pixels, within Cairo's fixed-point range (±2^23 pixels) yet so far
    /// that no edge crossing a tile is cut near it (a cut rounds the cut point, which tilts the
    /// edge by up to 1/512 pixel at the cut and antialiases the same coast differently in two
    /// renders cut in different places; 2^21 pixels away, the tilt is below 2^-17 pixels
    /// anywhere in a 4,096-pixel render).
    static let tileClipMarginPixels: Double = 2_097_152
}
