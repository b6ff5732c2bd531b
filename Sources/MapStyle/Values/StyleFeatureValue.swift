import Foundation

/// A feature property value, as filters and text fields see it: the JSON scalar types of the
/// MapLibre Style Specification's [expressions](https://maplibre.org/maplibre-style-spec/expressions/).
///
/// The renderer converts each basemap field into one of these; a missing field is absent from the
/// property dictionary, which expressions read as ``null``.
public enum StyleFeatureValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

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

extension StyleFeatureValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}
