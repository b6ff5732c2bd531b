import Foundation
import Testing
import VectorTiles

/// A vector tile described field by field and encoded with ``ProtobufWriter`` as the schema of
/// spec 2.1 lays it out (vector_tile.proto): what the tests decode, independent of the decoder.
///
/// Fields left nil are not written, so defaults and missing fields can be tested; `extra`
/// writes more fields (unknown ones, damage) after the known ones.
struct TestTile {
    var layers: [Layer] = []
    var extra: (inout ProtobufWriter) -> Void = { _ in }

    struct Layer {
        var name: String? = "layer"
        var version: UInt64? = 2
        var extent: UInt64? = 4096
        var keys: [String] = []
        var values: [Value] = []
        var features: [Feature] = []
        var extra: (inout ProtobufWriter) -> Void = { _ in }
    }

    struct Feature {
        var id: UInt64?
        var tags: [UInt32] = []
        /// The `type` field: 0 unknown, 1 point, 2 line string, 3 polygon.
        var type: UInt64? = 1
        var geometry: [UInt32] = []
        var extra: (inout ProtobufWriter) -> Void = { _ in }
    }

    /// A `Value` message with one of its seven fields.
    enum Value {
        case string(String)
        case float(Float)
        case double(Double)
        case int(Int64)
        case uint(UInt64)
        case sint(Int64)
        case bool(Bool)
    }

    /// The tile's protobuf bytes.
    var bytes: [UInt8] {
        var tile = ProtobufWriter()
        for layer in layers {
            tile.message(3) { layer.write(to: &$0) }
        }
        extra(&tile)
        return tile.bytes
    }

    /// The tile's protobuf bytes as `Data`.
    var data: Data { Data(bytes) }
}

extension TestTile.Layer {
    /// Writes the layer's fields in the schema's order, version first as spec 4.1 advises.
    func write(to layer: inout ProtobufWriter) {
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
    func write(to feature: inout ProtobufWriter) {
        if let id { feature.varint(1, id) }
        if !tags.isEmpty { feature.packed(2, tags) }
        if let type { feature.varint(3, type) }
        if !geometry.isEmpty { feature.packed(4, geometry) }
        extra(&feature)
    }
}

extension TestTile.Value {
    func write(to value: inout ProtobufWriter) {
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
    static func layer(_ features: [Feature], _ layer: Layer = Layer()) -> TestTile {
        var layer = layer
        layer.features = features
        return TestTile(layers: [layer])
    }

    /// The geometry of a feature of `type` with `numbers` as its geometry, decoded in a layer of
    /// `version`.
    static func decodedGeometry(_ numbers: [UInt32], type: UInt64, version: UInt64 = 2) throws -> VectorTileGeometry {
        var layer = Layer()
        layer.version = version
        let tile = TestTile.layer([Feature(type: type, geometry: numbers)], layer)
        return try #require(VectorTile(data: tile.data).layers.first?.features.first).geometry
    }
}
