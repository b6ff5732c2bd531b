import Foundation
import HTTPTypes
import HummingbirdTesting
import MapJSON
import MapTestSupport
import Testing

@testable import MapServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `serve --public-url` (``PublicURL``): behind a proxy serving it under a path prefix, every URL
/// the server writes leads back through the proxy, and each answers there.
@Suite struct PublicURLTests {
    @Test func addressesAndPathsAreRead() throws {
        let absolute = try #require(PublicURL("HTTPS://maps.example.org:8443/tiles/"))
        #expect(absolute.origin == "https://maps.example.org:8443" && absolute.pathPrefix == "/tiles")
        #expect(absolute.base(requestBase: "http://10.0.0.1:8080") == "https://maps.example.org:8443/tiles")
        let path = try #require(PublicURL("/maps/v1/"))
        #expect(path.origin == nil && path.pathPrefix == "/maps/v1")
        #expect(path.base(requestBase: "http://localhost:8080") == "http://localhost:8080/maps/v1")
        #expect(PublicURL("https://example.org")?.pathPrefix == "")
        #expect(PublicURL("/")?.pathPrefix == "")
        for bad in [
            "", "maps/", "ftp://example.org/", "https:///maps", "https://user@example.org/", "/maps/../x",
            "/maps//x", "/maps?x=1", "/maps#top", "/ma ps/", "https://exa mple.org/",
        ] {
            #expect(PublicURL(bad) == nil, "\(bad)")
        }
    }

    /// With an absolute public URL, the style.json's URLs start with it whatever the request's host.
    @Test func anAbsolutePublicURLStartsEveryURL() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.streetsServer(publicURL: "https://maps.example.org/tiles/", folder: folder)
        try await ServerFixtures.test(server) { client in
            let style = try await client.execute(uri: "/styles/streets/style.json", method: .get) {
                try JSONValue.parse($0.data)
            }
            #expect(style["glyphs"]?.text == "https://maps.example.org/tiles/fonts/{fontstack}/{range}.pbf")
            #expect(
                style["sources"]?["openmaptiles"]?["url"]?.text == "https://maps.example.org/tiles/data/helsinki.json")
        }
    }

    /// Real nginx serves the server under `/maps/` (stripping the prefix, as an ingress does):
    /// the style list, the style.json, its source's TileJSON, a tile, its glyphs, the data list
    /// and the viewer all answer through it at the URLs the server wrote.
    @Test func behindAProxyUnderAPathEveryWrittenURLAnswersThroughIt() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.streetsServer(publicURL: "/maps/", folder: folder)
        try await ServerFixtures.test(server, .live) { client in
            let port = try #require(client.port)
            let proxy = try LoopbackNginx(proxying: "/maps/", to: "http://127.0.0.1:\(port)", in: folder)
            defer { proxy.stop() }
            let prefix = "\(proxy.baseURL)/maps/"
            func get(_ url: String) async throws -> (status: Int, data: Data) {
                #expect(url.hasPrefix(prefix), "\(url) is not under \(prefix)")
                let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
                return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
            }
            let styles = try JSONValue.parse(try await get(prefix + "styles.json").data)
            let styleURL = try #require(styles[0]?["url"]?.text)
            let style = try JSONValue.parse(try await get(styleURL).data)
            let sourceURL = try #require(style["sources"]?["openmaptiles"]?["url"]?.text)
            let tileJSON = try JSONValue.parse(try await get(sourceURL).data)
            let template = try #require(tileJSON["tiles"]?[0]?.text)
            let tile = try await get(
                template.replacingOccurrences(of: "{z}", with: "14").replacingOccurrences(of: "{x}", with: "9326")
                    .replacingOccurrences(of: "{y}", with: "4742"))
            #expect(tile.status == 200 && !tile.data.isEmpty)
            let glyphs = try #require(style["glyphs"]?.text)
            let range = try await get(
                glyphs.replacingOccurrences(of: "{fontstack}", with: "DejaVu%20Sans%20Bold")
                    .replacingOccurrences(of: "{range}", with: "0-255"))
            #expect(range.status == 200 && !range.data.isEmpty)
            let data = try JSONValue.parse(try await get(prefix + "data.json").data)
            if case .array(let tilesets) = data {
                for tileset in tilesets {
                    let url = try #require(tileset["url"]?.text ?? tileset["tiles"]?[0]?.text)
                    #expect(url.hasPrefix(prefix), "\(url)")
                }
            }
            #expect(try await get(prefix).status == 200)
        }
    }

    /// A server of the streets style over the Helsinki sample, with a fonts folder, at `publicURL`.
    static func streetsServer(publicURL: String, folder: TemporaryDirectory) throws -> MapTileServer {
        var configuration = ServerFixtures.configuration()
        configuration.publicURL = PublicURL(publicURL)
        return ServerFixtures.server(try streetsContent(folder: folder), folder: folder, configuration: configuration)
    }

    /// The streets style over the Helsinki sample, with a fonts folder.
    static func streetsContent(folder: TemporaryDirectory) throws -> ServerContent {
        let sample = RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles")
        var content = ServerContent(styles: [
            try ClientStyleTests.servedStyle(
                RepositoryFiles.styles.appendingPathComponent("streets.json"), name: "streets", vectorSource: sample)
        ])
        content.styleTilesets = [try ServedTileset(url: sample)]
        content.fonts = ServedFonts(directory: try ClientStyleTests.fontsFolder(in: folder))
        return content
    }
}

extension JSONValue {
    /// The element at `index` of an array; nil otherwise.
    fileprivate subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
