import GeoData
import MapStyle

extension StylePainter {
    /// The features with their state (``featureStates``) added to their properties under
    /// ``ExpressionContext/featureStateKeyPrefix``, where `feature-state` reads it. A feature is
    /// found by its source's `promoteId` property, else by its own id (`$id`: a vector tile
    /// feature's, a GeoJSON feature's `id`). Features as they come when no feature of the layer's
    /// source has a state (every real render): nothing is done per feature then.
    func addingStates(to features: [PreparedFeature], of layer: StyleLayer) -> [PreparedFeature] {
        guard !featureStates.isEmpty, let sourceID = layer.source, featureStates.hasStates(in: sourceID) else {
            return features
        }
        let sourceLayer: String?
        let promoted: String?
        switch style.sources[sourceID] {
        case .vector(let vector)?:
            sourceLayer = layer.sourceLayer
            promoted = vector.promoteID?.property(forSourceLayer: layer.sourceLayer)
        case .geoJSON(let geoJSON)?:
            sourceLayer = nil
            promoted = geoJSON.promoteID?.property(forSourceLayer: nil)
        default:
            return features
        }
        return features.map { feature in
            let id = feature.properties[promoted ?? "$id"]
            guard let key = id.flatMap(FeatureStates.featureID),
                let state = featureStates.state(source: sourceID, sourceLayer: sourceLayer, featureID: key)
            else { return feature }
            var stated = feature
            for (name, value) in state { stated.properties[ExpressionContext.featureStateKeyPrefix + name] = value }
            return stated
        }
    }
}
