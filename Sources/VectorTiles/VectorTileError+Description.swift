extension VectorTileError: CustomStringConvertible {
    /// One line for a person: the ``location`` (when anything of it is known), then what is
    /// wrong, such as `tile 14/9326/4742: layer 'roads' feature 3: the geometry's LineTo asks
    /// for 1000000 points but 12 numbers remain`.
    public var description: String {
        let place = location.description
        return place.isEmpty ? problem : "\(place): \(problem)"
    }

    /// What is wrong, without the location.
    private var problem: String {
        switch self {
        case .invalidCompression(let reason, _):
            return "cannot decompress the tile: \(reason)"
        case .varintPastEnd(let byteOffset, _):
            return "the data ends before the varint at byte \(byteOffset) is whole"
        case .varintTooLong(let byteOffset, _):
            return "the varint at byte \(byteOffset) is longer than 64 bits"
        case .fieldPastEnd(let field, let byteOffset, let byteCount, let remainingBytes, _):
            return "field \(field) at byte \(byteOffset) is \(Self.count(byteCount, "byte")) long but only "
                + "\(Self.count(remainingBytes, "byte")) \(remainingBytes == 1 ? "remains" : "remain")"
        case .invalidWireType(let wireType, let field, let byteOffset, _):
            return
                "field \(field) at byte \(byteOffset) has wire type \(wireType), which protocol buffers do not define"
        case .invalidFieldNumber(let number, let byteOffset, _):
            return "the field at byte \(byteOffset) has number \(number), outside 1 to 536870911"
        case .wrongWireType(let field, let name, let wireType, let expected, let byteOffset, _):
            return "field \(field) (\(name)) at byte \(byteOffset) is written as \(Self.wireTypeName(wireType)), "
                + "not as \(Self.wireTypeName(expected))"
        case .unbalancedGroup(let field, let byteOffset, _):
            return
                "the group of field \(field) at byte \(byteOffset) does not balance: an end without a start, or a start without an end"
        case .layerWithoutName:
            return "the layer has no name"
        case .unsupportedVersion(let version, _):
            return "the layer is of version \(version); this reader knows versions 1 and 2"
        case .invalidExtent(let extent, _):
            return "the layer's extent is \(extent); it must be at least 1"
        case .valueWithoutContent:
            return "the value holds none of the seven value types"
        case .oddTagCount(let count, _):
            return "the feature has \(Self.count(count, "tag")); tags come in key-value pairs"
        case .keyIndexOutOfRange(let index, let keyCount, _):
            return "a tag names key \(index) but the layer has \(Self.count(keyCount, "key"))"
        case .valueIndexOutOfRange(let index, let valueCount, _):
            return "a tag names value \(index) but the layer has \(Self.count(valueCount, "value"))"
        case .geometryCommandPastEnd(let command, let count, let remainingNumbers, _):
            return
                "the geometry's \(command) asks for \(Self.count(count, "point")) but \(Self.count(remainingNumbers, "number")) "
                + (remainingNumbers == 1 ? "remains" : "remain")
        case .unknownGeometryCommand(let id, let position, _):
            return
                "the geometry's command at position \(position) has id \(id), not MoveTo (1), LineTo (2) or ClosePath (7)"
        case .unexpectedGeometryCommand(let command, let position, let type, _):
            return "the geometry's \(command) at position \(position) is out of place: \(Self.grammar(of: type))"
        case .invalidCommandCount(let command, let count, let position, let type, _):
            return "the geometry's \(command) at position \(position) has count \(count); "
                + "in \(Self.article(type)) geometry it must be 1"
        case .coordinateOutOfRange(let position, _):
            return "the geometry's command at position \(position) moves to a point outside the 32-bit coordinate range"
        }
    }

    /// `1 byte`, `12 bytes`.
    private static func count(_ count: some BinaryInteger, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }

    /// `a varint (0)`, `a length-delimited field (2)`, `wire type 6`.
    private static func wireTypeName(_ wireType: Int) -> String {
        guard let known = UInt8(exactly: wireType).flatMap(ProtobufReader.WireType.init(rawValue:)) else {
            return "wire type \(wireType)"
        }
        return "\(known.name) (\(wireType))"
    }

    /// `a point`, `a line`, `a polygon`, `an unknown`.
    private static func article(_ type: VectorTileGeometryType) -> String {
        type == .unknown ? "an unknown" : "a \(type)"
    }

    /// What a geometry type's commands must be (spec 4.3.4).
    private static func grammar(of type: VectorTileGeometryType) -> String {
        switch type {
        case .point: return "a point geometry is MoveTos only"
        case .lineString: return "each line of a line geometry is a MoveTo of 1, then LineTos"
        case .polygon: return "each ring of a polygon geometry is a MoveTo of 1, LineTos, then a ClosePath"
        case .unknown: return "an unknown geometry is not read"
        }
    }
}
