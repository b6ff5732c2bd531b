public import MapCore
public import MapJSON

/// What a single annotation of a cluster query carries in its GeoJSON feature besides
/// `cluster: false`: `id`, `title`, then `subtitle` and `photographer` when not nil.
public struct ClusterPointProperties {
    public var id: String
    public var title: String
    public var subtitle: String?
    public var photographer: String?

    public init(id: String, title: String, subtitle: String? = nil, photographer: String? = nil) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.photographer = photographer
    }
}

extension JSONWriter {
    /// Writes the items of a cluster query as a GeoJSON `FeatureCollection` of
    /// ``clusterFeature(_:point:)``s, as `mapwright cluster --json` prints them and `mapwright
    /// serve` answers `/annotations.json` and a cluster's leaves.
    ///
    /// - Parameters:
    ///   - pieceBytes: How many bytes may gather before `drain` is called with the writer (to
    ///     write them out and empty it), between features; nil (the default) never calls it.
    ///   - point: The properties of the single annotation with an input index.
    public mutating func clusterFeatureCollection(
        _ items: [ClusterItem], pieceBytes: Int? = nil, drain: (inout JSONWriter) -> Void = { _ in },
        point: (_ index: Int) -> ClusterPointProperties
    ) {
        beginObject()
        key("type")
        string("FeatureCollection")
        key("features")
        beginArray()
        for item in items {
            clusterFeature(item, point: point)
            if let pieceBytes, bytes.count >= pieceBytes { drain(&self) }
        }
        endArray()
        endObject()
    }

    /// Writes an item of a cluster query as a GeoJSON `Feature` in supercluster's conventions:
    /// members in a fixed order (`type`, `id` for clusters, `geometry`, `properties`), degrees to
    /// ``Double/displayedDegreeDecimalPlaces`` places (no binary noise such as 37.810599999999994).
    ///
    /// A cluster's properties are `cluster: true`, `cluster_id`, `point_count`,
    /// `point_count_abbreviated`, `expansion_zoom`, and `clustering_identifier` when not empty. A
    /// single annotation's are `cluster: false` followed by the ``ClusterPointProperties`` that
    /// `point` gives for its input index.
    public mutating func clusterFeature(_ item: ClusterItem, point: (_ index: Int) -> ClusterPointProperties) {
        beginObject()
        key("type")
        string("Feature")
        if case .cluster(let cluster) = item {
            key("id")
            number(Double(cluster.id.rawValue))
        }
        key("geometry")
        beginObject()
        key("type")
        string("Point")
        key("coordinates")
        beginArray()
        number(item.coordinate.longitude, decimalPlaces: Double.displayedDegreeDecimalPlaces)
        number(item.coordinate.latitude, decimalPlaces: Double.displayedDegreeDecimalPlaces)
        endArray()
        endObject()
        key("properties")
        beginObject()
        switch item {
        case .cluster(let cluster):
            key("cluster")
            bool(true)
            key("cluster_id")
            number(Double(cluster.id.rawValue))
            key("point_count")
            number(Double(cluster.count))
            key("point_count_abbreviated")
            string(cluster.abbreviatedCount)
            key("expansion_zoom")
            number(Double(cluster.expansionZoom))
            if let identifier = cluster.clusteringIdentifier, !identifier.isEmpty {
                key("clustering_identifier")
                string(identifier)
            }
        case .point(let index, _):
            key("cluster")
            bool(false)
            let properties = point(index)
            key("id")
            string(properties.id)
            key("title")
            string(properties.title)
            if let subtitle = properties.subtitle {
                key("subtitle")
                string(subtitle)
            }
            if let photographer = properties.photographer {
                key("photographer")
                string(photographer)
            }
        }
        endObject()
        endObject()
    }
}
