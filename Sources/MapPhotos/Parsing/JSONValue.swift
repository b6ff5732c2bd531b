import Foundation

/// A JSON document as plain values, so the JSON sources can walk it and name the entry at fault.
///
/// Decoded with `JSONDecoder`, which keeps `true` apart from `1` (unlike `JSONSerialization`'s `NSNumber`).
enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Reads and parses a JSON file.
    ///
    /// - Throws: ``PhotoSourceError/unreadable(file:reason:)`` or ``PhotoSourceError/malformed(file:reason:)``.
    static func read(from url: URL) throws(PhotoSourceError) -> JSONValue {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .unreadable(file: url, reason: error.localizedDescription)
        }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .malformed(file: url, reason: "is not valid JSON" + syntaxErrorLocation(in: data))
        }
    }

    /// Where JSON syntax goes wrong in `data`, as `: <problem> at line L, column C`, or "" when unknown.
    ///
    /// `JSONDecoder` does not say where; `JSONSerialization` gives a character offset, turned here
    /// into a line and a column (counting from 1, in characters) that a person can find.
    private static func syntaxErrorLocation(in data: Data) -> String {
        do { _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
            guard let message = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return "" }
            guard let range = message.range(of: #"around character \d+"#, options: .regularExpression),
                  let offset = Int(message[range].split(separator: " ").last ?? ""), offset <= data.count
            else { return ": \(message)" }
            let problem = message[..<range.lowerBound].trimmingCharacters(in: .whitespaces).lowercased()
            let prefix = String(decoding: data.prefix(offset), as: UTF8.self)
            let lines = prefix.split(separator: "\n", omittingEmptySubsequences: false)
            return ": \(problem) at line \(lines.count), column \((lines.last?.count ?? 0) + 1)"
        }
        return ""
    }

    /// The member `key` of an object; `nil` for a missing member or a value that is not an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// A short name of the value's kind, for messages: "a string", "an array".
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as text: a string as is, a number without a trailing `.0` when it is whole;
    /// `nil` for null. Booleans, arrays and objects are not text.
    var text: String? {
        switch self {
        case .string(let string): return string
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        default: return nil
        }
    }
}

extension JSONValue: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
