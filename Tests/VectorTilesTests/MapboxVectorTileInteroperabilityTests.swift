import Foundation
import MapJSON
import MapTestSupport
import Testing
import VectorTiles

/// An outside reference both ways: PyPI's `mapbox-vector-tile` (major version 2) encodes tiles
/// that we decode, and decodes the tiles our tests build byte by byte; both decodings must agree
/// feature for feature (``ReferenceTile``). The package runs in a virtual environment of the
/// tests' own (``PythonEnvironment/mapboxVectorTile``); without PyPI these tests fail and say so.
///
/// The package flips y by default (its `y_coord_down` is false: y up, from the tile's bottom);
/// both scripts pass `y_coord_down=True` so that coordinates are the tile's own, y down, as the
/// specification and this module have them. Without `quantize_bounds` it takes coordinates as
/// tile coordinates, rounded; `extents` (4096 by default) only names the extent.
struct MapboxVectorTileInteroperabilityTests {
    /// Encodes layers of each geometry type and property type with `mapbox_vector_tile.encode`,
    /// writes each tile, and what the package decodes from it, into the folder `argv[1]`.
    private static let encodeScript = #"""
        import json, sys
        import mapbox_vector_tile

        FUNCTIONS

        folder = sys.argv[1]
        layers = [
            {"name": "roads", "features": [
                {"geometry": "LINESTRING (10 10, 20 -5, 4100 30)", "id": 7,
                 "properties": {"name": "Main St", "lanes": 2, "oneway": True, "speed": 50.5}},
                {"geometry": "MULTILINESTRING ((0 0, 100 0), (-50 -60, -40 -70, 4200 4300))", "properties": {"name": ""}},
            ]},
            {"name": "buildings", "features": [
                {"geometry": "POLYGON ((10 10, 100 10, 100 100, 10 100, 10 10), (30 30, 60 30, 60 60, 30 60, 30 30))",
                 "id": 1, "properties": {"height": 12.5, "levels": 4}},
                {"geometry": "MULTIPOLYGON (((0 0, 50 0, 50 50, 0 50, 0 0), (10 10, 20 10, 20 20, 10 20, 10 10)),"
                             " ((-100 -100, -60 -100, -60 -60, -100 -60, -100 -100), (-90 -90, -80 -90, -80 -80, -90 -80, -90 -90)))",
                 "id": 2},
            ]},
            {"name": "pois", "features": [
                {"geometry": "POINT (25 17)", "id": 3,
                 "properties": {"kind": "caf\u00e9 \u2713", "rank": -3, "big": 2**62, "negative": -2**40,
                                "open": True, "closed": False, "ratio": 0.1}},
                {"geometry": "MULTIPOINT ((5 7), (3 2), (-10 4200))"},
            ]},
        ]
        tiles = {
            "main": mapbox_vector_tile.encode(layers, default_options={"y_coord_down": True}),
            "small": mapbox_vector_tile.encode(
                [{"name": "small", "features": [{"geometry": "LINESTRING (0 0, 256 512)"}]}],
                default_options={"y_coord_down": True, "extents": 512}),
        }
        reference = {}
        for name, data in tiles.items():
            with open(f"{folder}/{name}.mvt", "wb") as f:
                f.write(data)
            reference[name] = canonical(mapbox_vector_tile.decode(data, default_options={"y_coord_down": True}))
        with open(f"{folder}/reference.json", "w") as f:
            json.dump(reference, f)
        """#

    /// Decodes each tile file `argv[2:]` with `mapbox_vector_tile.decode` into the JSON file `argv[1]`.
    private static let decodeScript = #"""
        import json, sys
        import mapbox_vector_tile

        FUNCTIONS

        result = []
        for path in sys.argv[2:]:
            with open(path, "rb") as f:
                result.append(canonical(mapbox_vector_tile.decode(f.read(), default_options={"y_coord_down": True})))
        with open(sys.argv[1], "w") as f:
            json.dump(result, f)
        """#

    private static func script(_ text: String) -> String {
        text.replacingOccurrences(of: "FUNCTIONS", with: ReferenceTile.pythonFunctions)
    }

    @Test func tilesThePythonPackageEncodesDecodeAsItDecodesThem() throws {
        let directory = try TemporaryDirectory()
        _ = try PythonEnvironment.mapboxVectorTile.run(
            Self.script(Self.encodeScript), arguments: [directory.url.path], in: directory.url)
        let reference = try JSONValue.parse(Data(contentsOf: directory.file("reference.json")))
        let main = try VectorTile(data: Data(contentsOf: directory.file("main.mvt")))
        let small = try VectorTile(data: Data(contentsOf: directory.file("small.mvt")))
        #expect(
            ReferenceTile.json(main) == reference["main"],
            "\(ReferenceTile.json(main).jsonText)\n\(reference["main"]?.jsonText ?? "none")")
        #expect(ReferenceTile.json(small) == reference["small"])

        // And as the script wrote them, independent of both decoders.
        #expect(main.layers.map(\.name) == ["roads", "buildings", "pois"])
        #expect(main.layers.allSatisfy { $0.version == 2 && $0.extent == 4096 })
        let roads = try #require(main.layer(named: "roads"))
        #expect(roads.features[0].id == 7)
        #expect(roads.features[0].geometry == .lines([points((10, 10), (20, -5), (4100, 30))]))
        #expect(
            roads.features[0].properties == [
                "name": .string("Main St"), "lanes": .int(2), "oneway": .bool(true), "speed": .double(50.5),
            ])
        #expect(
            roads.features[1].geometry
                == .lines([points((0, 0), (100, 0)), points((-50, -60), (-40, -70), (4200, 4300))]))
        let pois = try #require(main.layer(named: "pois"))
        #expect(pois.features[0].geometry == .points(points((25, 17))))
        #expect(
            pois.features[0].properties == [
                "kind": .string("café ✓"), "rank": .int(-3), "big": .int(1 << 62), "negative": .int(-(1 << 40)),
                "open": .bool(true), "closed": .bool(false), "ratio": .double(0.1),
            ])
        #expect(pois.features[1].geometry == .points(points((5, 7), (3, 2), (-10, 4200))))
        let buildings = try #require(main.layer(named: "buildings"))
        guard case .polygons(let withHole) = buildings.features[0].geometry,
            case .polygons(let two) = buildings.features[1].geometry
        else {
            Issue.record("buildings are not polygons: \(buildings.features.map(\.geometry))")
            return
        }
        #expect(
            withHole.map { $0.map(Set.init) } == [
                [
                    Set(points((10, 10), (100, 10), (100, 100), (10, 100))),
                    Set(points((30, 30), (60, 30), (60, 60), (30, 60))),
                ]
            ])
        #expect(two.map(\.count) == [2, 2])
        #expect(
            two.map { Set($0[0]) } == [
                Set(points((0, 0), (50, 0), (50, 50), (0, 50))),
                Set(points((-100, -100), (-60, -100), (-60, -60), (-100, -60))),
            ])
        #expect(
            small.layers == [
                VectorTileLayer(
                    name: "small", version: 2, extent: 512,
                    features: [
                        VectorTileFeature(type: .lineString, geometry: .lines([points((0, 0), (256, 512))]))
                    ])
            ])
    }

    /// Our hand-built tiles, each decoded by the Python package and by us.
    private static func handBuiltTiles() -> [TestTile] {
        var lines = GeometryWriter()
        lines.moveTo((5, 5))
        lines.lineTo((-20, 40), (4150, -30))
        lines.moveTo((0, 0))
        lines.lineTo((1, 1))
        var polygon = GeometryWriter()
        polygon.ring([(10, 10), (100, 10), (100, 100), (10, 100)])
        polygon.ring([(30, 30), (30, 60), (60, 60), (60, 30)])
        var multipolygon = GeometryWriter()
        multipolygon.ring([(0, 0), (50, 0), (50, 50), (0, 50)])
        multipolygon.ring([(10, 10), (10, 20), (20, 20), (20, 10)])
        multipolygon.ring([(-100, -100), (-60, -100), (-60, -60), (-100, -60)])
        multipolygon.ring([(-90, -90), (-90, -80), (-80, -80), (-80, -90)])

        let values = TestTile.Layer(
            name: "values", version: 2, extent: 4096,
            keys: ["string", "float", "double", "int", "uint", "sint", "true", "false"],
            values: [
                .string("Zürich ✓"), .float(0.1), .double(-1e300), .int(-5_000_000_000), .uint(.max), .sint(-3),
                .bool(true), .bool(false),
            ],
            features: [
                TestTile.Feature(id: 12, tags: [0, 0, 1, 1, 2, 2, 3, 3], type: 1, geometry: [9, 50, 34]),
                TestTile.Feature(id: nil, tags: [4, 4, 5, 5, 6, 6, 7, 7], type: 1, geometry: [17, 10, 14, 3, 9]),
            ]
        )
        let shapes = TestTile.Layer(
            name: "shapes", version: nil, extent: nil,
            features: [
                TestTile.Feature(id: 1, type: 2, geometry: lines.numbers),
                TestTile.Feature(id: 2, type: 3, geometry: polygon.numbers),
                TestTile.Feature(id: 3, type: 3, geometry: multipolygon.numbers),
            ])
        var noisy = TestTile(layers: [
            TestTile.Layer(
                name: "noisy", version: 2, extent: 256, keys: ["k"], values: [.int(1)],
                features: [
                    TestTile.Feature(id: 9, tags: [0, 0], type: 2, geometry: [9, 0, 0, 10, 4, 6])
                ])
        ])
        let unknownFields: (inout ProtobufWriter) -> Void = { message in
            message.varint(16, 300)
            message.fixed64(17, 1)
            message.lengthDelimited(18, [1, 2, 3])
            message.fixed32(19, 2)
        }
        noisy.extra = unknownFields
        noisy.layers[0].extra = unknownFields
        noisy.layers[0].features[0].extra = unknownFields
        return [TestTile(layers: [values]), TestTile(layers: [shapes]), noisy, TestTile(layers: [values, shapes])]
    }

    @Test func tilesWeBuildDecodeAsThePythonPackageDecodesThem() throws {
        let directory = try TemporaryDirectory()
        let tiles = Self.handBuiltTiles()
        var paths: [String] = []
        for (index, tile) in tiles.enumerated() {
            let url = directory.file("tile-\(index).mvt")
            try tile.data.write(to: url)
            paths.append(url.path)
        }
        let output = directory.file("decoded.json")
        _ = try PythonEnvironment.mapboxVectorTile.run(
            Self.script(Self.decodeScript), arguments: [output.path] + paths, in: directory.url)
        guard case .array(let reference) = try JSONValue.parse(Data(contentsOf: output)) else {
            Issue.record("the script did not write a list")
            return
        }
        #expect(reference.count == tiles.count)
        for (index, (tile, python)) in zip(tiles, reference).enumerated() {
            let ours = ReferenceTile.json(try VectorTile(data: tile.data))
            #expect(ours == python, "tile \(index):\nours   \(ours.jsonText)\npython \(python.jsonText)")
        }
    }
}
