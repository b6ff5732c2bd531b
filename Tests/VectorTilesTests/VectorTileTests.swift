import Foundation
import MapCore
import MapTestSupport
import MapUtilities
import Testing
import VectorTiles

/// Whole tiles: layers, compression, unknown fields, and damaged bytes of every kind.
struct VectorTileTests {
    /// The tile errors name in these tests.
    private static func roadsTile() throws -> TileID {
        try TileID(z: 14, x: 9326, y: 4742)
    }

    /// A tile using every part of the schema: keys and values of each type, features of each
    /// geometry type, ids present and absent; in one layer, so that no cut of it is a whole tile,
    /// and with a second, smaller layer when `twoLayers`.
    private static func richTile(twoLayers: Bool = true) -> TestTile {
        var line = GeometryWriter()
        line.moveTo((10, 10))
        line.lineTo((20, -5), (4100, 30))
        var polygon = GeometryWriter()
        polygon.ring([(0, 0), (64, 0), (64, 64), (0, 64)])
        polygon.ring([(16, 16), (16, 32), (32, 32), (32, 16)])
        let roads = TestTile.Layer(
            name: "roads", version: 2, extent: 4096, keys: ["name", "lanes", "oneway"],
            values: [.string("Main St"), .int(2), .bool(true), .double(2.5), .sint(-7), .uint(9), .float(0.5)],
            features: [
                TestTile.Feature(id: 1, tags: [0, 0, 1, 1, 2, 2], type: 2, geometry: line.numbers),
                TestTile.Feature(id: nil, tags: [1, 4], type: 2, geometry: line.numbers),
                TestTile.Feature(id: 3, tags: [0, 3, 1, 5, 2, 6], type: 3, geometry: polygon.numbers),
                TestTile.Feature(id: 4, type: 1, geometry: [17, 10, 14, 3, 9]),
                TestTile.Feature(id: 5, type: 0, geometry: [9, 1, 1]),
            ]
        )
        let buildings = TestTile.Layer(
            name: "buildings", version: 2, extent: 512, keys: ["height"], values: [.double(12.5)],
            features: [
                TestTile.Feature(id: 77, tags: [0, 0], type: 3, geometry: polygon.numbers),
                TestTile.Feature(id: 78, type: 1, geometry: [17, 10, 14, 3, 9]),
            ]
        )
        return TestTile(layers: twoLayers ? [roads, buildings] : [roads])
    }

    @Test func emptyDataIsATileOfNoLayers() throws {
        #expect(try VectorTile(data: Data()).layers.isEmpty)
    }

    @Test func layersKeepTheirOrderAndAreFoundByName() throws {
        let tile = try VectorTile(data: Self.richTile().data)
        #expect(tile.layers.map(\.name) == ["roads", "buildings"])
        #expect(tile.layer(named: "buildings")?.extent == 512)
        #expect(tile.layer(named: "buildings")?.features.map(\.id) == [77, 78])
        #expect(tile.layer(named: "water") == nil)
        let roads = try #require(tile.layer(named: "roads"))
        #expect(roads.version == 2)
        #expect(roads.features[0].properties == ["name": .string("Main St"), "lanes": .int(2), "oneway": .bool(true)])
        #expect(roads.features[0].geometry == .lines([points((10, 10), (20, -5), (4100, 30))]))
        #expect(roads.features[1].properties == ["lanes": .int(-7)])
    }

    @Test func aLayerRepeatingAnotherNameIsKeptAndLookupFindsTheFirst() throws {
        let tile = try VectorTile(
            data: TestTile(layers: [TestTile.Layer(name: "a", extent: 1), TestTile.Layer(name: "a", extent: 2)]).data)
        #expect(tile.layers.count == 2)
        #expect(tile.layer(named: "a")?.extent == 1)
    }

    @Test func layerWithoutVersionOrExtentHasTheSchemaDefaults() throws {
        let tile = try VectorTile(
            data: TestTile(layers: [TestTile.Layer(name: "plain", version: nil, extent: nil)]).data)
        #expect(tile.layers == [VectorTileLayer(name: "plain", version: 1, extent: 4096, features: [])])
        #expect(VectorTileLayer.defaultExtent == 4096)
    }

    @Test func featureIdIsNilWhenAbsentAndKeptWhenPresentEvenZero() throws {
        let features = [TestTile.Feature(id: nil), TestTile.Feature(id: 0), TestTile.Feature(id: .max)]
        let tile = try VectorTile(data: TestTile.layer(features).data)
        #expect(tile.layers[0].features.map(\.id) == [nil, 0, .max])
    }

    @Test func gzipCompressedTileDecodesAsTheRawOne() throws {
        let raw = Self.richTile().bytes
        let compressed = Gzip.compress(raw)
        #expect(compressed.starts(with: [0x1F, 0x8B]))
        #expect(try VectorTile(data: Data(compressed)) == VectorTile(data: Data(raw)))
    }

    /// Python's `zlib.compress` of a tile with one layer "z" holding the spec's point example.
    @Test func zlibCompressedTileDecodes() throws {
        let zlib: [UInt8] = [
            0x78, 0x9C, 0x93, 0x12, 0xAC, 0x60, 0xE2, 0x62, 0xAC, 0x12, 0x62, 0x97, 0x60, 0x54, 0x62, 0xE6, 0x34, 0x52,
            0xD2,
            0x68, 0x50, 0x00, 0x00, 0x18, 0xB4, 0x02, 0xA7,
        ]
        let tile = try VectorTile(data: Data(zlib))
        #expect(
            tile.layers == [
                VectorTileLayer(
                    name: "z", version: 2, extent: 4096,
                    features: [
                        VectorTileFeature(type: .point, geometry: .points(points((25, 17))))
                    ])
            ])
    }

    @Test func layersDecodedApartAndInAnyOrderMakeTheTileDecodedAtOnce() throws {
        let compressed = Data(Gzip.compress(Self.richTile().bytes))
        let undecoded = try UndecodedVectorTile(data: compressed, tile: try Self.roadsTile())
        #expect(undecoded.layerCount == 2)
        var layers: [Int: Result<VectorTileLayer, VectorTileError>] = [:]
        for index in (0..<undecoded.layerCount).reversed() { layers[index] = undecoded.layer(index) }
        let stepwise = try VectorTile(undecoded, layers: (0..<undecoded.layerCount).map { layers[$0]! })
        #expect(stepwise == (try VectorTile(data: compressed)))
    }

    @Test func stepwiseDecodingThrowsWhatDecodingAtOnceThrows() throws {
        // A layer of an unsupported version, then a tile field cut short after it: the layer's
        // error comes first, as reading in order meets it.
        var tile = Self.richTile()
        tile.layers[1].version = 9
        let data = Data(tile.bytes + [0x1A, 0x7F])
        let atOnce = try #require(throws: VectorTileError.self) { try VectorTile(data: data) }
        let undecoded = try UndecodedVectorTile(data: data)
        let stepwise = try #require(throws: VectorTileError.self) {
            try VectorTile(undecoded, layers: (0..<undecoded.layerCount).map { undecoded.layer($0) })
        }
        #expect(stepwise == atOnce)
        #expect(atOnce.description.contains("version 9"), "\(atOnce)")
        // With the layer whole, the cut field is the error.
        let cut = Data(Self.richTile().bytes + [0x1A, 0x7F])
        let fieldError = try #require(throws: VectorTileError.self) { try VectorTile(data: cut) }
        let cutUndecoded = try UndecodedVectorTile(data: cut)
        #expect(throws: fieldError) {
            try VectorTile(cutUndecoded, layers: (0..<cutUndecoded.layerCount).map { cutUndecoded.layer($0) })
        }
    }

    @Test func badGzipIsAnErrorNamingTheTile() throws {
        let roads = try Self.roadsTile()
        let compressed = Gzip.compress(Self.richTile().bytes)
        let cut = Data(compressed.dropLast(12))
        #expect(
            throws: VectorTileError.invalidCompression(
                reason: "its gzip stream is cut short", location: .init(tile: roads))
        ) {
            try VectorTile(data: cut, tile: roads)
        }
        let error = try #require(throws: VectorTileError.self) {
            try VectorTile(data: Data([0x1F, 0x8B, 0x08, 0x00, 0xFF, 0xFF]), tile: roads)
        }
        #expect(error.description.hasPrefix("tile 14/9326/4742: cannot decompress the tile:"))
    }

    @Test func unknownFieldsOfEveryWireTypeAreSkippedAtEveryLevel() throws {
        func unknownFields(_ message: inout ProtobufWriter) {
            message.varint(16, 300)
            message.fixed64(17, 0x0102_0304_0506_0708)
            message.lengthDelimited(18, [0xFF, 0xFF, 0xFF])  // not even a message inside
            message.fixed32(19, 0xDEAD_BEEF)
            message.group(20) { group in
                group.varint(1, 5)
                group.group(21) { $0.string(2, "nested") }
                group.group(20) { $0.fixed32(3, 1) }  // a group inside one of the same number
            }
            message.varint((1 << 29) - 1, 1)
        }
        var plain = TestTile.layer([TestTile.Feature(id: 5, tags: [0, 0], type: 1, geometry: [9, 50, 34])])
        plain.layers[0].keys = ["k"]
        plain.layers[0].values = [.string("v")]
        let expected = try VectorTile(data: plain.data)

        var noisy = plain
        noisy.extra = unknownFields
        noisy.layers[0].extra = unknownFields
        noisy.layers[0].features[0].extra = unknownFields
        var layer = ProtobufWriter()
        noisy.layers[0].write(to: &layer)
        // A value message with unknown fields around its string.
        layer.message(4) { value in
            unknownFields(&value)
            value.string(1, "w")
            unknownFields(&value)
        }
        var tile = ProtobufWriter()
        unknownFields(&tile)
        tile.lengthDelimited(3, layer.bytes)
        unknownFields(&tile)

        let decoded = try VectorTile(data: Data(tile.bytes))
        #expect(decoded.layers[0].features == expected.layers[0].features)
        #expect(decoded.layers.count == 1)
    }

    @Test func aKnownFieldWrittenWithAnotherWireTypeIsAnError() {
        var layer = TestTile.Layer(name: nil)
        layer.extra = { $0.varint(1, 7) }  // Layer.name as a varint
        #expect(
            throws: VectorTileError.wrongWireType(
                field: 1, name: "Layer.name", wireType: 0, expected: 2, byteOffset: 7, location: .init(layerIndex: 0)
            )
        ) {
            try VectorTile(data: TestTile(layers: [layer]).data)
        }
        var tile = ProtobufWriter()
        tile.varint(3, 1)  // Tile.layers as a varint
        #expect(
            throws: VectorTileError.wrongWireType(
                field: 3, name: "Tile.layers", wireType: 0, expected: 2, byteOffset: 0, location: .init())
        ) {
            try VectorTile(data: Data(tile.bytes))
        }
        var feature = TestTile.Feature()
        feature.extra = { $0.fixed32(4, 9) }  // Feature.geometry as 32 bits
        #expect(throws: VectorTileError.self) { try VectorTile(data: TestTile.layer([feature]).data) }
    }

    @Test func wireTypesFieldNumbersAndGroupsThatProtobufForbidsAreErrors() throws {
        let roads = try Self.roadsTile()
        #expect(throws: VectorTileError.invalidWireType(6, field: 3, byteOffset: 0, location: .init(tile: roads))) {
            try VectorTile(data: Data([3 << 3 | 6]), tile: roads)
        }
        #expect(throws: VectorTileError.invalidWireType(7, field: 16, byteOffset: 0, location: .init())) {
            try VectorTile(data: Data([0x87, 0x01]))
        }
        #expect(throws: VectorTileError.invalidFieldNumber(0, byteOffset: 0, location: .init())) {
            try VectorTile(data: Data([0x00, 0x01]))
        }
        var endWithoutStart = ProtobufWriter()
        endWithoutStart.key(20, wireType: 4)
        #expect(throws: VectorTileError.unbalancedGroup(field: 20, byteOffset: 0, location: .init())) {
            try VectorTile(data: Data(endWithoutStart.bytes))
        }
        var startWithoutEnd = ProtobufWriter()
        startWithoutEnd.varint(16, 1)
        startWithoutEnd.key(20, wireType: 3)
        startWithoutEnd.varint(1, 1)
        #expect(throws: VectorTileError.unbalancedGroup(field: 20, byteOffset: 3, location: .init())) {
            try VectorTile(data: Data(startWithoutEnd.bytes))
        }
        var crossed = ProtobufWriter()
        crossed.key(20, wireType: 3)
        crossed.key(21, wireType: 4)
        #expect(throws: VectorTileError.unbalancedGroup(field: 21, byteOffset: 2, location: .init())) {
            try VectorTile(data: Data(crossed.bytes))
        }
    }

    @Test func varintsLongerThan64BitsAreErrors() {
        #expect(throws: VectorTileError.varintTooLong(byteOffset: 1, location: .init())) {
            try VectorTile(data: Data([2 << 3] + [UInt8](repeating: 0xFF, count: 10) + [0x01]))
        }
    }

    @Test func layersOfOtherVersionsWithoutNamesOrOfZeroExtentAreErrors() throws {
        let roads = try Self.roadsTile()
        for version: UInt64 in [0, 3, 1 << 32 | 3] {
            let layer = TestTile.Layer(name: "future", version: version)
            let read = UInt32(truncatingIfNeeded: version)
            #expect(
                throws: VectorTileError.unsupportedVersion(
                    read, location: .init(tile: roads, layerIndex: 0, layerName: "future"))
            ) {
                try VectorTile(data: TestTile(layers: [layer]).data, tile: roads)
            }
        }
        let unnamed = TestTile(layers: [TestTile.Layer(name: "fine"), TestTile.Layer(name: nil)])
        #expect(throws: VectorTileError.layerWithoutName(location: .init(layerIndex: 1))) {
            try VectorTile(data: unnamed.data)
        }
        #expect(throws: VectorTileError.invalidExtent(0, location: .init(layerIndex: 0, layerName: "flat"))) {
            try VectorTile(data: TestTile(layers: [TestTile.Layer(name: "flat", extent: 0)]).data)
        }
    }

    /// Spec 4.5's example: two point features sharing keys and values.
    @Test func specExampleTileReadsAsTheSpecDescribesIt() throws {
        let layer = TestTile.Layer(
            name: "points", version: 2, extent: 4096, keys: ["hello", "h", "count"],
            values: [.string("world"), .double(1.23), .string("again"), .int(2)],
            features: [
                TestTile.Feature(id: 1, tags: [0, 0, 1, 0, 2, 1], type: 1, geometry: [9, 2410, 3080]),
                TestTile.Feature(id: 2, tags: [0, 2, 2, 3], type: 1, geometry: [9, 2410, 3080]),
            ]
        )
        let tile = try VectorTile(data: TestTile(layers: [layer]).data)
        #expect(
            tile.layers[0].features == [
                VectorTileFeature(
                    id: 1, type: .point,
                    properties: ["hello": .string("world"), "h": .string("world"), "count": .double(1.23)],
                    geometry: .points(points((1205, 1540)))),
                VectorTileFeature(
                    id: 2, type: .point, properties: ["hello": .string("again"), "count": .int(2)],
                    geometry: .points(points((1205, 1540)))),
            ])
    }

    // MARK: - Damage

    /// Every cut of a valid one-layer tile is an error saying where the data ends; none
    /// crashes, and none is misread as a smaller tile. The same for its gzip form.
    @Test func aTileCutAtEveryByteThrowsAndNeverCrashes() throws {
        let roads = try Self.roadsTile()
        let bytes = Self.richTile(twoLayers: false).bytes
        #expect(bytes.count > 100)
        for length in 1..<bytes.count {
            let error = try #require(throws: VectorTileError.self, "cut at \(length)") {
                try VectorTile(data: Data(bytes.prefix(length)), tile: roads)
            }
            switch error {
            case .varintPastEnd(let offset, _):
                #expect(offset <= length)
            case .fieldPastEnd(_, let offset, let byteCount, let remaining, _):
                #expect(offset < length && byteCount > UInt64(remaining))
            default:
                Issue.record("cut at \(length): \(error)")
            }
            #expect(error.location.tile == roads)
        }
        let compressed = Gzip.compress(bytes)
        for length in 1..<compressed.count {
            #expect(throws: VectorTileError.self, "gzip cut at \(length)") {
                try VectorTile(data: Data(compressed.prefix(length)))
            }
        }
    }

    /// Hostile shapes of valid data, many tiny pieces, decode whole: 300,000 one-point MoveTos,
    /// and geometry and tags in 100,000 packed pieces. No clock here (speed is measured by the
    /// benchmarks: VectorBenchmark's first render decodes every tile); a decoder that reserves
    /// exactly per piece, quadratic in the pieces, made this test take minutes.
    @Test func manyTinyCommandsAndPiecesDecode() throws {
        let moveTo = GeometryWriter.command(1, count: 1)
        let points = [UInt32](unsafeUninitializedCapacity: 900_000) { buffer, count in
            for index in 0..<300_000 {
                buffer[3 * index] = moveTo
                buffer[3 * index + 1] = 2
                buffer[3 * index + 2] = 0
            }
            count = 900_000
        }
        var pieces = TestTile.Feature(type: 1, geometry: [])
        pieces.extra = { message in
            for _ in 0..<100_000 {
                message.packed(4, [moveTo, 2, 0])
                message.packed(2, [0, 0])
            }
        }
        let tile = TestTile.layer(
            [TestTile.Feature(type: 1, geometry: points), pieces], TestTile.Layer(keys: ["k"], values: [.int(1)]))
        let features = try VectorTile(data: tile.data).layers[0].features
        guard case .points(let many) = features[0].geometry, case .points(let joined) = features[1].geometry else {
            Issue.record("not points")
            return
        }
        #expect(many.count == 300_000 && many.last == TilePoint(300_000, 0))
        #expect(joined.count == 100_000 && features[1].properties == ["k": .int(1)])
    }

    /// Seeded random damage to a valid tile (bytes changed, dropped, duplicated): each damaged
    /// tile decodes or throws, and nothing crashes or hangs.
    @Test func randomlyDamagedTilesDecodeOrThrowButNeverCrash() {
        let bytes = Self.richTile().bytes
        var generator = SeededGenerator(seed: 12)
        var thrown = 0
        for _ in 0..<20_000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<damaged.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: damaged[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: damaged[index] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
                case 2: if damaged.count > 1 { damaged.remove(at: index) }
                default: damaged.insert(damaged[index], at: index)
                }
            }
            do {
                _ = try VectorTile(data: Data(damaged))
            } catch {
                thrown += 1
            }
        }
        #expect(thrown > 10_000, "most damage is found")
    }
}
