/// A source's `promoteId`: the feature property used as the feature's id (for feature state),
/// in place of the id the data gives it (MapLibre Style Specification, "Sources": `promoteId`).
public enum PromoteID: Hashable, Sendable {
    /// One property name for every layer of the source (a GeoJSON source has one layer).
    case property(String)
    /// A property name per source layer (`{"buildings": "osm_id"}`); layers not named keep
    /// their own ids.
    case bySourceLayer([String: String])

    /// The property that gives a feature of `sourceLayer` its id; nil keeps the feature's own.
    /// A source without layers (GeoJSON) passes nil and reads a ``property(_:)`` promotion only.
    public func property(forSourceLayer sourceLayer: String?) -> String? {
        switch self {
        case .property(let name): return name
        case .bySourceLayer(let names): return sourceLayer.flatMap { names[$0] }
        }
    }
}
