import Foundation
import HTTPTypes
import HummingbirdTesting
import MapData
import MapJSON
import MapStyle
import MapTestSupport
import Testing

@testable import MapServer

/// The style.json served for GL clients uses only what MapLibre GL JS 5.3 and MapLibre Native
/// (Android and iOS) both draw, judged by the style specification's own `sdk-support` tables
/// (`Tests/Fixtures/style-spec-reference/v8.json`): every layer type, property, kind of value
/// (a value read from feature data needs "data-driven styling") and expression operator.
@Suite struct PortableStyleTests {
    /// The GL JS version the viewer ships (PyPI's maplibre 0.3.6).
    static let glJSVersion = [5, 3, 0]

    /// The specification's reference.
    static let reference: [String: JSONValue] = {
        let url = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/style-spec-reference/v8.json")
        guard let data = try? Data(contentsOf: url), case .object(let members)? = try? JSONValue.parse(data) else {
            return [:]
        }
        return members
    }()

    /// Whether an `sdk-support` entry (`{"js": "0.10.0", "android": "2.0.1", "ios": "2.0.0"}`) says
    /// GL JS up to ``glJSVersion`` and MapLibre Native on both platforms have it; a missing entry,
    /// or an issue's URL in place of a version, says they do not.
    static func supported(_ entry: JSONValue?) -> Bool {
        func version(_ key: String) -> [Int]? {
            guard case .string(let text)? = entry?[key] else { return nil }
            let parts = text.split(separator: ".").map { Int($0) }
            return parts.contains(nil) || parts.isEmpty ? nil : parts.compactMap { $0 }
        }
        guard let js = version("js"), version("android") != nil, version("ios") != nil else { return false }
        return js.lexicographicallyPrecedes(glJSVersion) || js == glJSVersion
    }

    /// Every reason `style` (a served style.json) is not drawn by both clients, one line each.
    static func unsupported(in style: JSONValue) -> [String] {
        var problems: [String] = []
        let operators = reference["expression_name"]?["values"]
        func checkOperators(_ value: JSONValue, at place: String) {
            guard case .array(let items) = value else {
                if case .object(let members) = value { members.values.forEach { checkOperators($0, at: place) } }
                return
            }
            if case .string(let name)? = items.first, let spec = operators?[name] {
                if !supported(spec["sdk-support"]?["basic functionality"]) {
                    problems.append("\(place): the expression operator '\(name)'")
                }
                if name == "literal" { return }
            }
            items.forEach { checkOperators($0, at: place) }
        }
        guard case .array(let layers)? = style["layers"] else { return ["no layers"] }
        for layer in layers {
            guard case .string(let id)? = layer["id"], case .string(let type)? = layer["type"] else {
                problems.append("a layer without an id or type")
                continue
            }
            if !supported(reference["layer"]?["type"]?["values"]?[type]?["sdk-support"]?["basic functionality"]) {
                problems.append("\(id): the layer type '\(type)'")
            }
            if let filter = layer["filter"], ClientStyle.isExpressionFilter(filter) {
                checkOperators(filter, at: "\(id) filter")
            }
            for group in ["paint", "layout"] {
                guard case .object(let properties)? = layer[group] else { continue }
                for (name, value) in properties.sorted(by: { $0.key < $1.key }) {
                    guard let spec = reference["\(group)_\(type)"]?[name] else {
                        problems.append("\(id): '\(name)' is not a \(group) property of \(type) layers")
                        continue
                    }
                    let support = spec["sdk-support"]
                    if !supported(support?["basic functionality"]) {
                        problems.append("\(id): '\(name)'")
                    }
                    if ClientStyle.readsFeatures(value), !supported(support?["data-driven styling"]) {
                        problems.append("\(id): '\(name)' read from feature data")
                    }
                    checkOperators(value, at: "\(id) \(name)")
                }
            }
        }
        return problems
    }

    /// The served style.json of a shipped style, its vector sources given the Helsinki sample.
    static func served(_ name: String) async throws -> JSONValue {
        let folder = try TemporaryDirectory()
        let sample = RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles")
        let file = RepositoryFiles.styles.appendingPathComponent("\(name).json")
        var style = try Style.load(from: file).style
        if style.sources.values.contains(where: { if case .vector = $0 { true } else { false } }),
            name.hasPrefix("streets")
        {
            style = try style.configuringVectorSources(sample)
        }
        var content = ServerContent(styles: [
            ServedStyle(
                name: name, style: style, data: MapData(basemapDirectory: RepositoryFiles.basemap),
                fileBytes: try Data(contentsOf: file))
        ])
        content.styleTilesets = [try ServedTileset(url: sample)]
        return try await ServerFixtures.test(ServerFixtures.server(content, folder: folder)) { client in
            try await client.execute(uri: "/styles/\(name)/style.json", method: .get) { response in
                try JSONValue.parse(response.data)
            }
        }
    }

    /// The shipped styles, by name.
    static let shippedStyles: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: RepositoryFiles.styles.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    @Test func theReferenceIsRead() {
        #expect(Self.reference["paint_line"]?["line-dasharray"] != nil)
        #expect(Self.shippedStyles.contains("streets") && Self.shippedStyles.count >= 8, "\(Self.shippedStyles)")
    }

    @Test(arguments: shippedStyles)
    func eachShippedStyleIsServedAsBothClientsDrawIt(_ name: String) async throws {
        let style = try await Self.served(name)
        #expect(Self.unsupported(in: style) == [], "\(name)")
        if name.hasPrefix("streets") {
            // Drawn from the data (not Mapwright's raster tiles), with text, so with glyphs.
            #expect(style["metadata"]?["mapwright:raster"] == nil)
            guard case .string(let glyphs)? = style["glyphs"] else {
                Issue.record("\(name): no glyphs")
                return
            }
            #expect(glyphs.hasSuffix("/fonts/{fontstack}/{range}.pbf"))
            // Every text layer names its font: Mapwright's default where the file names none.
            guard case .array(let layers)? = style["layers"] else { return }
            for layer in layers where layer["layout"]?["text-field"] != nil {
                let font = layer["layout"]?["text-font"]
                #expect(font != nil, "\(layer["id"]?.text ?? "?") has no text-font")
            }
            #expect(
                layers.contains { $0["layout"]?["text-font"] == .array([.string("DejaVu Sans Book")]) },
                "a layer given the default font")
        }
    }

    /// The shipped file itself is not drawn by both (a data-driven `line-dasharray`): what the
    /// rewrite is for, and what shows that the check above can fail.
    @Test func theStreetsStyleAsWrittenIsNot() throws {
        let file = RepositoryFiles.styles.appendingPathComponent("streets.json")
        let style = try JSONValue.parse(try Data(contentsOf: file))
        #expect(Self.unsupported(in: style) == ["boundary: 'line-dasharray' read from feature data"])
    }

    /// A data-driven dash pattern becomes one layer per pattern, each drawing the features the
    /// expression gives that pattern, after the layer's own (legacy) filter; the others stay.
    @Test func aDataDrivenDashPatternIsOneLayerPerPattern() throws {
        let layers = try JSONValue.parse(
            Data(
                """
                [{"id": "water", "type": "fill", "source": "s", "source-layer": "water"},
                 {"id": "boundary", "type": "line", "source": "s", "source-layer": "boundary",
                  "filter": ["all", ["==", "$type", "LineString"], ["!in", "admin_level", 3, 5]],
                  "paint": {"line-width": 2, "line-dasharray": ["step", ["get", "admin_level"],
                    ["literal", [1, 0]], 3, ["match", ["get", "maritime"], 1, ["literal", [2, 2]], ["literal", [3, 2]]],
                    7, ["literal", [1, 0]]]}}]
                """.utf8))
        guard case .array(let input) = layers else { return }
        let output = ClientStyle.portableLayers(input)
        try #require(output.count == 4)
        #expect(output[0] == input[0])
        #expect(output.dropFirst().map { $0["id"]?.text } == ["boundary", "boundary#2", "boundary#3"])
        #expect(
            output.dropFirst().map { $0["paint"]?["line-dasharray"] } == [
                .array([.number(1), .number(0)]), .array([.number(2), .number(2)]), .array([.number(3), .number(2)]),
            ])
        let legacy = JSONValue.array([
            .string("all"),
            .array([.string("=="), .array([.string("geometry-type")]), .string("LineString")]),
            .array([
                .string("!"),
                .array([
                    .string("in"), .array([.string("get"), .string("admin_level")]),
                    .array([.string("literal"), .array([.number(3), .number(5)])]),
                ]),
            ]),
        ])
        let numbered = JSONValue.array([
            .string("step"), .array([.string("get"), .string("admin_level")]), .string("0"), .number(3),
            .array([
                .string("match"), .array([.string("get"), .string("maritime")]), .number(1), .string("1"),
                .string("2"),
            ]),
            .number(7), .string("0"),
        ])
        for (index, layer) in output.dropFirst().enumerated() {
            #expect(
                layer["filter"]
                    == .array([.string("all"), legacy, .array([.string("=="), numbered, .string("\(index)")])]))
            #expect(layer["metadata"]?["mapwright:split-from"] == .string("boundary"))
            #expect(layer["paint"]?["line-width"] == .number(2))
        }
        #expect(Self.unsupported(in: .object(["layers": .array(output)])) == [])
    }

    /// A value read straight from the data cannot be split: it is left out (the default drawn), said in the layer's metadata.
    @Test func aDashPatternReadFromTheDataIsLeftOut() throws {
        let layer = try JSONValue.parse(
            Data(
                """
                {"id": "paths", "type": "line", "source": "s", "paint": {"line-dasharray": ["get", "dashes"], "line-width": 1}}
                """.utf8))
        let output = ClientStyle.portableLayers([layer])
        #expect(output.count == 1)
        #expect(output[0]["paint"] == .object(["line-width": .number(1)]))
        #expect(output[0]["metadata"]?["mapwright:dropped"] != nil)
    }
}
