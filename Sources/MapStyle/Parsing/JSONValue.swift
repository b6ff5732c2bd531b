import Foundation

/// A JSON document as plain values, so the style decoder can walk it with paths and report
/// unknown keys (which `Decodable` would skip silently).
enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The JSON type as a phrase for messages: "a string", "an array".
    var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value written back as compact JSON, for messages.
    var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return StyleFeatureValue.number(value).text ?? "null"
        case .string(let value): return "\"\(value)\""
        case .array(let values): return "[" + values.map(\.jsonText).joined(separator: ", ") + "]"
        case .object(let members):
            let sorted = members.sorted { $0.key < $1.key }
            return "{" + sorted.map { "\"\($0.key)\": \($0.value.jsonText)" }.joined(separator: ", ") + "}"
        }
    }
}

extension JSONValue: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
