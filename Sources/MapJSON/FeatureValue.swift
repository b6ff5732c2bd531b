/// The value of a feature property, wherever features come from and whatever reads them: the
/// scalar JSON types of GeoJSON properties, SQLite columns and vector tile values, as a style's
/// filters, expressions and text fields see them (MapLibre Style Specification, "Expressions").
///
/// Integers are numbers (exact up to 2^53). A GeoJSON property holding an array or an object is
/// kept as its JSON text in ``string(_:)``; a BLOB column is left out of the properties. A missing
/// property is absent from a feature's dictionary, which expressions read as ``null``.
public enum FeatureValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// The string, or `nil` for other kinds.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number, or `nil` for other kinds.
    public var numberValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The boolean, or `nil` for other kinds.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The value as label text, or nil for null: numbers as JavaScript writes them (`3`, not
    /// `3.0`), as the specification's `to-string` does.
    public var text: String? {
        switch self {
        case .string(let value):
            return value
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        case .bool(let value):
            return value ? "true" : "false"
        case .null:
            return nil
        }
    }
}

extension FeatureValue: CustomStringConvertible {
    /// The value as a label would show it: text as is, whole numbers without a fraction; `null`.
    public var description: String {
        switch self {
        case .string(let string): return string
        case .number(let number): return JSONValue.text(of: number)
        case .bool(let bool): return String(bool)
        case .null: return "null"
        }
    }
}

extension FeatureValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}
