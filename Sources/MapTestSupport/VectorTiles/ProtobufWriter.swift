import MapUtilities

/// Writes the protocol buffer wire format field by field, for tiles built byte by byte in the
/// tests: any field number, any wire type, in any order, including what a decoder must skip or
/// refuse.
///
/// For example, a layer named "roads" with version 2:
///
/// ```swift
/// var layer = ProtobufWriter()
/// layer.varint(15, 2)
/// layer.string(1, "roads")
/// ```
public struct ProtobufWriter: Sendable {
    public init() {}

    /// What has been written.
    public private(set) var bytes: [UInt8] = []

    /// A field key: `field << 3 | wireType`.
    public mutating func key(_ field: Int, wireType: UInt8) {
        Varint.append(UInt64(field) << 3 | UInt64(wireType), to: &bytes)
    }

    /// A varint field (wire type 0).
    public mutating func varint(_ field: Int, _ value: UInt64) {
        key(field, wireType: 0)
        Varint.append(value, to: &bytes)
    }

    /// A 64-bit field (wire type 1), little-endian.
    public mutating func fixed64(_ field: Int, _ value: UInt64) {
        key(field, wireType: 1)
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    /// A 32-bit field (wire type 5), little-endian.
    public mutating func fixed32(_ field: Int, _ value: UInt32) {
        key(field, wireType: 5)
        for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(index)))) }
    }

    /// A length-delimited field (wire type 2) holding `content`.
    public mutating func lengthDelimited(_ field: Int, _ content: [UInt8]) {
        key(field, wireType: 2)
        Varint.append(UInt64(content.count), to: &bytes)
        bytes += content
    }

    /// A string field: its UTF-8 bytes, length-delimited.
    public mutating func string(_ field: Int, _ text: String) {
        lengthDelimited(field, Array(text.utf8))
    }

    /// An embedded message, written by `build`.
    public mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        var inner = ProtobufWriter()
        build(&inner)
        lengthDelimited(field, inner.bytes)
    }

    /// A packed repeated varint field: the values' varints, length-delimited.
    public mutating func packed(_ field: Int, _ values: [UInt32]) {
        var inner: [UInt8] = []
        for value in values { Varint.append(UInt64(value), to: &inner) }
        lengthDelimited(field, inner)
    }

    /// A group (the deprecated wire types 3 and 4): a start key, what `build` writes, an end key.
    public mutating func group(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        key(field, wireType: 3)
        build(&self)
        key(field, wireType: 4)
    }

    /// Bytes as they are, for damage no field method writes.
    public mutating func raw(_ extra: [UInt8]) {
        bytes += extra
    }
}
