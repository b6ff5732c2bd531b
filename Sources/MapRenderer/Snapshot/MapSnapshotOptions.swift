public import MapCore
public import MapStyle

/// What a snapshot shows: a viewport, a style, and the annotations and overlays on top
/// (MapKit's MKMapSnapshotter.Options).
public struct MapSnapshotOptions: Sendable {
    /// The camera and view size (in points) and scale (pixels per point).
    public var viewport: Viewport
    /// The style: basemap layers, pin and callout appearance.
    public var style: Style
    /// The markers, drawn south over north.
    public var annotations: [MapAnnotation]
    /// Clusters of ``annotations``, built over exactly them, in order, and shared by every render
    /// and tile of them; `nil` draws every annotation on its own. Clusters are drawn at the
    /// viewport's zoom level as ``ClusterIndex/items(in:zoomLevel:)`` gives them, so one image
    /// and a grid of tiles of the same area show the same clusters.
    public var clusterIndex: ClusterIndex?
    /// What a cluster's callout calls its members: "16 photos". The default is "items".
    public var clusterMemberName: String
    /// The annotation whose callout is shown, by ``MapAnnotation/id``; when it is in a cluster at
    /// this zoom, the cluster's callout is shown.
    public var selectedAnnotationID: String?
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
        annotations: [MapAnnotation] = [],
        clusterIndex: ClusterIndex? = nil,
        clusterMemberName: String = "items",
        selectedAnnotationID: String? = nil,
        overlays: [MapOverlay] = [],
        showsAttribution: Bool = true
    ) {
        self.viewport = viewport
        self.style = style
        self.annotations = annotations
        self.clusterIndex = clusterIndex
        self.clusterMemberName = clusterMemberName
        self.selectedAnnotationID = selectedAnnotationID
        self.overlays = overlays
        self.showsAttribution = showsAttribution
    }
}
