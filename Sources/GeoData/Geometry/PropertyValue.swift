import MapJSON

/// The value of a feature property: GeoJSON's scalar JSON values, or an SQLite column.
///
/// Integers are numbers (exact up to 2^53). A GeoJSON property holding an array or an object
/// is kept as its JSON text in ``string(_:)``; a BLOB column is left out of the properties.
public enum PropertyValue: Hashable, Sendable {
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
}

extension PropertyValue: CustomStringConvertible {
    /// The value as a label would show it: text as is, whole numbers without a fraction.
    public var description: String {
        switch self {
        case .string(let string): return string
        case .number(let number): return JSONValue.text(of: number)
        case .bool(let bool): return String(bool)
        case .null: return "null"
        }
    }
}
