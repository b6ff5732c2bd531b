/// A feature property's value: one of the seven value types of the `Value` message (spec 4.1),
/// folded into five.
///
/// `float_value` and `double_value` are both ``double(_:)`` (a float widened exactly);
/// `int_value` and `sint_value` (zigzag) are both ``int(_:)``.
public enum VectorTileValue: Hashable, Sendable {
    /// `string_value`: UTF-8 text, with invalid sequences replaced by U+FFFD.
    case string(String)
    /// `float_value` or `double_value`.
    case double(Double)
    /// `int_value` or `sint_value`.
    case int(Int64)
    /// `uint_value`.
    case uint(UInt64)
    /// `bool_value`.
    case bool(Bool)
}

extension VectorTileValue: CustomStringConvertible {
    /// The value as text: a string as it is, numbers and booleans as Swift writes them.
    public var description: String {
        switch self {
        case .string(let text): return text
        case .double(let number): return "\(number)"
        case .int(let number): return "\(number)"
        case .uint(let number): return "\(number)"
        case .bool(let flag): return "\(flag)"
        }
    }
}
