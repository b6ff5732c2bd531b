import Foundation
import MapCore
import MapTestSupport
import Testing
import VectorTiles

/// Errors say in one line where in the tile and what is wrong.
struct VectorTileErrorTests {
    @Test func aGeometryErrorNamesTheTileLayerAndFeature() throws {
        let tile = try TileID(z: 14, x: 9326, y: 4742)
        var features = (0..<3).map { _ in TestTile.Feature(type: 2, geometry: [9, 2, 2, 10, 2, 2]) }
        // LineTo of 1,000,000 points with twelve numbers after it.
        features.append(
            TestTile.Feature(
                type: 2,
                geometry: [9, 2, 2, GeometryWriter.command(2, count: 1_000_000)] + Array(repeating: 2, count: 12)))
        let data = TestTile.layer(features, TestTile.Layer(name: "roads")).data
        let error = try #require(throws: VectorTileError.self) { try VectorTile(data: data, tile: tile) }
        #expect(
            error.description
                == "tile 14/9326/4742: layer 'roads' feature 3: the geometry's LineTo asks for 1000000 points but 12 numbers remain"
        )
        #expect(
            error.location == VectorTileError.Location(tile: tile, layerIndex: 0, layerName: "roads", featureIndex: 3))
    }

    /// A tile large enough for its layers to be decoded on every core at once fails with the
    /// error reading it in order meets first, whichever layer finishes first.
    @Test func aLargeTileFailsWithTheFirstBrokenLayerInOrder() throws {
        let good = (0..<3_000).map { index in
            TestTile.Feature(type: 2, geometry: [9, UInt32(2 * (index % 100)), 2, 10, 2, 2])
        }
        let broken =
            good + [TestTile.Feature(type: 2, geometry: [9, 2, 2, GeometryWriter.command(2, count: 1_000_000)])]
        func tile(_ layers: [(String, [TestTile.Feature])]) -> Data {
            TestTile(layers: layers.map { name, features in TestTile.Layer(name: name, features: features) }).data
        }
        let layers = [("water", good), ("roads", broken), ("places", good), ("buildings", broken)]
        let data = tile(layers)
        #expect(data.count >= 32 * 1024)
        for _ in 0..<20 {
            let error = try #require(throws: VectorTileError.self) { try VectorTile(data: data) }
            #expect(error.location.layerIndex == 1)
            #expect(error.location.layerName == "roads")
        }
        // Without broken layers the layers come in the tile's order, every feature kept.
        let decoded = try VectorTile(data: tile(layers.map { ($0.0, good) }))
        #expect(decoded.layers.map(\.name) == ["water", "roads", "places", "buildings"])
        #expect(decoded.layers.allSatisfy { $0.features.count == good.count })
    }

    @Test func locationsSayAsMuchAsIsKnown() throws {
        let tile = try TileID(z: 2, x: 1, y: 3)
        #expect(VectorTileError.Location().description == "")
        #expect(VectorTileError.Location(tile: tile).description == "tile 2/1/3")
        #expect(VectorTileError.Location(layerIndex: 4).description == "layer 4")
        #expect(
            VectorTileError.Location(tile: tile, layerIndex: 4, layerName: "water", valueIndex: 2).description
                == "tile 2/1/3: layer 'water' value 2")
        #expect(
            VectorTileError.varintPastEnd(byteOffset: 3, location: .init()).description
                == "the data ends before the varint at byte 3 is whole")
    }

    @Test func everyCaseIsOneLineSayingWhatIsWrong() throws {
        let location = VectorTileError.Location(
            tile: try TileID(z: 1, x: 0, y: 1), layerIndex: 0, layerName: "l", featureIndex: 2)
        let cases: [(VectorTileError, String)] = [
            (
                .invalidCompression(reason: "its gzip stream is cut short", location: location),
                "cannot decompress the tile: its gzip stream is cut short"
            ),
            (.varintTooLong(byteOffset: 9, location: location), "the varint at byte 9 is longer than 64 bits"),
            (
                .fieldPastEnd(field: 3, byteOffset: 40, byteCount: 30, remainingBytes: 1, location: location),
                "field 3 at byte 40 is 30 bytes long but only 1 byte remains"
            ),
            (
                .invalidWireType(6, field: 5, byteOffset: 12, location: location),
                "field 5 at byte 12 has wire type 6, which protocol buffers do not define"
            ),
            (
                .invalidFieldNumber(0, byteOffset: 1, location: location),
                "the field at byte 1 has number 0, outside 1 to 536870911"
            ),
            (
                .wrongWireType(
                    field: 1, name: "Layer.name", wireType: 0, expected: 2, byteOffset: 7, location: location),
                "field 1 (Layer.name) at byte 7 is written as varint (0), not as length-delimited (2)"
            ),
            (
                .unbalancedGroup(field: 20, byteOffset: 2, location: location),
                "the group of field 20 at byte 2 does not balance: an end without a start, or a start without an end"
            ),
            (.layerWithoutName(location: location), "the layer has no name"),
            (
                .unsupportedVersion(3, location: location),
                "the layer is of version 3; this reader knows versions 1 and 2"
            ),
            (.invalidExtent(0, location: location), "the layer's extent is 0; it must be at least 1"),
            (.valueWithoutContent(location: location), "the value holds none of the seven value types"),
            (.oddTagCount(3, location: location), "the feature has 3 tags; tags come in key-value pairs"),
            (.keyIndexOutOfRange(7, keyCount: 1, location: location), "a tag names key 7 but the layer has 1 key"),
            (
                .valueIndexOutOfRange(7, valueCount: 5, location: location),
                "a tag names value 7 but the layer has 5 values"
            ),
            (
                .geometryCommandPastEnd(.moveTo, count: 1, remainingNumbers: 1, location: location),
                "the geometry's MoveTo asks for 1 point but 1 number remains"
            ),
            (
                .unknownGeometryCommand(id: 3, position: 4, location: location),
                "the geometry's command at position 4 has id 3, not MoveTo (1), LineTo (2) or ClosePath (7)"
            ),
            (
                .unexpectedGeometryCommand(.closePath, position: 6, type: .lineString, location: location),
                "the geometry's ClosePath at position 6 is out of place: each line of a line geometry is a MoveTo of 1, then LineTos"
            ),
            (
                .invalidCommandCount(.moveTo, count: 2, position: 0, type: .polygon, location: location),
                "the geometry's MoveTo at position 0 has count 2; in a polygon geometry it must be 1"
            ),
            (
                .coordinateOutOfRange(position: 3, location: location),
                "the geometry's command at position 3 moves to a point outside the 32-bit coordinate range"
            ),
        ]
        for (error, problem) in cases {
            #expect(error.description == "tile 1/0/1: layer 'l' feature 2: " + problem)
            #expect(!error.description.contains("\n"))
            #expect(error.location == location)
        }
    }
}
