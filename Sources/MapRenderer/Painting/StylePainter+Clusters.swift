import GeoData
import MapCore
import MapData
import MapJSON
import MapStyle

extension StylePainter {
    /// The features of a clustered GeoJSON source (`"cluster": true`) in view at the style's
    /// zoom, as MapLibre draws them: each cluster a point with `cluster` (true), `cluster_id`,
    /// `point_count` and `point_count_abbreviated` and the source's `clusterProperties`
    /// accumulated over its points, each point that stands alone with its own properties; lines
    /// and polygons of the source are not clustered and come as they are.
    ///
    /// The index is supercluster's (the project's ``ClusterIndex``, built once per source and
    /// options), in MapLibre's units: the radius in points of 512-point tiles, queried at the
    /// style's (MapLibre's) zoom, so a cluster's members and counts are GL's.
    func clusteredFeatures(
        of prepared: PreparedLayer, clustering: GeoJSONSource.Clustering, key: String, in rect: MapRect
    ) -> [PreparedFeature] {
        let features = prepared.features
        guard
            let index = data.clusterIndex(
                key: key, clustering: clustering,
                make: { () -> ([ClusterInput], [(feature: Int, point: MapPoint)]) in
                    var inputs: [ClusterInput] = []
                    var points: [(Int, MapPoint)] = []
                    for (offset, feature) in features.enumerated() {
                        for point in feature.geometry.points {
                            inputs.append(ClusterInput(coordinate: point.coordinate, clusteringIdentifier: ""))
                            points.append((offset, point))
                        }
                    }
                    return (inputs, points)
                })
        else { return features }
        var result: [PreparedFeature] = features.filter { $0.geometry.points.isEmpty }
        for placed in index.index.items(in: rect, zoomLevel: zoomLevel) {
            switch placed.item {
            case .point(let input, _):
                let source = index.points[input]
                var feature = features[source.feature]
                feature.geometry = PreparedGeometry(points: [placed.mapPoint])
                result.append(feature)
            case .cluster(let cluster):
                var properties: [String: FeatureValue] = [
                    "cluster": .bool(true), "cluster_id": .number(Double(cluster.id.rawValue)),
                    "point_count": .number(Double(cluster.count)),
                    "point_count_abbreviated": .string(cluster.abbreviatedCount),
                ]
                if !clustering.properties.isEmpty, let leaves = try? index.index.leaves(of: cluster.id, limit: .max) {
                    let points = leaves.map { features[index.points[$0].feature].styleValues }
                    for property in clustering.properties {
                        properties[property.name] =
                            property.accumulated(over: points, zoom: zoomLevel).map(FeatureValue.init) ?? .null
                    }
                }
                result.append(
                    PreparedFeature(
                        sourceIndex: -1, properties: properties, geometry: PreparedGeometry(points: [placed.mapPoint])))
            }
        }
        return result
    }
}

extension FeatureValue {
    /// An accumulated cluster property as a feature property: strings, numbers and booleans as
    /// they are, anything else (arrays, objects, colours) as its text, as GL's feature
    /// properties hold JSON.
    init(_ value: ExpressionValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        default: self = .string(value.text)
        }
    }
}
