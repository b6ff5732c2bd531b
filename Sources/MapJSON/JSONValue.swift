public import Foundation

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

    /// Parses a JSON document from its UTF-8 bytes (a UTF-8 byte order mark is skipped).
    ///
    /// A hand-written one-pass parser (about ten times faster than `JSONDecoder` on large
    /// documents) that accepts what `JSONDecoder` accepts: top-level scalars, one trailing comma
    /// in an array or object, duplicate keys (the first value is kept). Nesting stops at 512
    /// arrays and objects; numbers are correctly rounded.
    ///
    /// - Throws: ``JSONSyntaxError`` saying what is wrong and where (line and column, from 1,
    ///   columns counting Unicode scalars) when the data is not JSON.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        try parse(data, streamingArraysAt: []) { _, _, _ in }
    }

    /// Parses a JSON document, handing the elements of the arrays at `paths` to `visit` one by
    /// one instead of keeping them, so that a document of a million features never exists as one
    /// value.
    ///
    /// A path names object members from the top: `["features"]`, `["photos", "photo"]`. An
    /// array found there is left empty (`[]`) in the returned document; a value of another kind
    /// there is kept as is. `visit` is called in document order with the path's index in
    /// `paths`, the element's index in its array and the element, before the rest of the
    /// document is read: a syntax error after the array still makes the whole call throw.
    ///
    /// - Throws: ``JSONSyntaxError``, as ``parse(_:)``.
    public static func parse(
        _ data: Data,
        streamingArraysAt paths: [[String]],
        visit: (_ path: Int, _ index: Int, _ element: JSONValue) -> Void
    ) throws(JSONSyntaxError) -> JSONValue {
        let result = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<JSONValue, JSONSyntaxError> in
            let bytes = raw.bindMemory(to: UInt8.self)
            var parser = JSONParser(bytes: bytes)
            do throws(JSONParser.Failure) {
                return .success(try parser.parseDocument(streaming: paths, visit: visit))
            } catch {
                return .failure(JSONSyntaxError(reason: JSONParser.reason(for: error, in: bytes)))
            }
        }
        return try result.get()
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
        var writer = JSONWriter()
        writer.value(self)
        return writer.text
    }

    /// A number without a trailing `.0` when it is whole: 5, 2.5, 1e+300.
    public static func text(of number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
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
