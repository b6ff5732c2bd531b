import Foundation
import HTTPTypes
import HummingbirdTesting
import ImageCodec
import MapCore
import MapData
import MapJSON
import MapRenderer
import MapServer
import MapStyle
import MapTestSupport
import Testing
import TileSources
import Tilesets

/// `/styles/NAME/style.json` for GL clients (``ClientStyle``), its sprite files and
/// `/styles.json`: sources pointed at the served data, sprite and glyphs at the server, and every
/// URL it gives answering in turn.
@Suite struct ClientStyleTests {
    static let protomapsFixture = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/styles/protomaps-light")
    static let protomapsSample = RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki-protomaps.mbtiles")
    static let openMapTilesSample = RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles")

    /// A style file loaded and served as `name`, its vector sources given `vectorSource`.
    static func servedStyle(_ file: URL, name: String, vectorSource: URL? = nil) throws -> ServedStyle {
        var style = try Style.load(from: file).style
        if let vectorSource { style = try style.configuringVectorSources(vectorSource) }
        return ServedStyle(
            name: name, style: style, data: MapData(basemapDirectory: RepositoryFiles.basemap),
            fileBytes: try Data(contentsOf: file))
    }

    /// A fonts folder holding `DejaVu Sans Bold/0-255.pbf` (the streets styles' font).
    static func fontsFolder(in folder: TemporaryDirectory) throws -> URL {
        let fonts = folder.url.appendingPathComponent("fonts")
        let font = fonts.appendingPathComponent("DejaVu Sans Bold")
        try FileManager.default.createDirectory(at: font, withIntermediateDirectories: true)
        try Data(
            TestGlyphs.rangeFile(
                fontstack: "DejaVu Sans Bold", range: "0-255",
                glyphs: [TestGlyphs.Glyph(id: 0x41, size: 10, advance: 12)])
        )
        .write(to: font.appendingPathComponent("0-255.pbf"))
        return fonts
    }

    /// Protomaps' light style over the Helsinki sample, as a MapLibre client loads it over HTTP:
    /// the style.json, then its source's TileJSON and a tile, its sprite's four files; its layers
    /// and every other member are the file's, its glyphs (on the web) left as published.
    @Test func aPublicStylesStyleJSONLeadsToTheServedDataAndSprite() async throws {
        let folder = try TemporaryDirectory()
        let file = Self.protomapsFixture.appendingPathComponent("style.json")
        var content = ServerContent(styles: [
            try Self.servedStyle(file, name: "light", vectorSource: Self.protomapsSample)
        ])
        content.styleTilesets = [try ServedTileset(url: Self.protomapsSample)]
        content.fonts = ServedFonts(directory: try Self.fontsFolder(in: folder))
        let original = try #require(try JSONValue.parse(try Data(contentsOf: file)).objectMembers)
        try await ServerFixtures.test(ServerFixtures.server(content, folder: folder), .live) { client in
            let port = try #require(client.port)
            let base = "http://127.0.0.1:\(port)"
            let answer = try await LoopbackSocket.request(port: port, path: "/styles/light/style.json")
            #expect(answer.status == 200 && answer.header("content-type") == "application/json")
            let style = try #require(try JSONValue.parse(answer.body).objectMembers)
            let attribution = try #require(
                original["sources"]?.objectMembers?["protomaps"]?.objectMembers?["attribution"])
            #expect(
                style["sources"]
                    == .object([
                        "protomaps": .object([
                            "type": .string("vector"), "url": .string("\(base)/data/helsinki-protomaps.json"),
                            "attribution": attribution,
                        ])
                    ]))
            #expect(style["sprite"] == .string("\(base)/styles/light/sprite"))
            #expect(style["glyphs"] == original["glyphs"], "glyphs on the web are left as they are")
            for (key, value) in original where !["sources", "sprite"].contains(key) {
                #expect(style[key] == value, "\(key) is the file's")
            }

            // The source's TileJSON, and a tile through its template.
            let sourceURLValue = style["sources"]?.objectMembers?["protomaps"]?.objectMembers?["url"]
            guard case .string(let sourceURL)? = sourceURLValue else {
                Issue.record("the served style's source has no url string: \(String(describing: sourceURLValue))")
                return
            }
            let tileJSON = try await LoopbackSocket.request(port: port, path: try #require(URL(string: sourceURL)).path)
            #expect(tileJSON.status == 200)
            let template = try #require(
                (try JSONSerialization.jsonObject(with: tileJSON.body) as? [String: Any])?["tiles"] as? [String]
            ).first
            let tilePath = try #require(template?.replacingOccurrences(of: "{z}/{x}/{y}", with: "14/9326/4742"))
            let tile = try await LoopbackSocket.request(port: port, path: try #require(URL(string: tilePath)).path)
            #expect(tile.status == 200)
            #expect(
                tile.body
                    == (try TileSourceLocation.file(Self.protomapsSample).open().tile(
                        at: try TileID(z: 14, x: 9326, y: 4742))))

            // The sprite's files, as the fixture has them.
            for suffix in [".json", ".png", "@2x.json", "@2x.png"] {
                let sprite = try await LoopbackSocket.request(port: port, path: "/styles/light/sprite\(suffix)")
                #expect(sprite.status == 200, "\(suffix)")
                #expect(
                    sprite.body
                        == (try Data(contentsOf: Self.protomapsFixture.appendingPathComponent("sprites/light\(suffix)"))),
                    "\(suffix)")
                #expect(sprite.header("content-type") == (suffix.hasSuffix("json") ? "application/json" : "image/png"))
            }
            let styles = try await LoopbackSocket.request(port: port, path: "/styles.json")
            let list = try #require(try JSONSerialization.jsonObject(with: styles.body) as? [[String: Any]])
            #expect(
                list.count == 1 && list.first?["id"] as? String == "light"
                    && list.first?["url"] as? String == "\(base)/styles/light/style.json")
        }
    }

    /// The streets style (no glyphs of its own) with a fonts folder: its glyphs are the server's
    /// fonts, and its text font's glyphs answer; its source is the `--vector-source` data.
    @Test func aStyleWithoutGlyphsGetsTheServedFonts() async throws {
        let folder = try TemporaryDirectory()
        let streets = try Self.servedStyle(
            RepositoryFiles.styles.appendingPathComponent("streets.json"), name: "streets",
            vectorSource: Self.openMapTilesSample)
        var content = ServerContent(styles: [streets])
        content.styleTilesets = [try ServedTileset(url: Self.openMapTilesSample)]
        content.fonts = ServedFonts(directory: try Self.fontsFolder(in: folder))
        try await ServerFixtures.test(ServerFixtures.server(content, folder: folder)) { client in
            let style = try await client.execute(uri: "/styles/streets/style.json", method: .get) { response in
                try #require(try JSONValue.parse(response.data).objectMembers)
            }
            guard case .string(let glyphs)? = style["glyphs"] else {
                Issue.record("no glyphs: \(style.keys.sorted())")
                return
            }
            #expect(glyphs.hasPrefix("http://") && glyphs.hasSuffix("/fonts/{fontstack}/{range}.pbf"), "\(glyphs)")
            guard case .string(let url)? = style["sources"]?.objectMembers?["openmaptiles"]?.objectMembers?["url"]
            else {
                Issue.record("no source url")
                return
            }
            #expect(url.hasSuffix("/data/helsinki.json"))
            try await client.execute(uri: try #require(URL(string: url)).path, method: .get) {
                #expect($0.status == .ok)
            }
            let fonts = (style["layers"]?.arrayElements ?? []).compactMap { layer -> String? in
                guard case .array(let names)? = layer["layout"]?["text-font"] else { return nil }
                return names.compactMap(\.text).joined(separator: ",")
            }
            #expect(fonts.contains("DejaVu Sans Bold"), "\(fonts)")
            let glyphPath = glyphs.replacingOccurrences(of: "{fontstack}", with: "DejaVu%20Sans%20Bold")
                .replacingOccurrences(of: "{range}", with: "0-255")
            try await client.execute(uri: try #require(URL(string: glyphPath)).path(percentEncoded: true), method: .get)
            { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-protobuf")
            }
        }
    }

    /// The standard style draws the bundled basemap's GeoPackages, which no GL client reads: its
    /// style.json is one raster source of the server's own tiles of the style, and they answer.
    @Test func aStyleOfTheBundledBasemapIsItsRasterTiles() async throws {
        let folder = try TemporaryDirectory()
        let server = ServerFixtures.server(ServerContent(styles: [try ServerFixtures.standardStyle()]), folder: folder)
        try await ServerFixtures.test(server) { client in
            let style = try await client.execute(uri: "/styles/standard/style.json", method: .get) { response in
                try #require(try JSONValue.parse(response.data).objectMembers)
            }
            #expect(style["version"] == .number(8) && style["name"] == .string("Standard"))
            let source = try #require(style["sources"]?.objectMembers?["mapwright"]?.objectMembers)
            #expect(source["type"] == .string("raster") && source["tileSize"] == .number(256))
            #expect(
                style["layers"]
                    == .array([
                        .object(["id": .string("mapwright"), "type": .string("raster"), "source": .string("mapwright")])
                    ]))
            #expect(
                style["metadata"]?["mapwright:raster"]
                    == .string(
                        "Mapwright's raster tiles of the style: its sources 'basemap', 'places' cannot be read by GL clients"
                    ),
                "the GeoPackages; basemap://streets and basemap://terrain, none registered, draw nothing")
            guard case .string(let url)? = source["url"] else {
                Issue.record("no url")
                return
            }
            #expect(url.hasSuffix("/styles/standard.json"))
            let template = try await client.execute(uri: try #require(URL(string: url)).path, method: .get) {
                response in
                try #require(try response.json()["tiles"] as? [String]).first
            }
            let tile = try #require(template?.replacingOccurrences(of: "{z}/{x}/{y}", with: "1/1/0"))
            try await client.execute(uri: try #require(URL(string: tile)).path, method: .get) { response in
                let image = try response.image()
                #expect(response.status == .ok && image.width == 256)
            }
        }
    }

    /// Each kind of source rewritten as GL clients need it: a local tileset to its data, web tiles
    /// and inline GeoJSON as written, a source no layer draws and no client reads left out; the
    /// array form of `sprite`, each local sheet served under its id, one on the web left as it is.
    @Test func eachSourceAndSpriteIsRewrittenAsGLClientsNeedIt() async throws {
        let folder = try TemporaryDirectory()
        let sprites = folder.url.appendingPathComponent("sprites")
        try FileManager.default.createDirectory(at: sprites, withIntermediateDirectories: true)
        for suffix in [".json", ".png", "@2x.json", "@2x.png"] {
            try FileManager.default.copyItem(
                at: Self.protomapsFixture.appendingPathComponent("sprites/light\(suffix)"),
                to: sprites.appendingPathComponent("roads\(suffix)"))
        }
        let file = folder.url.appendingPathComponent("mixed.json")
        try Data(
            """
            {"version": 8, "name": "Mixed",
             "sprite": [{"id": "roads", "url": "sprites/roads"}, {"id": "web", "url": "https://example.org/sprites/web"}],
             "sources": {
               "streets": {"type": "vector", "url": "mbtiles://\(Self.openMapTilesSample.path)", "attribution": "OSM", "promoteId": "osm_id"},
               "imagery": {"type": "raster", "tiles": ["https://tiles.example.org/{z}/{x}/{y}.png"], "tileSize": 256},
               "points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}},
               "world": {"type": "vector", "url": "basemap://world"},
               "registered": {"type": "vector", "url": "basemap://streets"}
             },
             "layers": [
               {"id": "imagery", "type": "raster", "source": "imagery"},
               {"id": "water", "type": "fill", "source": "streets", "source-layer": "water"},
               {"id": "roads", "type": "line", "source": "registered", "source-layer": "transportation"},
               {"id": "points", "type": "circle", "source": "points"}
             ]}
            """.utf8
        ).write(to: file)
        let mixed = try Self.servedStyle(file, name: "mixed")
        var content = ServerContent(styles: [mixed, try ServerFixtures.colourStyle("#ffffff")])
        content.styleTilesets = [try ServedTileset(url: Self.openMapTilesSample)]
        try await ServerFixtures.test(ServerFixtures.server(content, folder: folder)) { client in
            let style = try await client.execute(uri: "/styles/mixed/style.json", method: .get) { response in
                try #require(try JSONValue.parse(response.data).objectMembers)
            }
            let sources = try #require(style["sources"]?.objectMembers)
            #expect(
                sources.keys.sorted() == ["imagery", "points", "streets"],
                "world is drawn by no layer and read by no client")
            let layerIDs = (style["layers"]?.arrayElements ?? []).compactMap { $0["id"]?.text }
            #expect(
                layerIDs == ["imagery", "water", "points"],
                "no street basemap is registered: its source and layer draw nothing")
            let streets = try #require(sources["streets"]?.objectMembers)
            #expect(
                streets["type"] == .string("vector") && streets["attribution"] == .string("OSM")
                    && streets["promoteId"] == .string("osm_id"))
            #expect(streets["url"]?.text?.hasSuffix("/data/helsinki.json") == true)
            #expect(
                sources["imagery"]
                    == .object([
                        "type": .string("raster"),
                        "tiles": .array([.string("https://tiles.example.org/{z}/{x}/{y}.png")]),
                        "tileSize": .number(256),
                    ]))
            #expect(
                sources["points"]?.objectMembers?["data"]
                    == .object(["type": .string("FeatureCollection"), "features": .array([])]))
            guard case .array(let spriteList)? = style["sprite"], spriteList.count == 2 else {
                Issue.record("sprite: \(String(describing: style["sprite"]))")
                return
            }
            #expect(spriteList[0].objectMembers?["url"]?.text?.hasSuffix("/styles/mixed/sprite/roads") == true)
            #expect(
                spriteList[1] == .object(["id": .string("web"), "url": .string("https://example.org/sprites/web")]))
            #expect(style["glyphs"] == nil, "no fonts folder: left as the file has it")

            try await client.execute(uri: "/styles/mixed/sprite/roads@2x.png", method: .get) { response in
                let file = try Data(contentsOf: sprites.appendingPathComponent("roads@2x.png"))
                #expect(response.status == .ok && response.data == file)
            }
            for uri in [
                "/styles/mixed/sprite/web.json", "/styles/mixed/sprite.json", "/styles/mixed/sprite/roads@3x.png",
                "/styles/mixed/sprite/roads.svg",
                "/styles/mixed/sprite/..%2Froads.json", "/styles/plain/sprite.json", "/styles/plain/sprites.json",
                "/styles/mixed/style.json/x",
            ] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .notFound, "\(uri)") }
            }
            // A style drawing nothing GL clients cannot read is its own JSON.
            try await client.execute(uri: "/styles/plain/style.json", method: .get) { response in
                let plain = try #require(try JSONValue.parse(response.data).objectMembers)
                #expect(plain["layers"]?.arrayElements?.first?.objectMembers?["id"] == .string("background"))
                #expect(plain["sources"] == .object([:]))
            }
        }
    }
}

extension JSONValue {
    fileprivate var objectMembers: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    fileprivate var arrayElements: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }
}
