public import MapCore
public import MapJSON

extension JSONWriter {
    /// Writes an item of a cluster query as a GeoJSON `Feature` in supercluster's conventions, as
    /// `mapwright cluster --json` prints them and `mapwright serve` answers `/annotations.json`:
    /// members in a fixed order (`type`, `id` for clusters, `geometry`, `properties`), degrees to
    /// ``Double/displayedDegreeDecimalPlaces`` places (no binary noise such as 37.810599999999994).
    ///
    /// A cluster's properties are `cluster: true`, `cluster_id`, `point_count`,
    /// `point_count_abbreviated`, `expansion_zoom`, and `clustering_identifier` when not empty. A
    /// single annotation's are `cluster: false` followed by what `pointProperties` writes for its
    /// input index.
    public mutating func clusterFeature(_ item: ClusterItem, pointProperties: (inout JSONWriter, _ index: Int) -> Void) {
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
            pointProperties(&self, index)
        }
        endObject()
        endObject()
    }
}
