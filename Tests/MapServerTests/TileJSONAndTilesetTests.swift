import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ImageCodec
import MBTiles
import MapCore
import MapData
import MapRenderer
import MapServer
import MapStyle
import MapTestSupport
import Testing
import TileSources
import TilesetTools
import Tilesets

/// TileJSON 3.0.0 for styles, the overlay and tilesets, `/index.json`, and tileset files served
/// as they are.
@Suite struct TileJSONAndTilesetTests {
    /// An MBTiles file with three tiles at zooms 1-2 over Iberia.
    private func tilesetFile(_ folder: TemporaryDirectory) throws -> URL {
        let url = folder.url.appendingPathComponent("iberia.mbtiles")
        let store = try MBTilesStore(url: url, mode: .create)
        try store.write([
            try TileID(z: 1, x: 0, y: 0): Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1]),
            try TileID(z: 2, x: 1, y: 1): Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 2]),
            // East of the meridian, to 180°: its east edge must not wrap to -180.
            try TileID(z: 1, x: 1, y: 0): Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 3]),
        ])
        try store.writeMetadata(
            TileMetadata(
                name: "Iberia", format: .png, bounds: BoundingBox(west: -10, south: 35, east: 5, north: 45), minZoom: 1,
                maxZoom: 2,
                attribution: "test data"))
        return url
    }

    /// A server of a style, the overlay and the Iberia tiles as `iberia.FORMAT`: the MBTiles
    /// file, or the same tiles converted to PMTiles.
    private func server(_ folder: TemporaryDirectory, format: String = "mbtiles") throws -> MapTileServer {
        let style = try ServerFixtures.colourStyle("#ff0000")
        var tileset = try tilesetFile(folder)
        if format == "pmtiles" {
            let converted = folder.url.appendingPathComponent("iberia.pmtiles")
            #expect(try TilesetConversion.convert(TileSourceLocation.file(tileset).open(), to: converted) == 3)
            tileset = converted
        }
        return ServerFixtures.server(
            ServerContent(
                styles: [style], overlay: try ServerFixtures.overlay(style: style.style),
                tilesets: [try ServedTileset(url: tileset)]),
            folder: folder)
    }

    @Test func tileJSONOfAStyleTheOverlayAndATilesetHasTheSpecsShape() async throws {
        let folder = try TemporaryDirectory()
        try await ServerFixtures.test(try server(folder)) { client in
            let headers: HTTPFields = HTTPFields()
            try await client.execute(uri: "/styles/plain.json", method: .get, headers: headers) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                let json = try response.json()
                #expect(json["tilejson"] as? String == "3.0.0")
                #expect((json["tiles"] as? [String])?.first?.hasSuffix("/styles/plain/{z}/{x}/{y}.png") == true)
                #expect((json["tiles"] as? [String])?.first?.hasPrefix("http://") == true)
                #expect(json["minzoom"] as? Int == 0 && json["maxzoom"] as? Int == 20)
                #expect((json["bounds"] as? [Double])?.count == 4)
                #expect((json["center"] as? [Double])?.count == 3)
                #expect(json["scheme"] as? String == "xyz")
            }
            // Behind a TLS proxy, the URLs say https.
            for proxied: HTTPFields in [
                [HTTPField.Name("X-Forwarded-Proto")!: "https"],
                [HTTPField.Name("Forwarded")!: "for=192.0.2.60;proto=https;by=203.0.113.43"],
            ] {
                try await client.execute(uri: "/styles/plain.json", method: .get, headers: proxied) { response in
                    let json = try response.json()
                    #expect((json["tiles"] as? [String])?.first?.hasPrefix("https://") == true, "\(proxied)")
                }
            }
            try await client.execute(
                uri: "/styles/plain.json", method: .get, headers: [HTTPField.Name("X-Forwarded-Proto")!: "gopher"]
            ) { response in
                let json = try response.json()
                #expect((json["tiles"] as? [String])?.first?.hasPrefix("http://") == true, "only http or https")
            }
            try await client.execute(uri: "/overlays/photos.json", method: .get, headers: headers) { response in
                let json = try response.json()
                #expect((json["tiles"] as? [String])?.first?.hasSuffix("/overlays/photos/{z}/{x}/{y}.png") == true)
            }
            try await client.execute(uri: "/tilesets/iberia.json", method: .get, headers: headers) { response in
                let json = try response.json()
                #expect(json["tilejson"] as? String == "3.0.0")
                #expect(json["name"] as? String == "Iberia")
                #expect((json["tiles"] as? [String])?.first?.hasSuffix("/tilesets/iberia/{z}/{x}/{y}.png") == true)
                #expect(json["minzoom"] as? Int == 1 && json["maxzoom"] as? Int == 2)
                #expect(json["bounds"] as? [Double] == [-10, 35, 5, 45])
                #expect(json["attribution"] as? String == "test data")
            }
            try await client.execute(uri: "/index.json", method: .get, headers: headers) { response in
                let list = try #require(try JSONSerialization.jsonObject(with: response.data) as? [[String: Any]])
                #expect(
                    list.count == 4, "the style, the overlay, the tileset under /tilesets and again as data under /data"
                )
                #expect(
                    list.allSatisfy { $0["tilejson"] as? String == "3.0.0" && ($0["tiles"] as? [String])?.count == 1 })
            }
        }
    }

    @Test(arguments: ["mbtiles", "pmtiles"])
    func tilesetTilesAreTheFilesBytesAndOutsideItsZoomsOrBoundsAre404AtOnce(format: String) async throws {
        let folder = try TemporaryDirectory()
        try await ServerFixtures.test(try server(folder, format: format)) { client in
            try await client.execute(uri: "/tilesets/iberia/2/1/1.png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.data == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 2]))
                #expect(response.headers[.eTag] != nil)
            }
            try await client.execute(uri: "/tilesets/iberia/1/1/0.png", method: .get) { response in
                #expect(response.status == .ok, "the tile from 0° to 180° east overlaps Iberia's 5° east")
                #expect(response.data.last == 3)
            }
            for uri in [
                "/tilesets/iberia/0/0/0.png", "/tilesets/iberia/3/0/0.png", "/tilesets/iberia/2/3/3.png",
                "/tilesets/iberia/2/1/2.png",
            ] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .notFound, "\(uri)") }
            }
            try await client.execute(uri: "/tilesets/iberia/2/1/1.jpg", method: .get) {
                #expect($0.status == .badRequest)
            }
            try await client.execute(uri: "/tilesets/iberia/2/1/1@2x.png", method: .get) {
                #expect($0.status == .badRequest)
            }
        }
    }

    /// The Iberia tiles converted to PMTiles: the TileJSON gives the PMTiles header's zooms and
    /// bounds (its tiles and 404s are the MBTiles file's, tested above).
    @Test func aPMTilesTilesetsTileJSONHasItsZoomsAndBounds() async throws {
        let folder = try TemporaryDirectory()
        try await ServerFixtures.test(try server(folder, format: "pmtiles")) { client in
            try await client.execute(uri: "/tilesets/iberia.json", method: .get) { response in
                let json = try response.json()
                #expect(json["tilejson"] as? String == "3.0.0")
                #expect((json["tiles"] as? [String])?.first?.hasSuffix("/tilesets/iberia/{z}/{x}/{y}.png") == true)
                #expect(json["format"] as? String == "png")
                #expect(json["minzoom"] as? Int == 1 && json["maxzoom"] as? Int == 2)
                let bounds = try #require(json["bounds"] as? [Double])
                #expect(zip(bounds, [-10, 35, 5, 45]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(bounds)")
            }
        }
    }

    /// A style and a tileset whose names hold a space: every URL the server writes encodes them,
    /// and each is fetched through the URL its TileJSON gives.
    @Test func namesThatNeedPercentEncodingAreEncodedInURLsAndDecodedInRequests() async throws {
        let folder = try TemporaryDirectory()
        let tilesetURL = folder.url.appendingPathComponent("world tiles.mbtiles")
        try FileManager.default.moveItem(at: try tilesetFile(folder), to: tilesetURL)
        let server = ServerFixtures.server(
            ServerContent(
                styles: [try ServerFixtures.colourStyle("#00ff00", name: "my style")],
                tilesets: [try ServedTileset(url: tilesetURL)]),
            folder: folder)
        try await ServerFixtures.test(server) { client in
            let list = try await client.execute(uri: "/index.json", method: .get) { response in
                try #require(try JSONSerialization.jsonObject(with: response.data) as? [[String: Any]])
            }
            let templates = list.compactMap { ($0["tiles"] as? [String])?.first }
            #expect(templates.count == 3)
            #expect(templates.contains { $0.hasSuffix("/styles/my%20style/{z}/{x}/{y}.png") }, "\(templates)")
            #expect(templates.contains { $0.hasSuffix("/tilesets/world%20tiles/{z}/{x}/{y}.png") }, "\(templates)")
            #expect(templates.contains { $0.hasSuffix("/data/world%20tiles/{z}/{x}/{y}.png") }, "\(templates)")
            for template in templates {
                let url = try #require(
                    URL(string: template.replacingOccurrences(of: "{z}/{x}/{y}", with: "1/0/0")), "\(template) is a URL"
                )
                // Twice: the second answer comes from the tiles kept in memory, parsed the same way.
                for _ in 0..<2 {
                    try await client.execute(uri: url.path(percentEncoded: true), method: .get) { response in
                        #expect(response.status == .ok, "\(url): \(response.text)")
                    }
                }
            }
            for uri in [
                "/styles/my%20style.json", "/tilesets/world%20tiles.json", "/styles/my%20style/static/0,0,1/64x64.png",
                "/data/world%20tiles.json",
                "/styles/my%20style/style.json",
            ] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .ok, "\(uri)") }
            }
            // Decoded, then refused as paths: never served, whatever the encoding.
            let refused = [
                ("/styles/no%20such/0/0/0.png", "no style named 'no such'\n"),
                ("/styles/%2E%2E/0/0/0.png", "no style named '%2E%2E'\n"),
                ("/styles/my%2Fstyle/0/0/0.png", "no style named 'my%2Fstyle'\n"),
                ("/tilesets/..%2Fworld%20tiles/1/0/0.png", "no tileset named '..%2Fworld%20tiles'\n"),
                ("/tilesets/world%2/1/0/0.png", "no tileset named 'world%2'\n"),
                ("/data/..%2Fworld%20tiles/1/0/0.png", "no data named '..%2Fworld%20tiles'\n"),
                ("/styles/%2E%2E/style.json", "no style named '%2E%2E'\n"),
            ]
            for (uri, reason) in refused {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.text == reason, "\(uri)")
                }
            }
        }
    }
}

/// A style drawing vector tiles, served: its TileJSON credits the tileset's attribution, and its
/// tiles are streets.
@Suite struct VectorStyleServeTests {
    @Test func streetsServedFromTheHelsinkiSample() async throws {
        let folder = try TemporaryDirectory()
        let styleURL = RepositoryFiles.styles.appendingPathComponent("streets.json")
        let sample = RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles")
        let style = try Style.named("streets", in: RepositoryFiles.styles).style.configuringVectorSources(sample)
        let served = ServedStyle(
            name: "streets", style: style, data: MapData(basemapDirectory: RepositoryFiles.basemap),
            fileBytes: try Data(contentsOf: styleURL), extra: sample.path)
        try await ServerFixtures.test(ServerFixtures.server(ServerContent(styles: [served]), folder: folder)) {
            client in
            try await client.execute(uri: "/styles/streets.json", method: .get) { response in
                let json = try response.json()
                #expect(json["attribution"] as? String == "© OpenStreetMap contributors")
            }
            // Zoom 16 over Senate Square's neighbourhood (slippy-map formulas: 37308/18968).
            try await client.execute(uri: "/styles/streets/16/37308/18968.png", method: .get) { response in
                #expect(response.status == .ok)
                let image = try response.image()
                let colours = Set(
                    stride(from: 0, to: image.pixels.count, by: 4 * 31).map {
                        image.pixels[$0..<$0 + 3].map { Int($0) / 16 }
                    })
                #expect(colours.count > 10, "streets, not a blank tile: \(colours.count) colour groups")
            }
        }
    }
}
