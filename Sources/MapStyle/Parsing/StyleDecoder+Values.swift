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
        fallback: Value,
        parse: ValueParser<Value>
    ) throws(StyleError) -> StyleValue<Value> {
        switch json {
        case .object(let members):
            if let property = members["property"] {
                return .expression(
                    try propertyFunction(members, property: property, at: path, fallback: fallback, parse: parse),
                    fallback: fallback)
            }
            if Value.self == Color.self, let space = members["colorSpace"], space != .string("rgb") {
                // A zoom function blending colours in HCL or Lab: the expression MapLibre makes of
                // it. Other values ignore colorSpace, as in MapLibre.
                return .expression(
                    try propertyFunction(members, property: nil, at: path, fallback: fallback, parse: parse),
                    fallback: fallback)
            }
            return try legacyFunction(members, at: path, parse: parse)
        case .array(let items):
            guard case .string(let op) = items.first, !isArrayTyped || StyleDecoder.expressionOperators.contains(op)
            else { return .constant(try parse(json, path)) }
            switch op {
            case "literal":
                return .constant(try literal(items, at: path, parse: parse))
            case "interpolate" where isZoomFunction(items, outputsFrom: 3) && isLinearOrExponential(items[1]):
                return try interpolateExpression(items, at: path, parse: parse)
            case "step" where isZoomFunction(items, outputsFrom: 2):
                return try stepExpression(items, at: path, parse: parse)
            default:
                // Any other expression is evaluated per feature; its constant outputs are
                // checked now, as the property reads them, where they can be told apart.
                let parsed = try expression(
                    json, at: path, expecting: Value.expressionType, coercingStrings: Value.self == String.self,
                    isProperty: true)
                try checkConstantOutputs(of: parsed, at: path, parse: parse)
                return .expression(parsed, fallback: fallback)
            }
        default:
            return .constant(try parse(json, path))
        }
    }

    /// Whether an `interpolate` or `step` is a plain zoom function: input `["zoom"]` and every
    /// output a constant (so it is read as stops, with each output checked as the property's type).
    /// Whether an interpolation type is `["linear"]` or `["exponential", …]`, read as stops
    /// (cubic Bézier curves are evaluated as expressions).
    private func isLinearOrExponential(_ json: JSONValue) -> Bool {
        guard case .array(let type) = json, let first = type.first else { return false }
        return first == .string("linear") || first == .string("exponential")
    }

    private func isZoomFunction(_ items: [JSONValue], outputsFrom first: Int) -> Bool {
        let inputIndex = first - 1
        guard items.count > inputIndex, items[inputIndex] == .array([.string("zoom")]) else { return false }
        var index = first
        while index < items.count {
            let outputIndex = index == first && items[0] == .string("step") ? index : index + 1
            // An output that is an expression (not a literal, nor an array constant such as a
            // font list) makes this an expression.
            if outputIndex < items.count, case .array(let output) = items[outputIndex],
                case .string(let op)? = output.first,
                op != "literal", StyleDecoder.expressionOperators.contains(op)
            {
                return false
            }
            index = outputIndex + 1
        }
        return true
    }

    /// Checks the constant outputs of an expression (a `match` arm's `"#fff"`, a `case`'s
    /// width) as the property's values, so that a misspelt colour is an error at load, not a
    /// silent default at draw.
    private func checkConstantOutputs<Value>(
        of expression: StyleExpression, at path: StylePath, parse: ValueParser<Value>
    ) throws(StyleError) {
        func check(_ output: StyleExpression) throws(StyleError) {
            switch output {
            case .literal(.null):
                return
            case .literal(let value):
                let json: JSONValue
                switch value {
                case .string(let text): json = .string(text)
                case .number(let number): json = .number(number)
                case .bool(let flag): json = .bool(flag)
                default: return
                }
                _ = try parse(json, path)
            case .match(_, let cases, let fallback):
                for arm in cases { try check(arm.output) }
                try check(fallback)
            case .condition(let arms, let fallback):
                for arm in arms { try check(arm.output) }
                try check(fallback)
            case .coalesce(let list):
                for item in list { try check(item) }
            case .step(_, let base, let stops):
                try check(base)
                for stop in stops { try check(stop.output) }
            case .interpolate(_, _, _, let stops):
                for stop in stops { try check(stop.output) }
            default:
                return
            }
        }
        try check(expression)
    }

    /// A legacy property function, `{"property": key, "type": …, "stops": [[input, output], …],
    /// "default": value}`, or a zoom-and-property function (stops `[{"zoom": z, "value": v},
    /// output]`) (MapLibre Style Specification, "Deprecations: Function"), as the expression
    /// MapLibre converts it to (see ``LegacyFunction``); with `property` nil, a zoom function
    /// (one with a `colorSpace` other than RGB).
    private mutating func propertyFunction<Value: StyleValueType>(
        _ members: [String: JSONValue], property: JSONValue?, at path: StylePath, fallback: Value,
        parse: ValueParser<Value>
    ) throws(StyleError) -> StyleExpression {
        reportUnknownKeys(members, known: ["property", "stops", "base", "type", "default", "colorSpace"], at: path) {
            "unknown or unsupported key '\($0)' in a property function (ignored)"
        }
        if let property { _ = try string(property, at: path.appending("property")) }
        if let type = members["type"] {
            let name = try string(type, at: path.appending("type"))
            guard ["identity", "categorical", "interval", "exponential"].contains(name) else {
                throw error(
                    .unsupportedExpression(
                        "function type '\(name)' is outside Mapwright's subset: expected identity, categorical, interval or exponential"
                    ), at: path.appending("type"))
            }
        }
        if members["type"] != .string("identity") {
            guard case .array(let stops)? = members["stops"] else { throw error(.missingKey("stops"), at: path) }
            guard !stops.isEmpty else {
                throw error(.invalidValue("a property function needs at least one stop"), at: path.appending("stops"))
            }
        }
        let type = Value.expressionType
        var spec = LegacyFunction.PropertySpec(type: type.kind == "value" ? "string" : type.kind)
        spec.interpolated = type == .number || type == .color
        // A categorical function without a default falls back to the property's, as in GL.
        switch fallback {
        case let number as Double: spec.defaultValue = .number(number)
        case let color as Color: spec.defaultValue = .string(ExpressionValue.color(color).text)
        case let text as String: spec.defaultValue = .string(text)
        default: break
        }
        if case .array(let item, let count) = type {
            spec.itemType = item.description
            spec.length = count
        }
        let converted = LegacyFunction.convert(members, spec: spec)
        return try expression(
            converted, at: path, expecting: type, coercingStrings: Value.self == String.self, isProperty: true)
    }

    /// An output: a plain value, or `["literal", value]`.
    private func output<Value>(_ json: JSONValue, at path: StylePath, parse: ValueParser<Value>) throws(StyleError)
        -> Value
    {
        if case .array(let items) = json, case .string("literal") = items.first {
            return try literal(items, at: path, parse: parse)
        }
        return try parse(json, path)
    }

    private func literal<Value>(_ items: [JSONValue], at path: StylePath, parse: ValueParser<Value>) throws(StyleError)
        -> Value
    {
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

        let base =
            try members["base"].map { value throws(StyleError) in
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
            throw error(
                .invalidValue("this property cannot be interpolated: use \"type\": \"interval\""),
                at: path.appending("type"))
        case let other:
            throw error(
                .unsupportedExpression(
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
            throw error(
                .invalidValue(
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
            interpolation = .exponential(
                base: try number(type[1], in: 0...Double.infinity, at: typePath.appending(index: 1)))
        default:
            throw error(
                .unsupportedExpression(
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
            throw error(
                .unsupportedExpression(
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
        // Equal zooms: the later stop applies from that zoom on.
        var kept: [(zoom: Double, value: Value)] = []
        for stop in stops {
            if kept.last?.zoom == stop.zoom { kept.removeLast() }
            kept.append(stop)
        }
        return kept
    }

    /// Stop zooms may repeat but not decrease, as MapLibre's validator has it for functions.
    private func checkStops(_ zooms: [Double], at path: StylePath) throws(StyleError) {
        guard !zooms.isEmpty else { throw error(.invalidValue("a zoom function needs at least one stop"), at: path) }
        guard zip(zooms, zooms.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            let listed = zooms.map { JSONValue.number($0).jsonText }.joined(separator: ", ")
            throw error(.invalidValue("stop zooms must not decrease: [\(listed)]"), at: path)
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

    /// `true` or `false` (`icon-allow-overlap`, ...).
    func boolean(_ json: JSONValue, at path: StylePath) throws(StyleError) -> Bool {
        guard case .bool(let flag) = json else {
            throw error(.invalidValue("expected true or false, found \(json.jsonText)"), at: path)
        }
        return flag
    }

    /// An image's name (`*-pattern`, `icon-image`): a string.
    func imageName(_ json: JSONValue, at path: StylePath) throws(StyleError) -> ResolvedImage {
        ResolvedImage(named: try string(json, at: path))
    }

    func fontList(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [String] {
        var fonts: [String] = []
        for (index, item) in try array(json, at: path).enumerated() {
            fonts.append(try string(item, at: path.appending(index: index)))
        }
        guard !fonts.isEmpty else { throw error(.invalidValue("a font list needs at least one font"), at: path) }
        return fonts
    }

    /// `text-variable-anchor`: a list of anchors.
    func anchorList(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [SymbolAnchor] {
        try array(json, at: path).enumerated().map { index, item throws(StyleError) in
            try enumeration(item, at: path.appending(index: index))
        }
    }

    /// `text-writing-mode`: a list of `horizontal` and `vertical`.
    func writingModes(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [TextWritingMode] {
        try array(json, at: path).enumerated().map { index, item throws(StyleError) in
            try enumeration(item, at: path.appending(index: index))
        }
    }

    /// `text-variable-anchor-offset`: `[anchor, [x, y], ...]`, or that list in `["literal", ...]`.
    func variableAnchorOffsets(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [VariableAnchorOffset] {
        var items = try array(json, at: path)
        if items.count == 2, case .string("literal")? = items.first {
            items = try array(items[1], at: path.appending(index: 1))
        }
        guard items.count % 2 == 0, !items.isEmpty else {
            throw error(
                .invalidValue("text-variable-anchor-offset is pairs of an anchor and an offset, [anchor, [x, y], ...]"),
                at: path)
        }
        return try stride(from: 0, to: items.count, by: 2).map { index throws(StyleError) in
            VariableAnchorOffset(
                anchor: try enumeration(items[index], at: path.appending(index: index)),
                offsetEms: try translation(items[index + 1], at: path.appending(index: index + 1)))
        }
    }

    /// A `*-translate`: two numbers, points right and down.
    func translation(_ json: JSONValue, at path: StylePath) throws(StyleError) -> Translation {
        let items = try array(json, at: path)
        guard items.count == 2 else { throw error(.invalidValue("a translation is two numbers, [x, y]"), at: path) }
        return Translation(
            xPoints: try number(items[0], at: path.appending(index: 0)),
            yPoints: try number(items[1], at: path.appending(index: 1)))
    }

    /// `icon-text-fit-padding`: four numbers, top, right, bottom, left.
    func fitPadding(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [Double] {
        let items = try array(json, at: path)
        guard items.count == 4 else {
            throw error(.invalidValue("icon-text-fit-padding is four numbers, [top, right, bottom, left]"), at: path)
        }
        return try items.enumerated().map { index, item throws(StyleError) in
            try number(item, at: path.appending(index: index))
        }
    }

    func dashArray(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [Double] {
        var lengths: [Double] = []
        for (index, item) in try array(json, at: path).enumerated() {
            lengths.append(try number(item, in: 0...Double.infinity, at: path.appending(index: index)))
        }
        // One length is a dash that runs on into itself: a solid line, as MapLibre draws it.
        guard !lengths.isEmpty, lengths.contains(where: { $0 > 0 }) else {
            throw error(.invalidValue("a dash array needs at least one length above zero"), at: path)
        }
        return lengths
    }

    func enumeration<Value: RawRepresentable & CaseIterable>(_ json: JSONValue, at path: StylePath) throws(StyleError)
        -> Value
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
        "pi", "sin", "cos", "tan", "asin", "acos", "atan", "downcase", "upcase", "resolved-locale",
        "is-supported-script",
        "rgb", "rgba", "to-rgba", "distance", "within", "elevation",
    ]
}
