import Foundation
import MapJSON
import MapRenderer
import MapStyle

extension StyleDocument {
    /// Applies `setFeatureState` (`[{source, sourceLayer?, id}, {KEY: VALUE...}]`) or
    /// `removeFeatureState` (`[{source, sourceLayer?, id?}, KEY?]`) to ``featureStates``, as GL
    /// does: a GeoJSON source's features ignore `sourceLayer`; ids are matched as text.
    mutating func applyFeatureState(_ name: String, _ arguments: [Any]) throws {
        guard let target = arguments.first as? [String: Any], let source = target["source"] as? String else {
            throw RunnerFailure("\(name) needs a target with a source")
        }
        let isGeoJSON =
            (((json["sources"] as? [String: Any])?[source] as? [String: Any])?["type"] as? String) == "geojson"
        let sourceLayer = isGeoJSON ? nil : target["sourceLayer"] as? String
        let featureID = target["id"].flatMap(Self.featureValue).flatMap(FeatureStates.featureID)
        if name == "setFeatureState" {
            guard let featureID, arguments.count >= 2, let values = arguments[1] as? [String: Any] else {
                throw RunnerFailure("setFeatureState needs a feature id and a state object")
            }
            featureStates.set(
                values.compactMapValues(Self.featureValue), source: source, sourceLayer: sourceLayer,
                featureID: featureID)
        } else {
            let key = arguments.count >= 2 ? arguments[1] as? String : nil
            guard key == nil || featureID != nil else {
                throw RunnerFailure("removeFeatureState: a key needs a feature id")
            }
            featureStates.remove(key: key, source: source, sourceLayer: sourceLayer, featureID: featureID)
        }
    }

    /// A JSON value as a feature's state holds it: arrays and objects as their JSON text.
    private static func featureValue(_ value: Any) -> FeatureValue? {
        switch value {
        case let text as String: return .string(text)
        case let number as NSNumber:
            // JSONSerialization's true and false are the NSNumbers of objCType "c".
            return String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number.doubleValue)
        case is NSNull: return .null
        default:
            guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else {
                return nil
            }
            return .string(String(decoding: data, as: UTF8.self))
        }
    }
}
