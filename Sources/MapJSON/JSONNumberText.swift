/// Decimal numbers read straight from UTF-8 bytes, correctly rounded to the nearest `Double`.
///
/// The JSON grammar (RFC 8259 §6): `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
/// Up to 19 significant digits with a decimal exponent within ±22 are computed exactly (one
/// multiplication or division of two exactly representable doubles, Clinger's fast path); any
/// other number is handed to the C library's correctly rounded `strtod` through `Double(_:)`.
/// Readers of other text formats (CSV) use it for their common case and fall back to `Double(_:)`
/// for anything outside the grammar.
public enum JSONNumberText {
    /// The number that `bytes` spell in full, or `nil` when they are not exactly one JSON number
    /// (no surrounding whitespace, no leading `+`, no `.5`, `inf` or hex) or it is out of `Double`'s range.
    public static func double(from bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let (value, end) = scan(bytes, from: 0), end == bytes.count else { return nil }
        return value
    }

    /// The number of UTF-8 `text` when it is exactly one JSON number, else `nil`; see ``double(from:)``.
    public static func double(from text: Substring.UTF8View) -> Double? {
        if let value = text.withContiguousStorageIfAvailable({ double(from: $0) }) { return value }
        return Array(text).withUnsafeBufferPointer { double(from: $0) }
    }

    /// How a number at `start` ends.
    enum ScanFailure: Error {
        /// The bytes at `offset` break the grammar (or end too early, `offset` then being the end).
        case invalid(offset: Int)
        /// The number is well formed but beyond `Double`'s finite range.
        case outOfRange
    }

    /// Reads the longest JSON number at `start` of `bytes`; `nil` when none starts there or it is
    /// out of range. Returns the value and the index after its last byte.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Double, Int)? {
        switch scanNumber(bytes, from: start) {
        case .success(let result): return result
        case .failure: return nil
        }
    }

    /// Powers of ten that doubles hold exactly: 1e0 to 1e22.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Reads one number at `start`, or says where the grammar breaks.
    static func scanNumber(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> Result<(Double, Int), ScanFailure> {
        let zero = UInt8(ascii: "0")
        let nine = UInt8(ascii: "9")
        let count = bytes.count
        var index = start
        var negative = false
        if index < count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        // The integer part: 0, or a digit 1-9 followed by digits.
        guard index < count, bytes[index] >= zero, bytes[index] <= nine else {
            return .failure(.invalid(offset: index))
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var droppedDigits = false
        var exponent = 0
        if bytes[index] == zero {
            index += 1
        } else {
            while index < count, bytes[index] >= zero, bytes[index] <= nine {
                if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- zero)
                    significantDigits += 1
                } else {
                    droppedDigits = true
                    exponent += 1
                }
                index += 1
            }
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < count, bytes[index] >= zero, bytes[index] <= nine else {
                return .failure(.invalid(offset: index))
            }
            while index < count, bytes[index] >= zero, bytes[index] <= nine {
                let digit = bytes[index] &- zero
                if significantDigits == 0 && digit == 0 {
                    exponent -= 1
                } else if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits += 1
                    exponent -= 1
                } else if digit != 0 {
                    droppedDigits = true
                }
                index += 1
            }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < count, bytes[index] >= zero, bytes[index] <= nine else {
                return .failure(.invalid(offset: index))
            }
            var written = 0
            while index < count, bytes[index] >= zero, bytes[index] <= nine {
                if written < 100_000 { written = written * 10 + Int(bytes[index] &- zero) }
                index += 1
            }
            exponent += exponentNegative ? -written : written
        }
        if mantissa == 0 && !droppedDigits { return .success((negative ? -0.0 : 0.0, index)) }
        if !droppedDigits, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            value = exponent < 0 ? value / exactPowersOfTen[-exponent] : value * exactPowersOfTen[exponent]
            return .success((negative ? -value : value, index))
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return .failure(.outOfRange) }
        return .success((value, index))
    }
}
