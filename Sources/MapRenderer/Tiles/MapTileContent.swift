public import MapCore

/// What tiles draw over the style: annotations (pins, marker images), their clusters, the
/// selected annotation's callout, and overlays (tracks, shapes, circles). The tile counterpart
/// of ``MapSnapshotOptions``' annotations and overlays, for a whole tileset rather than a view.
public struct MapTileContent: Sendable {
    /// The markers, drawn south over north.
    public var annotations: [MapAnnotation]
    /// One cluster index for the whole tileset, built over exactly ``annotations`` in order, and
    /// queried at each tile zoom's viewport zoom level, so every tile of a zoom shows the same
    /// clusters; `nil` draws every annotation on its own.
    public var clusterIndex: ClusterIndex?
    /// What a cluster's callout calls its members: "16 photos". The default is "items".
    public var clusterMemberName: String
    /// The annotation whose callout is shown, by ``MapAnnotation/id``; at zooms where it is in a
    /// cluster, the cluster's callout.
    public var selectedAnnotationID: String?
    /// Tracks, areas and circles, drawn at their ``MapOverlay/level``.
    public var overlays: [MapOverlay]

    /// Creates tile content; the default is nothing (a basemap).
    public init(
        annotations: [MapAnnotation] = [],
        clusterIndex: ClusterIndex? = nil,
        clusterMemberName: String = "items",
        selectedAnnotationID: String? = nil,
        overlays: [MapOverlay] = []
    ) {
        self.annotations = annotations
        self.clusterIndex = clusterIndex
        self.clusterMemberName = clusterMemberName
        self.selectedAnnotationID = selectedAnnotationID
        self.overlays = overlays
    }
}
