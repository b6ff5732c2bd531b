import Foundation
import MapJSON

extension StyleDecoder {
    /// Reads one output value of a property, at `path`.
    typealias ValueParser<Value> = (JSONValue, StylePath) throws(StyleError) -> Value

    /// Reads a property that may change with zoom: a constant, a legacy `stops` function, or an
    /// `interpolate` / `step` expression on `["zoom"]`.
    ///
    /// - Parameters:
    ///   - isArrayTyped: Whether the property's constants are arrays (`text-font`,
    ///     `line-dasharray`), so an array is an expression only when it starts with an operator.
    mutating func styleValue<Value: StyleValueType>(
        _ json: JSONValue,
        at path: StylePath,
        isArrayTyped: Bool = false,
        parse: ValueParser<Value>
    ) throws(StyleError) -> StyleValue<Value> {
        switch json {
        case .object(let members):
            return try legacyFunction(members, at: path, parse: parse)
        case .array(let items):
            guard case .string(let op) = items.first, !isArrayTyped || StyleDecoder.expressionOperators.contains(op)
            else { return .constant(try parse(json, path)) }
            switch op {
            case "literal":
                return .constant(try literal(items, at: path, parse: parse))
            case "interpolate":
                return try interpolateExpression(items, at: path, parse: parse)
            case "step":
                return try stepExpression(items, at: path, parse: parse)
            default:
                throw error(.unsupportedExpression(
                    "'\(op)' expressions are outside Mapwright's subset here: use a constant, zoom stops, "
                        + "or 'interpolate' or 'step' on [\"zoom\"]"
                ), at: path)
            }
        default:
            return .constant(try parse(json, path))
        }
    }

    /// An output: a plain value, or `["literal", value]`.
    private func output<Value>(_ json: JSONValue, at path: StylePath, parse: ValueParser<Value>) throws(StyleError) -> Value {
        if case .array(let items) = json, case .string("literal") = items.first {
            return try literal(items, at: path, parse: parse)
        }
        return try parse(json, path)
    }

    private func literal<Value>(_ items: [JSONValue], at path: StylePath, parse: ValueParser<Value>) throws(StyleError) -> Value {
        guard items.count == 2 else {
            throw error(.invalidValue("'literal' takes exactly one value"), at: path)
        }
        return try parse(items[1], path.appending(index: 1))
    }

    /// `{"stops": [[z, v], ...], "base": b, "type": "exponential" | "interval"}`
    /// (MapLibre Style Specification, "Deprecations: Function"). The default type is exponential
    /// for interpolable values and interval otherwise.
    private mutating func legacyFunction<Value: StyleValueType>(
        _ members: [String: JSONValue],
        at path: StylePath,
        parse: ValueParser<Value>
    ) throws(StyleError) -> StyleValue<Value> {
        if members["property"] != nil {
            throw error(.unsupportedExpression("property functions are outside Mapwright's subset: only zoom stops"), at: path)
        }
        reportUnknownKeys(members, known: ["stops", "base", "type"], at: path) {
            "unknown or unsupported key '\($0)' in a zoom function (ignored)"
        }
        guard let stopsJSON = members["stops"] else { throw error(.missingKey("stops"), at: path) }
        let stopsPath = path.appending("stops")
        var stops: [(zoom: Double, value: Value)] = []
        for (index, stopJSON) in try array(stopsJSON, at: stopsPath).enumerated() {
            let stopPath = stopsPath.appending(index: index)
            let pair = try array(stopJSON, at: stopPath)
            guard pair.count == 2 else {
                throw error(.invalidValue("a stop is a [zoom, value] pair"), at: stopPath)
            }
            let zoom = try number(pair[0], in: 0...30, at: stopPath.appending(index: 0))
            stops.append((zoom, try output(pair[1], at: stopPath.appending(index: 1), parse: parse)))
        }
        try checkStops(stops.map(\.zoom), at: stopsPath)

        let base = try members["base"].map { value throws(StyleError) in
            try number(value, in: 0...Double.infinity, at: path.appending("base"))
        } ?? 1
        let interpolable = Value.interpolated(from: stops[0].value, to: stops[0].value, fraction: 0) != nil
        let type = try members["type"].map { value throws(StyleError) in try string(value, at: path.appending("type")) }
        switch type ?? (interpolable ? "exponential" : "interval") {
        case "exponential" where interpolable:
            return .interpolate(.exponential(base: base), stops: stops)
        case "interval":
            return .interpolate(.step, stops: stops)
        case "exponential":
            throw error(.invalidValue("this property cannot be interpolated: use \"type\": \"interval\""), at: path.appending("type"))
        case let other:
            throw error(.unsupportedExpression(
                "function type '\(other)' is outside Mapwright's subset: expected exponential or interval"
            ), at: path.appending("type"))
        }
    }

    /// `["interpolate", ["linear"] | ["exponential", base], ["zoom"], z0, v0, z1, v1, ...]`
    /// (MapLibre Style Specification, "Expressions: interpolate").
    private func interpolateExpression<Value: StyleValueType>(
        _ items: [JSONValue],
        at path: StylePath,
        parse: ValueParser<Value>
    ) throws(StyleError) -> StyleValue<Value> {
        guard items.count >= 5, items.count % 2 == 1 else {
            throw error(.invalidValue(
                "'interpolate' takes an interpolation type, [\"zoom\"] and pairs of zoom and value"
            ), at: path)
        }
        let interpolation: StyleValue<Value>.Interpolation
        let typePath = path.appending(index: 1)
        let type = try array(items[1], at: typePath)
        switch type.first {
        case .string("linear") where type.count == 1:
            interpolation = .linear
        case .string("exponential") where type.count == 2:
            interpolation = .exponential(base: try number(type[1], in: 0...Double.infinity, at: typePath.appending(index: 1)))
        default:
            throw error(.unsupportedExpression(
                "interpolation \(items[1].jsonText) is outside Mapwright's subset: expected [\"linear\"] or [\"exponential\", base]"
            ), at: typePath)
        }
        try requireZoomInput(items[2], at: path.appending(index: 2))
        let stops = try stopPairs(items.dropFirst(3), firstIndex: 3, at: path, parse: parse)
        guard Value.interpolated(from: stops[0].value, to: stops[0].value, fraction: 0) != nil else {
            throw error(.invalidValue("this property cannot be interpolated: use 'step'"), at: path)
        }
        return .interpolate(interpolation, stops: stops)
    }

    /// `["step", ["zoom"], v0, z1, v1, ...]` (MapLibre Style Specification, "Expressions: step").
    private func stepExpression<Value: StyleValueType>(
        _ items: [JSONValue],
        at path: StylePath,
        parse: ValueParser<Value>
    ) throws(StyleError) -> StyleValue<Value> {
        guard items.count >= 3, items.count % 2 == 1 else {
            throw error(.invalidValue("'step' takes [\"zoom\"], a base value and pairs of zoom and value"), at: path)
        }
        try requireZoomInput(items[1], at: path.appending(index: 1))
        let base = try output(items[2], at: path.appending(index: 2), parse: parse)
        let stops = items.count > 3 ? try stopPairs(items.dropFirst(3), firstIndex: 3, at: path, parse: parse) : []
        return .step(base, stops: stops)
    }

    private func requireZoomInput(_ json: JSONValue, at path: StylePath) throws(StyleError) {
        guard json == .array([.string("zoom")]) else {
            throw error(.unsupportedExpression(
                "the input \(json.jsonText) is outside Mapwright's subset: only [\"zoom\"]"
            ), at: path)
        }
    }

    private func stopPairs<Value>(
        _ items: ArraySlice<JSONValue>,
        firstIndex: Int,
        at path: StylePath,
        parse: ValueParser<Value>
    ) throws(StyleError) -> [(zoom: Double, value: Value)] {
        var stops: [(zoom: Double, value: Value)] = []
        var index = firstIndex
        while index + 1 < firstIndex + items.count {
            let zoom = try number(items[index], in: 0...30, at: path.appending(index: index))
            stops.append((zoom, try output(items[index + 1], at: path.appending(index: index + 1), parse: parse)))
            index += 2
        }
        try checkStops(stops.map(\.zoom), at: path)
        return stops
    }

    private func checkStops(_ zooms: [Double], at path: StylePath) throws(StyleError) {
        guard !zooms.isEmpty else { throw error(.invalidValue("a zoom function needs at least one stop"), at: path) }
        guard zip(zooms, zooms.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw error(.invalidValue("stop zooms must increase: \(zooms.map { JSONValue.number($0).jsonText })"), at: path)
        }
    }

    // MARK: - Output values

    func color(_ json: JSONValue, at path: StylePath) throws(StyleError) -> Color {
        do {
            return try Color(css: try string(json, at: path))
        } catch {
            throw error.located(file: file, path: path)
        }
    }

    /// A parser for numbers in a range, such as opacities in [0, 1].
    func number(in range: ClosedRange<Double>) -> ValueParser<Double> {
        { json, path throws(StyleError) in try self.number(json, in: range, at: path) }
    }

    func fontList(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [String] {
        var fonts: [String] = []
        for (index, item) in try array(json, at: path).enumerated() {
            fonts.append(try string(item, at: path.appending(index: index)))
        }
        guard !fonts.isEmpty else { throw error(.invalidValue("a font list needs at least one font"), at: path) }
        return fonts
    }

    func dashArray(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [Double] {
        var lengths: [Double] = []
        for (index, item) in try array(json, at: path).enumerated() {
            lengths.append(try number(item, in: 0...Double.infinity, at: path.appending(index: index)))
        }
        guard lengths.count >= 2, lengths.contains(where: { $0 > 0 }) else {
            throw error(.invalidValue("a dash array needs at least a dash and a gap, not all zero"), at: path)
        }
        return lengths
    }

    func enumeration<Value: RawRepresentable & CaseIterable>(_ json: JSONValue, at path: StylePath) throws(StyleError) -> Value
    where Value.RawValue == String {
        let text = try string(json, at: path)
        guard let value = Value(rawValue: text) else {
            let expected = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw error(.invalidValue("'\(text)' is not one of \(expected)"), at: path)
        }
        return value
    }

    /// Operator names of the MapLibre Style Specification's expressions, for telling an
    /// array-typed constant such as a font list from an expression.
    static let expressionOperators: Set<String> = [
        "literal", "interpolate", "interpolate-hcl", "interpolate-lab", "step", "zoom", "get", "has", "in", "match",
        "case", "coalesce", "let", "var", "at", "index-of", "slice", "length", "concat", "format", "image",
        "number-format", "to-string", "to-number", "to-boolean", "to-color", "string", "number", "boolean", "array",
        "object", "collator", "typeof", "feature-state", "geometry-type", "id", "properties", "global-state",
        "line-progress", "heatmap-density", "accumulated", "all", "any", "!", "==", "!=", "<", "<=", ">", ">=", "+",
        "-", "*", "/", "%", "^", "abs", "ceil", "floor", "round", "min", "max", "sqrt", "ln", "log10", "log2", "e",
        "pi", "sin", "cos", "tan", "asin", "acos", "atan", "downcase", "upcase", "resolved-locale", "is-supported-script",
        "rgb", "rgba", "to-rgba", "distance", "within", "elevation",
    ]
}
