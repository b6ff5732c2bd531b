import Foundation
public import MapJSON

/// A MapLibre style expression (MapLibre Style Specification, "Expressions"), parsed and type
/// checked as the specification's validator does (``StyleDecoder`` reads them; see
/// ``ExpressionParser``), evaluated for one feature at one zoom level. For example:
///
/// ```swift
/// // ["match", ["get", "class"], ["motorway", "trunk"], 3, 1]
/// let width = try ExpressionParser.parse(json, expecting: .number)
/// width.evaluate(in: ExpressionContext(zoom: 14, properties: ["class": "trunk"])) // .number(3)
/// ```
///
/// Evaluation errors (a `["number", ["get", "x"]]` on a string) make ``evaluate(in:)`` null,
/// and the caller uses the property's default, as MapLibre does; ``evaluateThrowing(in:)``
/// gives the error.
public indirect enum StyleExpression: Hashable, Sendable {
    /// A constant, folded at parse time where every operand was constant.
    case literal(ExpressionValue)
    /// One of the specification's functions with fixed operands (`get`, `+`, `rgba`, `concat`...).
    case call(ExpressionOperator, [StyleExpression])
    /// `["string", a, b...]` and the like, and the checks inserted where a `value` stands for a
    /// type: the first operand of the type, or an error.
    case assertion(ExpressionType, [StyleExpression])
    /// `["to-number", ...]`, `["to-color", ...]`, `["to-string", a]`, `["to-boolean", a]` and
    /// the conversions inserted where a string stands for a colour or formatted text.
    case coercion(ExpressionType, [StyleExpression])
    /// `["==", a, b, collator?]` and the other comparisons; `checked` when both sides are
    /// `value`s, so their types are checked when evaluated.
    case compare(ComparisonOperator, StyleExpression, StyleExpression, collator: StyleExpression?, checked: Bool)
    /// `["all", ...]`: true when every operand is (true for none).
    case all([StyleExpression])
    /// `["any", ...]`: true when one operand is (false for none).
    case any([StyleExpression])
    /// `["case", condition, output, ..., fallback]`.
    case condition([ConditionCase], fallback: StyleExpression)
    /// `["match", input, label(s), output, ..., fallback]`: labels match inputs of their type.
    case match(StyleExpression, cases: [MatchCase], fallback: StyleExpression)
    /// `["coalesce", ...]`: the first operand that is not null.
    case coalesce([StyleExpression])
    /// `["interpolate", type, input, stop, output, ...]` and `interpolate-hcl` / `-lab`.
    case interpolate(Interpolation, space: ColorSpace, input: StyleExpression, stops: [Stop])
    /// `["step", input, output0, stop1, output1, ...]`.
    case step(input: StyleExpression, base: StyleExpression, stops: [Stop])
    /// `["var", name]`: the expression `let` bound to the name.
    case variable(String, StyleExpression)
    /// `["at", index, array]`.
    case at(StyleExpression, StyleExpression)
    /// `["in", needle, haystack]`: an array's item, or a substring.
    case isIn(StyleExpression, StyleExpression)
    /// `["index-of", needle, haystack, from?]`.
    case indexOf(StyleExpression, StyleExpression, from: StyleExpression?)
    /// `["slice", input, begin, end?]`.
    case slice(StyleExpression, StyleExpression, end: StyleExpression?)
    /// `["format", section, {options}, ...]`.
    case format([FormatSection])
    /// `["number-format", number, {options}]`.
    case numberFormat(StyleExpression, NumberFormatOptions)
    /// `["collator", {options}]`.
    case collator(caseSensitive: StyleExpression, diacriticSensitive: StyleExpression, locale: StyleExpression?)
    /// `["within", geojson]`: whether the feature lies inside the polygons.
    case within(GeoPolygons)
    /// `["distance", geojson]`: the feature's shortest distance to the geometry, in metres.
    case distance(GeoShapes)

    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    public enum ComparisonOperator: String, Hashable, Sendable {
        case equal = "=="
        case notEqual = "!="
        case lessThan = "<"
        case lessThanOrEqual = "<="
        case greaterThan = ">"
        case greaterThanOrEqual = ">="

        var isOrdering: Bool { self != .equal && self != .notEqual }
    }

    /// A `match` arm: the labels (strings or numbers) that choose its output.
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

    /// How `interpolate` blends: `["linear"]`, `["exponential", base]` (base 1 is linear) or
    /// `["cubic-bezier", x1, y1, x2, y2]`.
    public enum Interpolation: Hashable, Sendable {
        case exponential(base: Double)
        case cubicBezier(Double, Double, Double, Double)

        public static var linear: Interpolation { .exponential(base: 1) }
    }

    /// The space colours are blended in: `interpolate` (premultiplied RGB), `interpolate-hcl`,
    /// `interpolate-lab`.
    public enum ColorSpace: Hashable, Sendable {
        case rgb, hcl, lab
    }

    /// A `format` section: its content and the options after it.
    public struct FormatSection: Hashable, Sendable {
        public var content: StyleExpression
        public var scale: StyleExpression?
        public var font: StyleExpression?
        public var textColor: StyleExpression?
        public var verticalAlign: StyleExpression?
    }

    /// `number-format`'s options.
    public struct NumberFormatOptions: Hashable, Sendable {
        public var locale: StyleExpression?
        public var currency: StyleExpression?
        public var unit: StyleExpression?
        public var minFractionDigits: StyleExpression?
        public var maxFractionDigits: StyleExpression?
    }
}

/// The specification's functions of fixed operands, by name.
public enum ExpressionOperator: String, Hashable, Sendable {
    case get, has, properties
    case geometryType = "geometry-type"
    case id, zoom
    case featureState = "feature-state"
    case globalState = "global-state"
    case heatmapDensity = "heatmap-density"
    case lineProgress = "line-progress"
    case accumulated
    case typeOf = "typeof"
    case length
    case not = "!"
    case error
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"
    case power = "^"
    case minimum = "min"
    case maximum = "max"
    case absolute = "abs"
    case floor, ceil, round
    case squareRoot = "sqrt"
    case ln, log10, log2, sin, cos, tan, asin, acos, atan, e, pi, ln2
    case concat, upcase, downcase, rgb, rgba
    case toRGBA = "to-rgba"
    case resolvedLocale = "resolved-locale"
    case isSupportedScript = "is-supported-script"
    case image, split, join
}

/// What an expression is evaluated for: a zoom level and a feature, and what the layer being
/// drawn knows (line progress along a gradient line, heatmap density).
public struct ExpressionContext: Sendable {
    /// The zoom level the style is evaluated at.
    public var zoom: Double
    /// The feature's properties; the renderer adds `$type` (`Point`, `LineString`, `Polygon`)
    /// and `$id` when the feature has them, as legacy filters name them, and the feature's
    /// state under ``featureStateKeyPrefix`` (`$state.hover`) for `feature-state`.
    public var properties: [String: FeatureValue]
    /// Properties that are arrays or objects (GeoJSON features have them); looked up after
    /// ``properties``. Empty by default.
    public var structuredProperties: [String: ExpressionValue] = [:]
    /// The feature's id; nil reads `$id` from ``properties``.
    public var featureID: ExpressionValue?
    /// `geometry-type`'s answer (`Point`, `MultiLineString`...); nil reads `$type` from ``properties``.
    public var geometryType: String?
    /// The feature's `$type` (`Point`, `LineString`, `Polygon`) where ``properties`` do not hold
    /// it, read as if they did (`["get", "$type"]`, `geometry-type`); nil, the default: none.
    public var typeName: String?
    /// The feature's geometry in longitude and latitude, for `within` and `distance`; nil makes
    /// `within` false and `distance` null... as GL without a tile.
    public var geometry: GeoShapes?
    /// `line-progress`: the fraction of the line's length drawn so far, for `line-gradient`; nil is 0.
    public var lineProgress: Double?
    /// `heatmap-density`: the kernel density at the pixel, for `heatmap-color`; nil is 0.
    public var heatmapDensity: Double?
    /// `accumulated`: a cluster property's value so far; nil is null.
    public var accumulated: ExpressionValue?
    /// `global-state` values: the style's `state` defaults.
    public var globalState: [String: ExpressionValue] = [:]
    /// Image names the renderer has, for `image`'s `available`; nil treats every image as available.
    public var availableImages: Set<String>?

    public init(zoom: Double, properties: [String: FeatureValue] = [:]) {
        self.zoom = zoom
        self.properties = properties
    }

    /// The prefix of the ``properties`` keys that hold the feature's state: `feature-state`
    /// reads `["feature-state", "hover"]` from `$state.hover`; `properties` leaves them out, as
    /// every key starting with `$`. A feature without state has none: `feature-state` is null.
    public static let featureStateKeyPrefix = "$state."

    func property(_ key: String) -> ExpressionValue? {
        if let value = properties[key] { return ExpressionValue(value) }
        if let typeName, key == "$type" { return .string(typeName) }
        return structuredProperties[key]
    }
}

/// An evaluation error, worded as MapLibre's (`Expected value to be of type number, but found
/// string instead.`).
public struct ExpressionEvaluationError: Error, Hashable, Sendable {
    public var message: String
}
