public import MapCore
public import MapStyle

/// What a snapshot shows: a viewport, a style, and the overlays and markers on top (MapKit's
/// MKMapSnapshotter.Options).
public struct MapSnapshotOptions: Sendable {
    /// The camera and view size (in points) and scale (pixels per point).
    public var viewport: Viewport
    /// The style: basemap layers, pin and callout appearance.
    public var style: Style
    /// The markers and the selected one's callout, drawn above everything but the attribution
    /// (a photographer's pins and clusters: MapComposer's `AnnotationSet`). The default is none.
    public var markers: (any MarkerLayer)?
    /// Tracks, areas and circles, drawn at their ``MapOverlay/level``.
    public var overlays: [MapOverlay]
    /// Whether the sources' attribution is drawn in the bottom-right corner. The default is true.
    public var showsAttribution: Bool
    /// The state of features, for the style's `feature-state`. The default is empty: every
    /// `feature-state` is null.
    public var featureStates = FeatureStates()

    /// Creates options; only the viewport and style are required.
    public init(
        viewport: Viewport,
        style: Style,
        markers: (any MarkerLayer)? = nil,
        overlays: [MapOverlay] = [],
        showsAttribution: Bool = true
    ) {
        self.viewport = viewport
        self.style = style
        self.markers = markers
        self.overlays = overlays
        self.showsAttribution = showsAttribution
    }
}
