public import MapCore
public import MapUtilities

/// Why a vector tile could not be decoded: the one error of the VectorTiles module.
///
/// Every case carries a ``Location`` (the tile when the caller named it, the layer, the feature
/// or value), and ``description`` is one line for a person:
///
/// ```swift
/// do { _ = try VectorTile(data: data, tile: try TileID(z: 14, x: 9326, y: 4742)) }
/// catch { print(error) }
/// // tile 14/9326/4742: layer 'roads' feature 3: the geometry's LineTo asks for 1000000 points but 12 numbers remain
/// ```
///
/// Byte offsets count from the start of the protobuf bytes, after any decompression. Layers,
/// features, values and positions in a geometry count from 0, as the arrays do.
///
/// A decoder never crashes on damaged or hostile bytes: every read is checked, and counts and
/// lengths are trusted only as far as the bytes left.
public enum VectorTileError: Error, Hashable, Sendable {
    // MARK: Compression and protocol buffers

    /// The bytes start as gzip (`1F 8B`) or zlib (`78 9C`…) do but do not decompress, or
    /// decompress to more than ``VectorTile/maximumDecompressedByteCount``; `reason` says which.
    case invalidCompression(reason: String, location: Location)
    /// The data (or the message holding it) ends before the varint at `byteOffset` is whole,
    /// or where one should start.
    case varintPastEnd(byteOffset: Int, location: Location)
    /// The varint at `byteOffset` needs more than 64 bits (ten bytes).
    case varintTooLong(byteOffset: Int, location: Location)
    /// The field whose key starts at `byteOffset` is `byteCount` bytes long (its length, or 4 or
    /// 8 for fixed-size numbers), but the message holding it has only `remainingBytes` left.
    case fieldPastEnd(field: Int, byteOffset: Int, byteCount: UInt64, remainingBytes: Int, location: Location)
    /// A field key at `byteOffset` has wire type 6 or 7, which protocol buffers do not define.
    case invalidWireType(Int, field: Int, byteOffset: Int, location: Location)
    /// A field key at `byteOffset` has field number 0 or one past 2^29 − 1.
    case invalidFieldNumber(UInt64, byteOffset: Int, location: Location)
    /// A field the specification defines (`name`, such as `Layer.name`) is written with another
    /// wire type than its type has; the value would be misread.
    case wrongWireType(field: Int, name: String, wireType: Int, expected: Int, byteOffset: Int, location: Location)
    /// A group (the deprecated wire types 3 and 4) of an unknown field ends without starting,
    /// or the message ends inside it.
    case unbalancedGroup(field: Int, byteOffset: Int, location: Location)

    // MARK: Layers, features and values (spec 4.1, 4.2, 4.4)

    /// A layer has no `name` field, which spec 4.1 requires.
    case layerWithoutName(location: Location)
    /// A layer's `version` is not 1 or 2, the major versions of the specification this module
    /// reads (spec 4.1).
    case unsupportedVersion(UInt32, location: Location)
    /// A layer's `extent` is 0: its tile would be no units wide.
    case invalidExtent(UInt32, location: Location)
    /// A layer's value (``Location/valueIndex``) holds none of the seven value types; spec 4.1
    /// requires exactly one.
    case valueWithoutContent(location: Location)
    /// A feature has an odd number of tags; spec 4.4 requires key-value pairs.
    case oddTagCount(Int, location: Location)
    /// A feature's tag names a key past the end of the layer's `keys` (spec 4.4).
    case keyIndexOutOfRange(UInt32, keyCount: Int, location: Location)
    /// A feature's tag names a value past the end of the layer's `values` (spec 4.4).
    case valueIndexOutOfRange(UInt32, valueCount: Int, location: Location)

    // MARK: Geometry (spec 4.3)

    /// A MoveTo or LineTo asks for more points than the geometry has numbers left for (two a point).
    case geometryCommandPastEnd(VectorTileGeometry.Command, count: UInt32, remainingNumbers: Int, location: Location)
    /// The geometry's number at `position` is read as a command whose id is not MoveTo (1),
    /// LineTo (2) or ClosePath (7).
    case unknownGeometryCommand(id: UInt32, position: Int, location: Location)
    /// A command comes where the geometry type does not allow it (spec 4.3.4): a LineTo or
    /// ClosePath in a point geometry, a ClosePath in a line geometry, a LineTo before any MoveTo,
    /// a LineTo or ClosePath in a polygon with no ring open.
    case unexpectedGeometryCommand(
        VectorTileGeometry.Command, position: Int, type: VectorTileGeometryType, location: Location)
    /// A command's count is not what the geometry type requires: a MoveTo of lines and polygons,
    /// and every ClosePath, has count 1 (spec 4.3.3.3, 4.3.4.3, 4.3.4.4).
    case invalidCommandCount(
        VectorTileGeometry.Command, count: UInt32, position: Int, type: VectorTileGeometryType, location: Location)
    /// The point a MoveTo or LineTo at `position` reaches lies outside the 32-bit range
    /// coordinates have (spec 4.3.2).
    case coordinateOutOfRange(position: Int, location: Location)

    /// Where in the tile the error is.
    public var location: Location {
        switch self {
        case .invalidCompression(_, let location), .varintPastEnd(_, let location), .varintTooLong(_, let location),
            .fieldPastEnd(_, _, _, _, let location), .invalidWireType(_, _, _, let location),
            .invalidFieldNumber(_, _, let location), .wrongWireType(_, _, _, _, _, let location),
            .unbalancedGroup(_, _, let location), .layerWithoutName(let location), .unsupportedVersion(_, let location),
            .invalidExtent(_, let location), .valueWithoutContent(let location), .oddTagCount(_, let location),
            .keyIndexOutOfRange(_, _, let location), .valueIndexOutOfRange(_, _, let location),
            .geometryCommandPastEnd(_, _, _, let location), .unknownGeometryCommand(_, _, let location),
            .unexpectedGeometryCommand(_, _, _, let location), .invalidCommandCount(_, _, _, _, let location),
            .coordinateOutOfRange(_, let location):
            return location
        }
    }
}

extension VectorTileError {
    /// Where in a tile an error is: as much of the tile, layer, feature and value as is known.
    ///
    /// Its description is `tile 14/9326/4742: layer 'roads' feature 3`; the layer is named by
    /// its index (`layer 2`) until its name is read.
    public struct Location: Hashable, Sendable, CustomStringConvertible {
        /// The tile, when the caller named it (``VectorTile/init(data:tile:)``).
        public var tile: TileID?
        /// The layer's position in the tile, from 0.
        public var layerIndex: Int?
        /// The layer's name, once read.
        public var layerName: String?
        /// The feature's position in its layer, from 0.
        public var featureIndex: Int?
        /// The value's position in its layer's `values`, from 0.
        public var valueIndex: Int?

        public init(
            tile: TileID? = nil, layerIndex: Int? = nil, layerName: String? = nil, featureIndex: Int? = nil,
            valueIndex: Int? = nil
        ) {
            self.tile = tile
            self.layerIndex = layerIndex
            self.layerName = layerName
            self.featureIndex = featureIndex
            self.valueIndex = valueIndex
        }

        /// `tile Z/X/Y: layer 'NAME' feature N`, as much as is known; empty when nothing is.
        public var description: String {
            var parts: [String] = []
            if let tile { parts.append("tile \(tile)") }
            var inLayer: [String] = []
            if let layerName {
                inLayer.append("layer '\(layerName)'")
            } else if let layerIndex {
                inLayer.append("layer \(layerIndex)")
            }
            if let featureIndex { inLayer.append("feature \(featureIndex)") }
            if let valueIndex { inLayer.append("value \(valueIndex)") }
            if !inLayer.isEmpty { parts.append(inLayer.joined(separator: " ")) }
            return parts.joined(separator: ": ")
        }
    }
}

/// Bad input: exit status 2.
extension VectorTileError: ExitStatusError {}
