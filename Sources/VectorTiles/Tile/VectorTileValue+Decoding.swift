extension VectorTileValue {
    /// Decodes a `Value` message (spec 4.1). When it holds more than one value field, which the
    /// specification forbids, the last one wins, as protocol buffers read a `oneof`.
    ///
    /// - Throws: ``VectorTileError/valueWithoutContent(location:)`` for a value holding none.
    init(bytes: [UInt8], range: Range<Int>, location: VectorTileError.Location) throws(VectorTileError) {
        var reader = ProtobufReader(bytes: bytes, range: range, location: location)
        var value: VectorTileValue?
        while let field = try reader.nextField() {
            switch field.number {
            case 1: value = .string(try reader.readString(field, named: "Value.string_value"))
            case 2:
                value = .double(Double(Float(bitPattern: try reader.readFixed32(field, named: "Value.float_value"))))
            case 3: value = .double(Double(bitPattern: try reader.readFixed64(field, named: "Value.double_value")))
            case 4: value = .int(Int64(bitPattern: try reader.readVarint(field, named: "Value.int_value")))
            case 5: value = .uint(try reader.readVarint(field, named: "Value.uint_value"))
            case 6:
                // sint64: zigzag, (n >> 1) ^ -(n & 1).
                let zigzag = try reader.readVarint(field, named: "Value.sint_value")
                value = .int(Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1))))
            case 7: value = .bool(try reader.readVarint(field, named: "Value.bool_value") != 0)
            default: try reader.skip(field)
            }
        }
        guard let value else { throw .valueWithoutContent(location: location) }
        self = value
    }
}
