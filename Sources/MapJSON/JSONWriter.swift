/// Compact JSON written straight into UTF-8 bytes, commas placed by the writer, for output too
/// large to build as one ``JSONValue`` first (a `cluster --json` of 200,000 features).
///
/// Strings are escaped as `JSONEncoder` escapes them, except that `/` stays as is: `"` and `\`
/// with a backslash, control characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u001f`, everything
/// else (non-ASCII included) unchanged. Numbers are written as ``JSONValue/text(of:)`` writes them.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("type"); writer.string("Point")
/// writer.key("coordinates"); writer.beginArray(); writer.number(2.35); writer.number(48.85); writer.endArray()
/// writer.endObject()
/// writer.text // {"type":"Point","coordinates":[2.35,48.85]}
/// ```
public struct JSONWriter: Sendable {
    /// The UTF-8 bytes written so far.
    public var bytes: [UInt8] { output }
    /// The bytes written so far (`@usableFromInline` storage: the writer is inlined into its callers).
    @usableFromInline var output: [UInt8] = []
    /// Whether the next value or key of the current container follows another one.
    @usableFromInline var needsComma = false
    /// `needsComma` of the enclosing containers.
    @usableFromInline var enclosing: [Bool] = []

    /// Creates an empty writer; `capacity` bytes are reserved up front (default 0).
    public init(capacity: Int = 0) {
        output.reserveCapacity(capacity)
    }

    /// Hands the bytes written so far to `body` and forgets them, keeping the buffer: for output
    /// written out in pieces (say every megabyte) rather than held whole.
    public mutating func drain(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        output.withUnsafeBufferPointer(body)
        output.removeAll(keepingCapacity: true)
    }

    /// The bytes written so far, as a string.
    public var text: String { String(decoding: output, as: UTF8.self) }

    // MARK: - Containers

    /// Opens an object: a value in the enclosing container.
    @inlinable public mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// Closes the innermost object.
    @inlinable public mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Opens an array: a value in the enclosing container.
    @inlinable public mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// Closes the innermost array.
    @inlinable public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Writes an object member's key; the next value written is the member's value.
    @inlinable public mutating func key(_ key: String) {
        separate()
        appendQuoted(key)
        output.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a line break, between top-level values or at the end of the output.
    @inlinable public mutating func newline() {
        output.append(UInt8(ascii: "\n"))
    }

    // MARK: - Values

    /// Writes a string value.
    @inlinable public mutating func string(_ string: String) {
        separate()
        appendQuoted(string)
        needsComma = true
    }

    /// Writes a number value, without a trailing `.0` when it is whole (see ``JSONValue/text(of:)``).
    @inlinable public mutating func number(_ number: Double) {
        separate()
        if number == number.rounded(), abs(number) < 1e15 {
            appendInteger(Int64(number))
        } else {
            output.append(contentsOf: String(number).utf8)
        }
        needsComma = true
    }

    /// Writes a number rounded to `decimalPlaces` (0...9) places, half away from zero, without
    /// trailing zeros: `37.8106`, `-122`. The text is what ``number(_:)`` writes for the rounded
    /// number, made without a `String`; numbers too large to scale, and NaN, are written as
    /// ``number(_:)`` writes them, unrounded.
    @inlinable public mutating func number(_ number: Double, decimalPlaces: Int) {
        precondition((0...9).contains(decimalPlaces), "JSONWriter.number(_:decimalPlaces:) takes 0...9 places")
        var scale: Int64 = 1
        for _ in 0..<decimalPlaces { scale *= 10 }
        let scaled = (number * Double(scale)).rounded()
        guard scaled.magnitude < 1e15 else {
            self.number(number)
            return
        }
        separate()
        var units = Int64(scaled)
        if units < 0 {
            output.append(UInt8(ascii: "-"))
            units = -units
        }
        appendInteger(units / scale)
        var fraction = units % scale
        if fraction != 0 {
            output.append(UInt8(ascii: "."))
            var digits = decimalPlaces
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            // Leading zeros of the fraction, then its digits.
            var width = 1
            var rest = fraction / 10
            while rest > 0 {
                width += 1
                rest /= 10
            }
            for _ in 0..<(digits - width) { output.append(UInt8(ascii: "0")) }
            appendInteger(fraction)
        }
        needsComma = true
    }

    /// Writes `true` or `false`.
    @inlinable public mutating func bool(_ value: Bool) {
        separate()
        output.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
        needsComma = true
    }

    /// Writes `null`.
    @inlinable public mutating func null() {
        separate()
        output.append(contentsOf: Self.nullBytes)
        needsComma = true
    }

    /// Writes any value; object members are sorted by key, so equal values are written alike.
    @inlinable public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let bool): self.bool(bool)
        case .number(let number): self.number(number)
        case .string(let string): self.string(string)
        case .array(let values):
            beginArray()
            for element in values { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                self.key(key)
                self.value(member)
            }
            endObject()
        }
    }

    // MARK: - Bytes

    @usableFromInline static let trueBytes = Array("true".utf8)
    @usableFromInline static let falseBytes = Array("false".utf8)
    @usableFromInline static let nullBytes = Array("null".utf8)
    @usableFromInline static let hexDigits = Array("0123456789abcdef".utf8)

    @usableFromInline mutating func separate() {
        if needsComma { output.append(UInt8(ascii: ",")) }
    }

    @usableFromInline mutating func open(_ bracket: UInt8) {
        separate()
        output.append(bracket)
        enclosing.append(true)
        needsComma = false
    }

    @usableFromInline mutating func close(_ bracket: UInt8) {
        output.append(bracket)
        needsComma = enclosing.popLast() ?? true
    }

    @usableFromInline mutating func appendInteger(_ value: Int64) {
        if value == 0 {
            output.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64) = (0, 0)  // 16 digit bytes; |value| < 1e15 has at most 15.
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[15 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
        }
        if value < 0 { output.append(UInt8(ascii: "-")) }
        withUnsafeBytes(of: &digits) { buffer in output.append(contentsOf: buffer[(16 - count)...]) }
    }

    /// Appends `string` in quotes, escaped; runs of bytes that need no escape are copied at once.
    @usableFromInline mutating func appendQuoted(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            output.append(UInt8(ascii: "\""))
            var runStart = 0
            var offset = 0
            while offset < utf8.count {
                let byte = utf8[offset]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    if runStart < offset {
                        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                    }
                    appendEscape(byte)
                    runStart = offset + 1
                }
                offset += 1
            }
            if runStart < utf8.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
            output.append(UInt8(ascii: "\""))
        }
    }

    @usableFromInline mutating func appendEscape(_ byte: UInt8) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        default:
            output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            output.append(Self.hexDigits[Int(byte >> 4)])
            output.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }
}
