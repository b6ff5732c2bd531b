import MapCore
import MapStyle

/// What a snapshot shows: a viewport, a style, and the annotations and overlays on top
/// (MapKit's MKMapSnapshotter.Options).
public struct MapSnapshotOptions: Sendable {
    /// The camera and view size (in points) and scale (pixels per point).
    public var viewport: Viewport
    /// The style: basemap layers, pin and callout appearance.
    public var style: Style
    /// The markers, drawn south over north.
    public var annotations: [MapAnnotation]
    /// The annotation whose callout is shown, by ``MapAnnotation/id``.
    public var selectedAnnotationID: String?
    /// Tracks, areas and circles, drawn at their ``MapOverlay/level``.
    public var overlays: [MapOverlay]
    /// Whether the sources' attribution is drawn in the bottom-right corner. The default is true.
    public var showsAttribution: Bool

    /// Creates options; only the viewport and style are required.
    public init(
        viewport: Viewport,
        style: Style,
        annotations: [MapAnnotation] = [],
        selectedAnnotationID: String? = nil,
        overlays: [MapOverlay] = [],
        showsAttribution: Bool = true
    ) {
        self.viewport = viewport
        self.style = style
        self.annotations = annotations
        self.selectedAnnotationID = selectedAnnotationID
        self.overlays = overlays
        self.showsAttribution = showsAttribution
    }
}
