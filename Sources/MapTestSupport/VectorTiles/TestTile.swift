public import Foundation

/// A vector tile described field by field and encoded with ``ProtobufWriter`` as the schema of
/// spec 2.1 lays it out (vector_tile.proto): what the tests decode, independent of the decoder.
///
/// Fields left nil are not written, so defaults and missing fields can be tested; `extra`
/// writes more fields (unknown ones, damage) after the known ones.
public struct TestTile {
    public var layers: [Layer] = []
    public var extra: (inout ProtobufWriter) -> Void = { _ in }

    public init(layers: [Layer] = [], extra: @escaping (inout ProtobufWriter) -> Void = { _ in }) {
        self.layers = layers
        self.extra = extra
    }

    public struct Layer {
        public var name: String? = "layer"
        public var version: UInt64? = 2
        public var extent: UInt64? = 4096
        public var keys: [String] = []
        public var values: [Value] = []
        public var features: [Feature] = []
        public var extra: (inout ProtobufWriter) -> Void = { _ in }

        public init(
            name: String? = "layer", version: UInt64? = 2, extent: UInt64? = 4096, keys: [String] = [],
            values: [Value] = [],
            features: [Feature] = [], extra: @escaping (inout ProtobufWriter) -> Void = { _ in }
        ) {
            self.name = name
            self.version = version
            self.extent = extent
            self.keys = keys
            self.values = values
            self.features = features
            self.extra = extra
        }
    }

    public struct Feature {
        public var id: UInt64?
        public var tags: [UInt32] = []
        /// The `type` field: 0 unknown, 1 point, 2 line string, 3 polygon.
        public var type: UInt64? = 1
        public var geometry: [UInt32] = []
        public var extra: (inout ProtobufWriter) -> Void = { _ in }

        public init(
            id: UInt64? = nil, tags: [UInt32] = [], type: UInt64? = 1, geometry: [UInt32] = [],
            extra: @escaping (inout ProtobufWriter) -> Void = { _ in }
        ) {
            self.id = id
            self.tags = tags
            self.type = type
            self.geometry = geometry
            self.extra = extra
        }
    }

    /// A `Value` message with one of its seven fields.
    public enum Value {
        case string(String)
        case float(Float)
        case double(Double)
        case int(Int64)
        case uint(UInt64)
        case sint(Int64)
        case bool(Bool)
    }

    /// The tile's protobuf bytes.
    public var bytes: [UInt8] {
        var tile = ProtobufWriter()
        for layer in layers {
            tile.message(3) { layer.write(to: &$0) }
        }
        extra(&tile)
        return tile.bytes
    }

    /// The tile's protobuf bytes as `Data`.
    public var data: Data { Data(bytes) }
}

extension TestTile.Layer {
    /// Writes the layer's fields in the schema's order, version first as spec 4.1 advises.
    public func write(to layer: inout ProtobufWriter) {
        if let version { layer.varint(15, version) }
        if let name { layer.string(1, name) }
        for feature in features {
            layer.message(2) { feature.write(to: &$0) }
        }
        for key in keys { layer.string(3, key) }
        for value in values {
            layer.message(4) { value.write(to: &$0) }
        }
        if let extent { layer.varint(5, extent) }
        extra(&layer)
    }
}

extension TestTile.Feature {
    public func write(to feature: inout ProtobufWriter) {
        if let id { feature.varint(1, id) }
        if !tags.isEmpty { feature.packed(2, tags) }
        if let type { feature.varint(3, type) }
        if !geometry.isEmpty { feature.packed(4, geometry) }
        extra(&feature)
    }
}

extension TestTile.Value {
    public func write(to value: inout ProtobufWriter) {
        switch self {
        case .string(let text): value.string(1, text)
        case .float(let number): value.fixed32(2, number.bitPattern)
        case .double(let number): value.fixed64(3, number.bitPattern)
        case .int(let number): value.varint(4, UInt64(bitPattern: number))
        case .uint(let number): value.varint(5, number)
        case .sint(let number): value.varint(6, UInt64(bitPattern: (number << 1) ^ (number >> 63)))
        case .bool(let flag): value.varint(7, flag ? 1 : 0)
        }
    }
}

extension TestTile {
    /// A tile of one layer (by default named "layer", version 2, extent 4096) holding `features`.
    public static func layer(_ features: [Feature], _ layer: Layer = Layer()) -> TestTile {
        var layer = layer
        layer.features = features
        return TestTile(layers: [layer])
    }
}
