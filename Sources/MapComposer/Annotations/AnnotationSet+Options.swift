public import MapCore
public import MapRenderer
public import MapStyle

/// Snapshot options that draw annotations, made as MapKit's snapshot options take them.
extension MapSnapshotOptions {
    /// Creates options that draw `annotations` (see ``AnnotationSet``) over the style.
    public init(
        viewport: Viewport,
        style: Style,
        annotations: [MapAnnotation],
        clusterIndex: ClusterIndex? = nil,
        clusterMemberName: String = "items",
        selectedAnnotationID: String? = nil,
        overlays: [MapOverlay] = [],
        showsAttribution: Bool = true
    ) {
        self.init(
            viewport: viewport, style: style,
            markers: AnnotationSet(
                annotations: annotations, clusterIndex: clusterIndex, clusterMemberName: clusterMemberName,
                selectedAnnotationID: selectedAnnotationID),
            overlays: overlays, showsAttribution: showsAttribution)
    }
}

/// Tile content whose markers are annotations.
extension MapTileContent {
    /// Creates tile content that draws `annotations` (see ``AnnotationSet``) with `overlays`.
    public init(
        annotations: [MapAnnotation],
        clusterIndex: ClusterIndex? = nil,
        clusterMemberName: String = "items",
        selectedAnnotationID: String? = nil,
        overlays: [MapOverlay] = []
    ) {
        self.init(
            markers: AnnotationSet(
                annotations: annotations, clusterIndex: clusterIndex, clusterMemberName: clusterMemberName,
                selectedAnnotationID: selectedAnnotationID),
            overlays: overlays)
    }
}

/// What draws a marker layer, snapshot options and tile content, with its markers read and set
/// as annotations.
public protocol AnnotatedContent {
    /// The marker layer drawn.
    var markers: (any MarkerLayer)? { get set }
}

extension MapSnapshotOptions: AnnotatedContent {}
extension MapTileContent: AnnotatedContent {}

extension AnnotatedContent {
    /// The markers as annotations: empty when the markers are none (or another layer); setting
    /// it makes the markers these annotations.
    public var annotationSet: AnnotationSet {
        get { markers as? AnnotationSet ?? AnnotationSet() }
        set { markers = newValue }
    }

    /// The annotations drawn (see ``AnnotationSet/annotations``).
    public var annotations: [MapAnnotation] {
        get { annotationSet.annotations }
        set { annotationSet.annotations = newValue }
    }

    /// The annotations' clusters (see ``AnnotationSet/clusterIndex``).
    public var clusterIndex: ClusterIndex? {
        get { annotationSet.clusterIndex }
        set { annotationSet.clusterIndex = newValue }
    }

    /// What a cluster's callout calls its members (see ``AnnotationSet/clusterMemberName``).
    public var clusterMemberName: String {
        get { annotationSet.clusterMemberName }
        set { annotationSet.clusterMemberName = newValue }
    }

    /// The annotation whose callout is shown (see ``AnnotationSet/selectedAnnotationID``).
    public var selectedAnnotationID: String? {
        get { annotationSet.selectedAnnotationID }
        set { annotationSet.selectedAnnotationID = newValue }
    }
}
