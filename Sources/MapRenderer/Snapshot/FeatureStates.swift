public import MapJSON
import MapStyle

/// The state of features by source, source layer and feature id, for the style's
/// `["feature-state", KEY]` (MapLibre's `setFeatureState`, `removeFeatureState`): part of a
/// render request (``MapSnapshotOptions/featureStates``), empty by default, when every
/// `feature-state` is null.
///
/// Features are told apart as MapLibre tells them: by their id as text (`1` and `"1"` are one
/// feature), or by the property their source's `promoteId` names. A GeoJSON source has no
/// source layers: its states are kept under a nil source layer.
public struct FeatureStates: Hashable, Sendable {
    /// One feature of one source (layer).
    struct Target: Hashable, Sendable {
        var source: String
        var sourceLayer: String?
        var featureID: String
    }

    private var states: [Target: [String: FeatureValue]] = [:]
    /// The sources with at least one feature's state.
    private var sources: Set<String> = []

    public init() {}

    /// Whether no feature has a state.
    public var isEmpty: Bool { states.isEmpty }

    /// Sets `values` on a feature, keeping its other keys (`setFeatureState`).
    public mutating func set(
        _ values: [String: FeatureValue], source: String, sourceLayer: String? = nil, featureID: String
    ) {
        states[Target(source: source, sourceLayer: sourceLayer, featureID: featureID), default: [:]].merge(values) {
            _, new in new
        }
        sources.insert(source)
    }

    /// Removes state (`removeFeatureState`): one key of a feature, a feature's whole state
    /// (`key` nil), or the state of every feature of the source layer (`featureID` nil).
    public mutating func remove(
        key: String? = nil, source: String, sourceLayer: String? = nil, featureID: String? = nil
    ) {
        guard let featureID else {
            states = states.filter { $0.key.source != source || $0.key.sourceLayer != sourceLayer }
            sources = Set(states.keys.map(\.source))
            return
        }
        let target = Target(source: source, sourceLayer: sourceLayer, featureID: featureID)
        if let key { states[target]?[key] = nil } else { states[target] = nil }
        if states[target]?.isEmpty == true { states[target] = nil }
        sources = Set(states.keys.map(\.source))
    }

    /// Whether any feature of the source has a state.
    public func hasStates(in source: String) -> Bool { sources.contains(source) }

    /// A feature's state; nil when it has none.
    public func state(source: String, sourceLayer: String? = nil, featureID: String) -> [String: FeatureValue]? {
        states[Target(source: source, sourceLayer: sourceLayer, featureID: featureID)]
    }

    /// A feature id as states are keyed by: text as is, numbers as JavaScript writes them
    /// (`1`, `1.2`); nil for a boolean or null, which identify no feature.
    public static func featureID(_ value: FeatureValue) -> String? {
        switch value {
        case .string(let text): return text
        case .number: return value.text
        case .bool, .null: return nil
        }
    }
}
