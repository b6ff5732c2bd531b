import Foundation
import MapTestSupport
import Testing
import VectorTiles

/// The seven value fields of spec 4.1, read into five cases.
struct VectorTileValueTests {
    /// The value of a one-feature layer whose single tag names `value`.
    private func decoded(_ value: TestTile.Value) throws -> VectorTileValue? {
        let tile = TestTile.layer([TestTile.Feature(tags: [0, 0])], TestTile.Layer(keys: ["k"], values: [value]))
        return try VectorTile(data: tile.data).layers.first?.features.first?.properties["k"]
    }

    @Test func everyValueFieldIsRead() throws {
        #expect(try decoded(.string("Zürich ✓")) == .string("Zürich ✓"))
        #expect(try decoded(.string("")) == .string(""))
        #expect(try decoded(.float(0.1)) == .double(Double(Float(0.1))))
        #expect(try decoded(.float(-.infinity)) == .double(-.infinity))
        #expect(try decoded(.double(1.23)) == .double(1.23))
        #expect(try decoded(.int(-5)) == .int(-5))
        #expect(try decoded(.int(.min)) == .int(.min))
        #expect(try decoded(.uint(.max)) == .uint(.max))
        #expect(try decoded(.sint(-1)) == .int(-1))
        #expect(try decoded(.sint(.min)) == .int(.min))
        #expect(try decoded(.sint(.max)) == .int(.max))
        #expect(try decoded(.bool(true)) == .bool(true))
        #expect(try decoded(.bool(false)) == .bool(false))
    }

    /// int64 writes negatives as ten-byte two's complement, sint64 as zigzag.
    @Test func negativeIntsAreReadFromBothEncodings() throws {
        var intValue = ProtobufWriter()
        TestTile.Value.int(-2).write(to: &intValue)
        #expect(intValue.bytes == [0x20, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        var sintValue = ProtobufWriter()
        TestTile.Value.sint(-2).write(to: &sintValue)
        #expect(sintValue.bytes == [0x30, 0x03])
        #expect(try decoded(.int(-2)) == decoded(.sint(-2)))
    }

    @Test func invalidUTF8IsReplacedNotRefused() throws {
        var layer = TestTile.Layer(keys: ["k"])
        layer.extra = { $0.message(4) { $0.lengthDelimited(1, [0x61, 0xFF, 0x62]) } }
        let tile = TestTile.layer([TestTile.Feature(tags: [0, 0])], layer)
        #expect(try VectorTile(data: tile.data).layers[0].features[0].properties["k"] == .string("a\u{FFFD}b"))
    }

    @Test func aValueOfSeveralFieldsKeepsTheLast() throws {
        var layer = TestTile.Layer(keys: ["k"])
        layer.extra = { value in
            value.message(4) {
                $0.string(1, "text")
                $0.varint(5, 7)
            }
        }
        let tile = TestTile.layer([TestTile.Feature(tags: [0, 0])], layer)
        #expect(try VectorTile(data: tile.data).layers[0].features[0].properties["k"] == .uint(7))
    }

    @Test func aValueHoldingNoneOfTheFieldsIsAnErrorNamingIt() {
        var layer = TestTile.Layer(name: "shops", values: [.bool(true)])
        layer.extra = { $0.message(4) { $0.varint(8, 1) } }  // only an extension field
        #expect(
            throws: VectorTileError.valueWithoutContent(
                location: .init(layerIndex: 0, layerName: "shops", valueIndex: 1))
        ) {
            try VectorTile(data: TestTile(layers: [layer]).data)
        }
    }

    @Test func descriptionIsTheValueAsText() {
        #expect(
            [VectorTileValue.string("a b"), .double(2.5), .int(-3), .uint(4), .bool(true)].map(\.description) == [
                "a b", "2.5", "-3", "4", "true",
            ])
    }
}
