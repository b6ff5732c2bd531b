import Foundation
import MapTestSupport
import Testing
import VectorTiles

/// Features' ids, types and properties (spec 4.2, 4.4).
struct VectorTileFeatureTests {
    private func layer(keys: [String], values: [TestTile.Value], _ features: [TestTile.Feature]) -> TestTile {
        TestTile.layer(features, TestTile.Layer(name: "places", keys: keys, values: values))
    }

    private func location(feature: Int) -> VectorTileError.Location {
        VectorTileError.Location(layerIndex: 0, layerName: "places", featureIndex: feature)
    }

    @Test func propertiesAreTheLayersKeysAndValuesTheTagsName() throws {
        // Features come before keys and values in the message, as encoders write them.
        let tile = layer(
            keys: ["name", "rank", "open"], values: [.string("Louvre"), .uint(1), .bool(false), .string("Orsay")],
            [
                TestTile.Feature(tags: [0, 0, 1, 1, 2, 2]),
                TestTile.Feature(tags: [0, 3, 2, 2]),
                TestTile.Feature(tags: []),
            ])
        let features = try VectorTile(data: tile.data).layers[0].features
        #expect(
            features.map(\.properties) == [
                ["name": .string("Louvre"), "rank": .uint(1), "open": .bool(false)],
                ["name": .string("Orsay"), "open": .bool(false)],
                [:],
            ])
    }

    @Test func tagsWrittenUnpackedAreReadAsPacked() throws {
        var feature = TestTile.Feature()
        feature.extra = { message in
            for tag: UInt64 in [0, 1] { message.varint(2, tag) }
        }
        let tile = layer(keys: ["name"], values: [.string("a"), .string("b")], [feature])
        #expect(try VectorTile(data: tile.data).layers[0].features[0].properties == ["name": .string("b")])
    }

    @Test func geometryWrittenInSeveralPiecesIsJoined() throws {
        var feature = TestTile.Feature(type: 2, geometry: [9, 4, 4])
        feature.extra = { message in
            message.packed(4, [18, 0, 16])
            message.varint(4, 16)
            message.varint(4, 0)
        }
        let geometry = try VectorTile(data: layer(keys: [], values: [], [feature]).data).layers[0].features[0].geometry
        #expect(geometry == .lines([points((2, 2), (2, 10), (10, 10))]))
    }

    @Test func aRepeatedKeyKeepsTheLastValue() throws {
        let tile = layer(
            keys: ["name"], values: [.string("first"), .string("last")], [TestTile.Feature(tags: [0, 0, 0, 1])])
        #expect(try VectorTile(data: tile.data).layers[0].features[0].properties == ["name": .string("last")])
    }

    @Test func typesPastPolygonAndAMissingTypeAreUnknown() throws {
        let tile = layer(
            keys: [], values: [],
            [
                TestTile.Feature(type: 4, geometry: [9, 2, 2]), TestTile.Feature(type: nil),
                TestTile.Feature(type: 1 << 40),
            ])
        let features = try VectorTile(data: tile.data).layers[0].features
        #expect(features.map(\.type) == [.unknown, .unknown, .unknown])
        #expect(features.allSatisfy { $0.geometry == .none })
        #expect(VectorTileGeometryType.allCases.map(\.rawValue) == [0, 1, 2, 3])
    }

    @Test func anOddNumberOfTagsIsAnError() {
        let tile = layer(
            keys: ["a"], values: [.bool(true)], [TestTile.Feature(tags: [0, 0]), TestTile.Feature(tags: [0, 0, 0])])
        #expect(throws: VectorTileError.oddTagCount(3, location: location(feature: 1))) {
            try VectorTile(data: tile.data)
        }
    }

    @Test func tagIndicesPastTheKeysOrValuesAreErrors() {
        let keyOut = layer(keys: ["a", "b"], values: [.bool(true)], [TestTile.Feature(tags: [2, 0])])
        #expect(throws: VectorTileError.keyIndexOutOfRange(2, keyCount: 2, location: location(feature: 0))) {
            try VectorTile(data: keyOut.data)
        }
        let valueOut = layer(
            keys: ["a"], values: [.bool(true)], [TestTile.Feature(), TestTile.Feature(tags: [0, 0, 0, .max])])
        #expect(throws: VectorTileError.valueIndexOutOfRange(.max, valueCount: 1, location: location(feature: 1))) {
            try VectorTile(data: valueOut.data)
        }
        let noValues = layer(keys: ["a"], values: [], [TestTile.Feature(tags: [0, 0])])
        #expect(throws: VectorTileError.valueIndexOutOfRange(0, valueCount: 0, location: location(feature: 0))) {
            try VectorTile(data: noValues.data)
        }
    }
}
