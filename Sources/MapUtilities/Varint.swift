/// Unsigned LEB128 varints, as protocol buffers write them: seven bits a byte, least significant
/// first, the high bit set on every byte but the last. What PMTiles directories and vector tiles
/// (protocol buffers) are made of.
///
/// For example:
///
/// ```swift
/// var bytes: [UInt8] = []
/// Varint.append(300, to: &bytes)          // [0xAC, 0x02]
/// var offset = 0
/// Varint.read(bytes, at: &offset, end: 2)  // 300, offset 2
/// ```
///
/// See <https://protobuf.dev/programming-guides/encoding/#varints>.
public enum Varint {
    /// The most bytes a varint of 64 bits takes: 10.
    public static let maximumByteCount = 10

    /// Appends `value`, in one to ten bytes.
    public static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// The varint at `offset` in `bytes[..<end]`, moving `offset` past it.
    ///
    /// Never reads at or past `end` (which must be at most `bytes.count`).
    ///
    /// - Returns: The value, or nil when the bytes end inside the varint (`offset` is then
    ///   `end`) or it needs more than 64 bits (`offset` is then at its tenth byte, which holds
    ///   more than bit 63 or is not the last).
    @inlinable
    public static func read(_ bytes: [UInt8], at offset: inout Int, end: Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end {
            let byte = bytes[offset]
            // The tenth byte holds only bit 63.
            guard shift < 63 || (shift == 63 && byte <= 1) else { return nil }
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
