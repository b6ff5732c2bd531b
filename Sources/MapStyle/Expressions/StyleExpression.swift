import Foundation

/// A MapLibre style expression (MapLibre Style Specification, "Expressions"), the subset real
/// OpenMapTiles styles use: lookups, decisions, ramps and string operations, evaluated for one
/// feature at one zoom level. For example:
///
/// ```swift
/// // ["match", ["get", "class"], ["motorway", "trunk"], 3, 1]
/// let width = StyleExpression.match(
///     .get("class"), cases: [.init(labels: ["motorway", "trunk"], output: .literal(3))], fallback: .literal(1))
/// width.evaluate(in: ExpressionContext(zoom: 14, properties: ["class": "trunk"])) // .number(3)
/// ```
///
/// Types follow the specification loosely: a value of the wrong type reads as null rather than
/// failing the render (MapLibre would log an error and use the property's default, which the
/// caller does when a value cannot be converted).
public indirect enum StyleExpression: Hashable, Sendable {
    /// A constant: `"text"`, `3`, `true`, `null`, or `["literal", value]` (arrays, objects).
    case literal(ExpressionValue)
    /// `["get", key]`: the feature's property; null when missing.
    case get(String)
    /// `["has", key]`: whether the feature has the property.
    case has(String)
    /// `["geometry-type"]`: `"Point"`, `"LineString"` or `"Polygon"` (multi-geometries too).
    case geometryType
    /// `["id"]`: the feature's id; null when it has none.
    case id
    /// `["zoom"]`: the zoom level the style is evaluated at.
    case zoom
    /// `["heatmap-density"]`: the kernel density a heatmap colours (`heatmap-color`); 0 elsewhere.
    case heatmapDensity
    /// `["!", a]`.
    case not(StyleExpression)
    /// `["all", ...]`: true when every operand is (true for none).
    case all([StyleExpression])
    /// `["any", ...]`: true when one operand is (false for none).
    case any([StyleExpression])
    /// `["==", a, b]` and the other comparisons.
    case compare(ComparisonOperator, StyleExpression, StyleExpression)
    /// `["in", needle, haystack]`: the needle among an array's items, or a substring of a string.
    case isIn(StyleExpression, StyleExpression)
    /// `["match", input, label(s), output, ..., fallback]`.
    case match(StyleExpression, cases: [MatchCase], fallback: StyleExpression)
    /// `["case", condition, output, ..., fallback]`.
    case condition([ConditionCase], fallback: StyleExpression)
    /// `["coalesce", ...]`: the first operand that is not null.
    case coalesce([StyleExpression])
    /// `["interpolate", type, input, stop, output, ...]`: numbers and colours (and arrays of
    /// numbers) blended between stops.
    case interpolate(Interpolation, input: StyleExpression, stops: [Stop])
    /// `["step", input, output0, stop1, output1, ...]`.
    case step(input: StyleExpression, base: StyleExpression, stops: [Stop])
    /// `["concat", ...]`: the operands as text, joined; null reads as empty.
    case concat([StyleExpression])
    /// `["to-string", a]`: null is `""`, numbers as JavaScript writes them.
    case toString(StyleExpression)
    /// `["to-number", a, ...]`: the first operand that converts; 0 when none does.
    case toNumber([StyleExpression])
    /// `["to-boolean", a]`: JavaScript's truthiness.
    case toBoolean(StyleExpression)
    /// `["upcase", a]`, `["downcase", a]`.
    case upcase(StyleExpression)
    case downcase(StyleExpression)
    /// `["+", ...]`, `["*", ...]`, `["-", a, b]`, `["/", a, b]`, `["%", a, b]`, `["^", a, b]`,
    /// `["min", ...]`, `["max", ...]` and one-operand functions (`abs`, `floor`, `ceil`,
    /// `round`, `sqrt`, `ln`, `log10`, `log2`): null when an operand is not a number.
    case arithmetic(ArithmeticOperator, [StyleExpression])

    /// A comparison operator.
    public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case lessThan = "<"
        case lessThanOrEqual = "<="
        case greaterThan = ">"
        case greaterThanOrEqual = ">="
    }

    /// The arithmetic operators and functions.
    public enum ArithmeticOperator: String, Hashable, Sendable, CaseIterable {
        case add = "+", multiply = "*", subtract = "-", divide = "/", remainder = "%", power = "^"
        case minimum = "min", maximum = "max"
        case absolute = "abs", floor, ceil, round, squareRoot = "sqrt", ln, log10, log2
    }

    /// A `match` arm: the labels (strings or numbers) it takes and its output.
    public struct MatchCase: Hashable, Sendable {
        public var labels: [ExpressionValue]
        public var output: StyleExpression

        public init(labels: [ExpressionValue], output: StyleExpression) {
            self.labels = labels
            self.output = output
        }
    }

    /// A `case` arm: a condition and the output when it holds.
    public struct ConditionCase: Hashable, Sendable {
        public var condition: StyleExpression
        public var output: StyleExpression

        public init(condition: StyleExpression, output: StyleExpression) {
            self.condition = condition
            self.output = output
        }
    }

    /// A stop of `interpolate` or `step`: an input value and its output.
    public struct Stop: Hashable, Sendable {
        public var input: Double
        public var output: StyleExpression

        public init(input: Double, output: StyleExpression) {
            self.input = input
            self.output = output
        }
    }

    /// How `interpolate` blends: `["linear"]` or `["exponential", base]` (base 1 is linear).
    public enum Interpolation: Hashable, Sendable {
        case exponential(base: Double)

        public static var linear: Interpolation { .exponential(base: 1) }
    }
}

/// A value an expression gives: the JSON types, and colours.
public enum ExpressionValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(Color)
    case array([ExpressionValue])

    /// The value as a feature property reads: arrays and colours are not properties.
    public init(_ value: StyleFeatureValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        }
    }

    /// The number, or nil.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The value as `to-string` writes it: null is `""`, numbers as JavaScript writes them,
    /// colours as `rgba(r,g,b,a)`, arrays as JSON.
    public var text: String {
        switch self {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return StyleFeatureValue.number(number).text ?? ""
        case .string(let text): return text
        case .color(let color):
            return "rgba(\(Int((color.red * 255).rounded())),\(Int((color.green * 255).rounded())),\(Int((color.blue * 255).rounded()))," +
                "\(StyleFeatureValue.number(color.alpha).text ?? "1"))"
        case .array(let items):
            return "[" + items.map { item in if case .string(let text) = item { return "\"\(text)\"" } else { return item.text } }
                .joined(separator: ",") + "]"
        }
    }

    /// JavaScript's truthiness, as `to-boolean` has it.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let number): return number != 0 && !number.isNaN
        case .string(let text): return !text.isEmpty
        case .color, .array: return true
        }
    }
}

/// What an expression is evaluated for: a zoom level and a feature.
public struct ExpressionContext: Sendable {
    /// The zoom level the style is evaluated at.
    public var zoom: Double
    /// The feature's properties; the renderer adds `$type` (`Point`, `LineString`, `Polygon`)
    /// and `$id` when the feature has them, as legacy filters name them.
    public var properties: [String: StyleFeatureValue]
    /// The heatmap density `["heatmap-density"]` reads, while a heatmap's colour ramp is
    /// evaluated; nil (read as 0) otherwise.
    public var heatmapDensity: Double?

    public init(zoom: Double, properties: [String: StyleFeatureValue] = [:], heatmapDensity: Double? = nil) {
        self.zoom = zoom
        self.properties = properties
        self.heatmapDensity = heatmapDensity
    }
}
