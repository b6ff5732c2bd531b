/// A type a layout or paint property can hold, and how its values blend between zoom stops.
///
/// The MapLibre Style Specification marks properties as interpolable (numbers, colours) or
/// piecewise constant (strings, enums, arrays such as `line-dasharray` and `text-font`); see
/// [Expressions: interpolate](https://maplibre.org/maplibre-style-spec/expressions/#interpolate).
public protocol StyleValueType: Hashable, Sendable {
    /// The value `fraction` of the way from `start` to `end`, or nil when values of this type
    /// change in steps and cannot be interpolated.
    static func interpolated(from start: Self, to end: Self, fraction: Double) -> Self?

    /// The value an expression gave, or nil when it is not one of this type (the property then
    /// keeps its default, as MapLibre does).
    init?(expressionValue: ExpressionValue)

    /// The type an expression for a property of this type is checked against (`value`, any,
    /// by default).
    static var expressionType: ExpressionType { get }
}

extension StyleValueType where Self: RawRepresentable, RawValue == String {
    public static var expressionType: ExpressionType { .string }

    public init?(expressionValue: ExpressionValue) {
        guard case .string(let text) = expressionValue else { return nil }
        self.init(rawValue: text)
    }
}

extension StyleValueType {
    public static var expressionType: ExpressionType { .value }

    public static func interpolated(from start: Self, to end: Self, fraction: Double) -> Self? { nil }
}

extension Double: StyleValueType {
    public static var expressionType: ExpressionType { .number }

    public init?(expressionValue: ExpressionValue) {
        guard case .number(let number) = expressionValue, number.isFinite else { return nil }
        self = number
    }

    public static func interpolated(from start: Double, to end: Double, fraction: Double) -> Double? {
        start + (end - start) * fraction
    }
}

extension Color: StyleValueType {
    public static var expressionType: ExpressionType { .color }

    /// A colour value, or a string in CSS syntax.
    public init?(expressionValue: ExpressionValue) {
        switch expressionValue {
        case .color(let color): self = color
        case .string(let text):
            guard let color = try? Color(css: text) else { return nil }
            self = color
        default: return nil
        }
    }

    /// Interpolates premultiplied components, as MapLibre does, so a fade to a transparent
    /// colour does not pass through that colour's hue.
    public static func interpolated(from start: Color, to end: Color, fraction: Double) -> Color? {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * fraction }
        let alpha = mix(start.alpha, end.alpha)
        guard alpha > 0 else { return .transparent }
        return Color(
            red: mix(start.red * start.alpha, end.red * end.alpha) / alpha,
            green: mix(start.green * start.alpha, end.green * end.alpha) / alpha,
            blue: mix(start.blue * start.alpha, end.blue * end.alpha) / alpha,
            alpha: alpha
        )
    }
}

extension String: StyleValueType {
    public static var expressionType: ExpressionType { .string }

    public init?(expressionValue: ExpressionValue) {
        switch expressionValue {
        case .string(let text): self = text
        case .number, .bool: self = expressionValue.text
        default: return nil
        }
    }
}

extension Array: StyleValueType where Element: StyleValueType {
    public static var expressionType: ExpressionType { .array(Element.expressionType, count: nil) }

    public init?(expressionValue: ExpressionValue) {
        guard case .array(let items) = expressionValue else { return nil }
        var values: [Element] = []
        for item in items {
            guard let value = Element(expressionValue: item) else { return nil }
            values.append(value)
        }
        self = values
    }
}

/// An image a property names (`*-pattern`, `icon-image`): a string, or what `image` gives. The
/// empty name draws nothing.
extension ResolvedImage: StyleValueType {
    public static var expressionType: ExpressionType { .resolvedImage }

    /// The image of this name, taken as available until the renderer looks it up.
    public init(named name: String) {
        self.init(name: name, available: true)
    }

    public init?(expressionValue: ExpressionValue) {
        switch expressionValue {
        case .image(let image): self = image
        case .string(let name): self.init(named: name)
        default: return nil
        }
    }
}

extension Bool: StyleValueType {
    public static var expressionType: ExpressionType { .boolean }

    public init?(expressionValue: ExpressionValue) {
        guard case .bool(let flag) = expressionValue else { return nil }
        self = flag
    }
}
