import MapCore
import MapStyle

extension AnnotationLayout {
    /// The colours clusters are drawn in: their members' pin colour, so a photographer's clusters
    /// match their pins.
    ///
    /// A cluster of pins takes the colour of its first member's pin. A cluster of marker images
    /// takes its clustering identifier's colour among the identifiers present, from the style's
    /// palette (``MapwrightMetadata/Pins/colors(forKeys:)``, the assignment photo maps give their
    /// pins). The identifier for all (`""`) takes the style's cluster colour.
    struct ClusterColors {
        let annotations: [MapAnnotation]
        let clusterIndex: ClusterIndex
        let style: MapwrightMetadata
        /// The palette colour of every non-empty clustering identifier of the annotations, made
        /// on first use.
        private var identifierColors: [String: Color]?

        init(annotations: [MapAnnotation], clusterIndex: ClusterIndex, style: MapwrightMetadata) {
            self.annotations = annotations
            self.clusterIndex = clusterIndex
            self.style = style
        }

        mutating func color(of cluster: Cluster) -> Color {
            guard let identifier = cluster.clusteringIdentifier, !identifier.isEmpty else {
                return style.cluster.fillColor
            }
            if let first = (try? clusterIndex.leaves(of: cluster.id, limit: 1))?.first,
                case .pin(let color) = annotations[first].marker
            {
                return color
            }
            if identifierColors == nil {
                identifierColors = style.pins.colors(
                    forKeys: annotations.compactMap(\.clusteringIdentifier).filter { !$0.isEmpty })
            }
            return identifierColors?[identifier] ?? style.pins.color(forKey: identifier)
        }
    }
}
