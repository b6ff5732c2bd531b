import Foundation

/// Any JSON value, decoded as is, for readers that walk a document themselves and report
/// problems by path: styles, GeoJSON, Flickr-style photo lists.
///
/// Decoding keeps booleans and numbers apart (`true` is never `1`), which
/// `JSONSerialization` does not do on Linux.
///
/// For example:
///
/// ```swift
/// let document = try JSONValue.parse(data)
/// if case .string(let type)? = document["type"] { ... }
/// ```
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses a JSON document.
    ///
    /// - Throws: ``JSONSyntaxError`` saying what is wrong and where (line and column) when the
    ///   data is not JSON.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw JSONSyntaxError(reason: syntaxErrorReason(in: data))
        }
    }

    /// The member `key` of an object; `nil` for a missing member or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// What kind of value this is, for messages: "a number", "an object", "null".
    public var kindDescription: String {
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
    /// `nil` for anything else.
    public var text: String? {
        switch self {
        case .string(let string): return string
        case .number(let number): return JSONValue.text(of: number)
        default: return nil
        }
    }

    /// The value written back as compact JSON, object members sorted by key, for messages and
    /// for keeping nested values as text.
    public var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return JSONValue.text(of: value)
        case .string(let value): return JSONValue.quoted(value)
        case .array(let values): return "[" + values.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            let sorted = members.sorted { $0.key < $1.key }
            return "{" + sorted.map { "\(JSONValue.quoted($0.key)):\($0.value.jsonText)" }.joined(separator: ",") + "}"
        }
    }

    /// A number without a trailing `.0` when it is whole: 5, 2.5, 1e+300.
    public static func text(of number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    private static func quoted(_ string: String) -> String {
        let data = (try? JSONEncoder().encode(string)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
    }

    /// Foundation's reason for rejecting `data`, in plain words, with its character offset turned
    /// into a line and column: "is not valid JSON: invalid value at line 3, column 8", "is not
    /// valid JSON: it ends early, at line 4", "is not valid JSON: it is empty".
    private static func syntaxErrorReason(in data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let text = String(decoding: data, as: UTF8.self)
            if text.allSatisfy(\.isWhitespace) { return "is not valid JSON: it is empty" }
            guard var message = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else {
                return "is not valid JSON"
            }
            if message.hasPrefix("Unexpected end of file") {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                let last = lines.lastIndex { !$0.allSatisfy(\.isWhitespace) } ?? 0
                return "is not valid JSON: it ends early, at line \(last + 1)"
            }
            if message.hasSuffix(".") { message.removeLast() }
            guard let range = message.range(of: #"around character \d+"#, options: .regularExpression),
                  let offset = Int(message[range].split(separator: " ").last ?? ""), offset <= data.count
            else { return "is not valid JSON: \(message.prefix(1).lowercased() + message.dropFirst())" }
            let problem = message[..<range.lowerBound].trimmingCharacters(in: .whitespaces).lowercased()
            let lines = String(decoding: data.prefix(offset), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            return "is not valid JSON: \(problem) at line \(lines.count), column \((lines.last?.count ?? 0) + 1)"
        }
        return "is not valid JSON"
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
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

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

/// Data that is not JSON; ``reason`` says what is wrong and where, e.g. "is not valid JSON:
/// invalid value at line 3, column 5".
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A whole phrase that follows a file's name: `"\(file): \(reason)"`. It already says "is not
    /// valid JSON", so callers do not say it again.
    public var reason: String
    public var description: String { reason }
}
