public import MapCore
public import MapStyle

/// What a render draws above the map and its overlays: markers standing at places (MapKit's
/// annotation views) and the selected marker's callout. The renderer leaves what the markers are
/// to the layer (a photographer's pins and clusters are `AnnotationSet`, in MapComposer): it asks
/// where they stand, keeps labels clear of their bodies and of the callout, and has them draw
/// themselves last, above everything but the attribution.
///
/// A layer is a value shared by every render and tile of it, on any thread.
public protocol MarkerLayer: Sendable {
    /// Why the layer cannot be drawn (a cluster index not built over the annotations, say), or
    /// nil when it can: a tile renderer refuses a layer with a problem.
    var problem: String? { get }

    /// The markers that show in `viewport`: those that reach into `visibleMapRect` (map points),
    /// laid out in the viewport's points. Markers nearer a pitched view's camera stand larger.
    func layOut(in viewport: Viewport, visibleMapRect: MapRect, style: MapwrightMetadata) -> any MarkerLayout

    /// The selected marker's callout in `world`, a viewport as large as the world at a tile zoom
    /// (its view points are world points), with its text measured in `cairo` (a Cairo context,
    /// `cairo_t *`); nil without a selection or when its marker does not show. Tiles place it
    /// once per zoom, so that every tile it crosses draws the same bubble.
    func worldCallout(in world: Viewport, style: MapwrightMetadata, cairo: OpaquePointer)
        -> (any MarkerCalloutPlacement)?
}

/// A marker layer's markers laid out in one view.
public protocol MarkerLayout {
    /// What each marker covers, shadow included, in view points: what framing keeps inside an
    /// image.
    var frames: [ViewRect] { get }
    /// What each marker's body covers, in view points: what labels keep clear of.
    var bodyFrames: [ViewRect] { get }

    /// The selected marker's callout laid out in the view, its text measured in `cairo`; nil
    /// without a selection or when its marker is not in this layout.
    func callout(style: MapwrightMetadata, cairo: OpaquePointer) -> (any MarkerCallout)?

    /// Draws the markers into `cairo`, the selected one last.
    ///
    /// - Parameter pixelScale: The image's pixels per point, for markers put on whole pixels as
    ///   MapKit puts annotation views; nil for vector output (PDF, SVG), drawn as paths.
    func draw(style: MapwrightMetadata, pixelScale: Double?, cairo: OpaquePointer)
}

/// A callout laid out in a view: the bubble over the selected marker, with its pointer.
public protocol MarkerCallout {
    /// What the bubble and its pointer cover, in view points (the shadow reaches a little
    /// further).
    var frame: ViewRect { get }

    /// Draws the bubble with its shadow and contents into `cairo`.
    func draw(in cairo: OpaquePointer)
}

/// A callout placed once in the world at a tile zoom (see
/// ``MarkerLayer/worldCallout(in:style:cairo:)``), laid out again in each tile's context.
public protocol MarkerCalloutPlacement: Sendable {
    /// What the callout's pixels cover, shadow included, in world points.
    var inkFrame: ViewRect { get }

    /// The callout laid out in `cairo` in world points, kept inside a world of `worldSize`.
    func layOut(worldSize: ViewSize, cairo: OpaquePointer) -> any MarkerCallout

    /// Whether `other` draws the same pixels.
    func drawsLike(_ other: any MarkerCalloutPlacement) -> Bool
}
