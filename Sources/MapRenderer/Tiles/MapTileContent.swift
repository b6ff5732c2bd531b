/// What tiles draw over the style: overlays (tracks, shapes, circles) and markers with the
/// selected one's callout. The tile counterpart of ``MapSnapshotOptions``' overlays and markers,
/// for a whole tileset rather than a view.
public struct MapTileContent: Sendable {
    /// The markers and the selected one's callout (a photographer's pins and clusters:
    /// MapComposer's `AnnotationSet`), laid out for each tile from world positions so that tiles
    /// meet; the callout is placed once per zoom. The default is none.
    public var markers: (any MarkerLayer)?
    /// Tracks, areas and circles, drawn at their ``MapOverlay/level``.
    public var overlays: [MapOverlay]

    /// Creates tile content; the default is nothing (a basemap).
    public init(
        markers: (any MarkerLayer)? = nil,
        overlays: [MapOverlay] = []
    ) {
        self.markers = markers
        self.overlays = overlays
    }
}
