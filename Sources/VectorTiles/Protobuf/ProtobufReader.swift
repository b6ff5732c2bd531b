import MapUtilities

/// Reads the protocol buffer wire format of one message in a byte array: field keys, varints,
/// fixed 32- and 64-bit numbers, length-delimited bytes, packed varints; unknown fields are
/// skipped by wire type, groups included.
///
/// Every read is checked against the message's end, and a length is trusted only as far as the
/// bytes left, so damaged or hostile bytes make a ``VectorTileError`` (naming ``location`` and the
/// byte, counted from the start of the protobuf bytes), never a crash or a large allocation.
///
/// See <https://protobuf.dev/programming-guides/encoding/>.
struct ProtobufReader {
    /// The whole tile's protobuf bytes; this reader's message is `offset..<end`.
    let bytes: [UInt8]
    /// Where the next read starts.
    private(set) var offset: Int
    /// Where the message ends.
    let end: Int
    /// What errors name: the tile, layer and feature being read.
    var location: VectorTileError.Location

    /// A reader of `bytes[range]`, whose errors name `location`.
    init(bytes: [UInt8], range: Range<Int>, location: VectorTileError.Location) {
        self.bytes = bytes
        offset = range.lowerBound
        end = range.upperBound
        self.location = location
    }

    /// The wire types of protocol buffers: how a field's value is written.
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case startGroup = 3
        case endGroup = 4
        case fixed32 = 5

        /// `varint`, `64-bit`, `length-delimited`, `start group`, `end group`, `32-bit`.
        var name: String {
            switch self {
            case .varint: return "varint"
            case .fixed64: return "64-bit"
            case .lengthDelimited: return "length-delimited"
            case .startGroup: return "start group"
            case .endGroup: return "end group"
            case .fixed32: return "32-bit"
            }
        }
    }

    /// A field's key: its number and how its value is written, and where the key starts.
    struct Field {
        var number: Int
        var wireType: WireType
        var byteOffset: Int
    }

    /// Whether the message has no more fields.
    var isAtEnd: Bool { offset >= end }

    /// The next field's key, or nil at the end of the message.
    ///
    /// - Throws: ``VectorTileError/invalidFieldNumber(_:byteOffset:location:)`` for field
    ///   number 0 or one past 2^29 − 1, ``VectorTileError/invalidWireType(_:field:byteOffset:location:)``
    ///   for wire types 6 and 7, and the varint errors.
    mutating func nextField() throws(VectorTileError) -> Field? {
        guard offset < end else { return nil }
        let start = offset
        let key = try readVarint()
        let number = key >> 3
        guard number >= 1, number < 1 << 29 else {
            throw .invalidFieldNumber(number, byteOffset: start, location: location)
        }
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            throw .invalidWireType(Int(key & 7), field: Int(number), byteOffset: start, location: location)
        }
        return Field(number: Int(number), wireType: wireType, byteOffset: start)
    }

    /// The varint at the current offset.
    ///
    /// - Throws: ``VectorTileError/varintPastEnd(byteOffset:location:)`` or
    ///   ``VectorTileError/varintTooLong(byteOffset:location:)``.
    mutating func readVarint() throws(VectorTileError) -> UInt64 {
        let start = offset
        if let value = Varint.read(bytes, at: &offset, end: end) { return value }
        if offset >= end { throw .varintPastEnd(byteOffset: start, location: location) }
        throw .varintTooLong(byteOffset: start, location: location)
    }

    /// A varint field's value, checking that `field` is written as one.
    mutating func readVarint(_ field: Field, named name: String) throws(VectorTileError) -> UInt64 {
        try expect(field, .varint, named: name)
        return try readVarint()
    }

    /// A 32-bit field's four bytes, little-endian.
    mutating func readFixed32(_ field: Field, named name: String) throws(VectorTileError) -> UInt32 {
        try expect(field, .fixed32, named: name)
        return UInt32(truncatingIfNeeded: try readLittleEndian(byteCount: 4, field: field))
    }

    /// A 64-bit field's eight bytes, little-endian.
    mutating func readFixed64(_ field: Field, named name: String) throws(VectorTileError) -> UInt64 {
        try expect(field, .fixed64, named: name)
        return try readLittleEndian(byteCount: 8, field: field)
    }

    /// Where a length-delimited field's bytes are (an embedded message, a string, packed
    /// numbers), moving past them.
    ///
    /// - Throws: ``VectorTileError/wrongWireType(field:name:wireType:expected:byteOffset:location:)``
    ///   for another wire type, ``VectorTileError/fieldPastEnd(field:byteOffset:byteCount:remainingBytes:location:)``
    ///   for a length past the message's end.
    mutating func readLengthDelimited(_ field: Field, named name: String) throws(VectorTileError) -> Range<Int> {
        try expect(field, .lengthDelimited, named: name)
        return try readLengthDelimitedBytes(field)
    }

    /// A length-delimited field's bytes as text: UTF-8, with invalid sequences replaced by U+FFFD.
    mutating func readString(_ field: Field, named name: String) throws(VectorTileError) -> String {
        String(decoding: bytes[try readLengthDelimited(field, named: name)], as: UTF8.self)
    }

    /// Appends a repeated `uint32` field's values to `values`: packed (length-delimited, the
    /// usual way) or one varint, both of which protocol buffers allow. Values wider than 32
    /// bits keep their low 32 bits, as protocol buffers read a `uint32`.
    mutating func readUInt32s(_ field: Field, named name: String, into values: inout [UInt32]) throws(VectorTileError) {
        switch field.wireType {
        case .varint:
            values.append(UInt32(truncatingIfNeeded: try readVarint()))
        case .lengthDelimited:
            let range = try readLengthDelimitedBytes(field)
            var packed = ProtobufReader(bytes: bytes, range: range, location: location)
            // Each varint takes at least a byte, so this bounds the count. Only the first piece
            // reserves: reserving exactly for each of many pieces would copy the array each time.
            if values.isEmpty { values.reserveCapacity(range.count) }
            while !packed.isAtEnd {
                values.append(UInt32(truncatingIfNeeded: try packed.readVarint()))
            }
        default:
            throw .wrongWireType(
                field: field.number, name: name, wireType: Int(field.wireType.rawValue),
                expected: Int(WireType.lengthDelimited.rawValue), byteOffset: field.byteOffset, location: location
            )
        }
    }

    /// Skips a field of a number this reader does not know, by its wire type, as protocol
    /// buffers require; a group is skipped to its matching end, however deeply nested.
    ///
    /// - Throws: ``VectorTileError/unbalancedGroup(field:byteOffset:location:)`` for an end of
    ///   group with no start, or a group the message ends inside.
    mutating func skip(_ field: Field) throws(VectorTileError) {
        switch field.wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readLittleEndian(byteCount: 8, field: field)
        case .fixed32: _ = try readLittleEndian(byteCount: 4, field: field)
        case .lengthDelimited: _ = try readLengthDelimitedBytes(field)
        case .endGroup: throw .unbalancedGroup(field: field.number, byteOffset: field.byteOffset, location: location)
        case .startGroup:
            // The groups still open, innermost last; at most one per byte read.
            var open = [field]
            while let inner = open.last {
                guard let next = try nextField() else {
                    throw .unbalancedGroup(field: inner.number, byteOffset: inner.byteOffset, location: location)
                }
                switch next.wireType {
                case .startGroup: open.append(next)
                case .endGroup where next.number == inner.number: open.removeLast()
                case .endGroup:
                    throw .unbalancedGroup(field: next.number, byteOffset: next.byteOffset, location: location)
                default: try skip(next)
                }
            }
        }
    }

    private func expect(_ field: Field, _ wireType: WireType, named name: String) throws(VectorTileError) {
        guard field.wireType == wireType else {
            throw .wrongWireType(
                field: field.number, name: name, wireType: Int(field.wireType.rawValue),
                expected: Int(wireType.rawValue),
                byteOffset: field.byteOffset, location: location
            )
        }
    }

    private mutating func readLengthDelimitedBytes(_ field: Field) throws(VectorTileError) -> Range<Int> {
        let length = try readVarint()
        let remaining = end - offset
        guard length <= UInt64(remaining) else {
            throw .fieldPastEnd(
                field: field.number, byteOffset: field.byteOffset, byteCount: length, remainingBytes: remaining,
                location: location)
        }
        let range = offset..<offset + Int(length)
        offset = range.upperBound
        return range
    }

    private mutating func readLittleEndian(byteCount: Int, field: Field) throws(VectorTileError) -> UInt64 {
        let remaining = end - offset
        guard byteCount <= remaining else {
            throw .fieldPastEnd(
                field: field.number, byteOffset: field.byteOffset, byteCount: UInt64(byteCount),
                remainingBytes: remaining, location: location
            )
        }
        var value: UInt64 = 0
        for index in 0..<byteCount {
            value |= UInt64(bytes[offset + index]) << (8 * UInt64(index))
        }
        offset += byteCount
        return value
    }
}
