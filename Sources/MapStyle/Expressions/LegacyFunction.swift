import Foundation
import MapJSON

/// A legacy function (MapLibre Style Specification, "Deprecations: Function") as the expression
/// MapLibre converts it to: zoom functions become `interpolate` / `step` on `["zoom"]`, property
/// functions `match`, `step`, `interpolate` or `get` on the property, and zoom-and-property
/// functions (`{"property": p, "stops": [[{"zoom": z, "value": v}, out], ...]}`) an outer zoom
/// curve of property functions.
enum LegacyFunction {
    /// What the property says about its values.
    struct PropertySpec {
        /// The property's type: `number`, `color`, `string`, `array`...
        var type: String
        /// Whether its values interpolate (the default function type is then exponential).
        var interpolated: Bool = true
        /// The property's default, used when a categorical function has no match.
        var defaultValue: JSONValue?
        /// An array property's item type and length.
        var itemType: String?
        var length: Int?
        /// An enum property's values.
        var enumValues: [String] = []
    }

    static func convert(_ function: [String: JSONValue], spec: PropertySpec) -> JSONValue {
        guard case .array(let rawStops)? = function["stops"] else { return identity(function, spec: spec) }
        let zoomAndProperty: Bool
        if case .array(let first)? = rawStops.first, case .object? = first.first {
            zoomAndProperty = true
        } else {
            zoomAndProperty = false
        }
        let featureDependent = zoomAndProperty || function["property"] != nil
        let stops: [(JSONValue, JSONValue)] = rawStops.compactMap { stop in
            guard case .array(let pair) = stop, pair.count == 2 else { return nil }
            return (pair[0], literal(pair[1]))
        }
        if zoomAndProperty { return zoomAndPropertyFunction(function, spec: spec, stops: stops) }
        if featureDependent { return propertyFunction(function, spec: spec, stops: stops) }
        return zoomFunction(function, spec: spec, stops: stops)
    }

    private static func literal(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array, .object, .null: return .array([.string("literal"), value])
        default: return value
        }
    }

    private static func identity(_ function: [String: JSONValue], spec: PropertySpec) -> JSONValue {
        let get = JSONValue.array([.string("get"), function["property"] ?? .null])
        guard let fallback = function["default"] else {
            return spec.type == "string" ? .array([.string("string"), get]) : get
        }
        if spec.type == "enum" {
            return .array([.string("match"), get, .array(spec.enumValues.map(JSONValue.string)), get, fallback])
        }
        var expression: [JSONValue] = [.string(spec.type == "color" ? "to-color" : spec.type), get, literal(fallback)]
        if spec.type == "array" {
            expression.insert(
                contentsOf: [.string(spec.itemType ?? "value"), spec.length.map { .number(Double($0)) } ?? .null], at: 1
            )
        }
        return .array(expression)
    }

    private static func interpolateOperator(_ function: [String: JSONValue]) -> JSONValue {
        switch function["colorSpace"] {
        case .string("hcl")?: return .string("interpolate-hcl")
        case .string("lab")?: return .string("interpolate-lab")
        default: return .string("interpolate")
        }
    }

    private static func type(_ function: [String: JSONValue], spec: PropertySpec) -> String {
        if case .string(let type)? = function["type"] { return type }
        return spec.interpolated ? "exponential" : "interval"
    }

    private static func curveType(_ function: [String: JSONValue]) -> JSONValue {
        if case .number(let base)? = function["base"], base != 1 {
            return .array([.string("exponential"), .number(base)])
        }
        return .array([.string("linear")])
    }

    private static func append(_ curve: inout [JSONValue], _ input: JSONValue, _ output: JSONValue, isStep: Bool) {
        if curve.count > 3 && input == curve[curve.count - 2] { return }
        if !(isStep && curve.count == 2) { curve.append(input) }
        curve.append(output)
    }

    private static func fixDegenerateStep(_ curve: inout [JSONValue]) {
        if curve.first == .string("step") && curve.count == 3 {
            curve.append(.number(0))
            curve.append(curve[2])
        }
    }

    private static func zoomFunction(
        _ function: [String: JSONValue], spec: PropertySpec, stops: [(JSONValue, JSONValue)]
    ) -> JSONValue {
        let input = JSONValue.array([.string("zoom")])
        var curve: [JSONValue]
        let isStep: Bool
        switch type(function, spec: spec) {
        case "interval":
            curve = [.string("step"), input]
            isStep = true
        default:
            curve = [interpolateOperator(function), curveType(function), input]
            isStep = false
        }
        for (input, output) in stops { append(&curve, input, output, isStep: isStep) }
        fixDegenerateStep(&curve)
        return .array(curve)
    }

    private static func fallback(_ function: [String: JSONValue], spec: PropertySpec) -> JSONValue {
        if let value = function["default"] ?? spec.defaultValue { return literal(value) }
        return spec.type == "resolvedImage" ? .string("") : .null
    }

    private static func propertyFunction(
        _ function: [String: JSONValue], spec: PropertySpec, stops: [(JSONValue, JSONValue)]
    ) -> JSONValue {
        let get = JSONValue.array([.string("get"), function["property"] ?? .null])
        let kind = type(function, spec: spec)
        func guarded(_ curve: [JSONValue]) -> JSONValue {
            guard let value = function["default"] else { return .array(curve) }
            return .array([
                .string("case"), .array([.string("=="), .array([.string("typeof"), get]), .string("number")]),
                .array(curve), literal(value),
            ])
        }
        switch kind {
        case "categorical":
            if case .bool? = stops.first?.0 {
                var expression: [JSONValue] = [.string("case")]
                for (input, output) in stops { expression += [.array([.string("=="), get, input]), output] }
                expression.append(fallback(function, spec: spec))
                return .array(expression)
            }
            var expression: [JSONValue] = [.string("match"), get]
            for (input, output) in stops { append(&expression, input, output, isStep: false) }
            expression.append(fallback(function, spec: spec))
            return .array(expression)
        case "interval":
            var curve: [JSONValue] = [.string("step"), .array([.string("number"), get])]
            for (input, output) in stops { append(&curve, input, output, isStep: true) }
            fixDegenerateStep(&curve)
            return guarded(curve)
        case "exponential":
            var curve: [JSONValue] = [
                interpolateOperator(function), curveType(function), .array([.string("number"), get]),
            ]
            for (input, output) in stops { append(&curve, input, output, isStep: false) }
            return guarded(curve)
        default:
            return identity(function, spec: spec)
        }
    }

    private static func zoomAndPropertyFunction(
        _ function: [String: JSONValue], spec: PropertySpec, stops: [(JSONValue, JSONValue)]
    ) -> JSONValue {
        var zooms: [JSONValue] = []
        var byZoom: [JSONValue: [(JSONValue, JSONValue)]] = [:]
        for (input, output) in stops {
            let zoom = input["zoom"] ?? .null
            if byZoom[zoom] == nil {
                zooms.append(zoom)
                byZoom[zoom] = []
            }
            byZoom[zoom]!.append((input["value"] ?? .null, output))
        }
        let inner = function.filter { ["type", "property", "default"].contains($0.key) }
        let isStep = !spec.interpolated
        var curve: [JSONValue] =
            isStep
            ? [.string("step"), .array([.string("zoom")])]
            : [interpolateOperator(function), .array([.string("linear")]), .array([.string("zoom")])]
        for zoom in zooms {
            append(&curve, zoom, propertyFunction(inner, spec: spec, stops: byZoom[zoom]!), isStep: isStep)
        }
        fixDegenerateStep(&curve)
        return .array(curve)
    }
}
