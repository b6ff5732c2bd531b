import GeoData
import MapJSON

extension MapData {
    /// A style's GeoJSON features with their ids where the style reads them: the `$id`
    /// property, as legacy filters (`["has", "$id"]`) and `["id"]` name a feature's `id`
    /// (MapLibre never reads a property of that name). A feature without an id has no `$id`.
    /// Once per source, when it is read.
    static func withStyleIDs(_ collection: FeatureCollection) -> FeatureCollection {
        FeatureCollection(
            features: collection.features.map { feature in
                var feature = feature
                switch feature.id {
                case .string(let text)?: feature.properties["$id"] = .string(text)
                case .number(let number)?: feature.properties["$id"] = .number(number)
                case nil: feature.properties["$id"] = nil
                }
                return feature
            }, skippedFeatures: collection.skippedFeatures)
    }
}
