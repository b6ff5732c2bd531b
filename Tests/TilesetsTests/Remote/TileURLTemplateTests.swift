import MapCore
import Testing
import Tilesets

struct TileURLTemplateTests {
    private let tile = (try? TileID(z: 3, x: 4, y: 2))!

    @Test func placeholdersExpand() throws {
        let template = try TileURLTemplate("https://{s}.tiles.example.org/{z}/{x}/{y}{r}.png")
        #expect(template.url(for: tile) == "https://a.tiles.example.org/3/4/2.png")  // (4 + 2) mod 3 = 0
        #expect(template.url(for: tile, scale: 2) == "https://a.tiles.example.org/3/4/2@2x.png")
        #expect(template.url(for: try TileID(z: 3, x: 5, y: 2)) == "https://b.tiles.example.org/3/5/2.png")
        #expect(template.host == "a.tiles.example.org")
    }

    @Test func tmsRowsCountFromTheSouth() throws {
        let negative = try TileURLTemplate("http://tms.example.org:8080/{z}/{x}/{-y}.jpg")
        #expect(negative.url(for: tile) == "http://tms.example.org:8080/3/4/5.jpg")  // 2^3 - 1 - 2
        #expect(negative.host == "tms.example.org:8080")
        let scheme = try TileURLTemplate("https://tms.example.org/{z}/{x}/{y}.png", scheme: .tms)
        #expect(scheme.url(for: tile) == "https://tms.example.org/3/4/5.png")
    }

    @Test func quadkeysAndCustomSubdomains() throws {
        let template = try TileURLTemplate("https://t{s}.example.org/tiles/{quadkey}.jpeg", subdomains: ["0", "1"])
        #expect(template.url(for: tile) == "https://t0.example.org/tiles/\(tile.quadkey).jpeg")
    }

    @Test func aURLWithoutTheTileAddressIsEveryTile() throws {
        let template = try TileURLTemplate("file:///tiles/alpha.png")
        #expect(template.url(for: tile) == "file:///tiles/alpha.png")
        #expect(template.url(for: try TileID(z: 0, x: 0, y: 0)) == "file:///tiles/alpha.png")
    }

    @Test func brokenTemplatesAreRefusedWithAReason() {
        let cases: [(String, String)] = [
            ("ftp://example.org/{z}/{x}/{y}.png", "only http://, https:// and file:// URLs are read"),
            ("https://example.org/{z}/{x}.png", "it needs {z}, {x} and {y} (or {-y}, or {quadkey})"),
            ("https://example.org/{z}/{x}/{y}.png?key={apikey}", "unknown placeholder {apikey}"),
            ("https:///{z}/{x}/{y}.png", "it is not a URL with a host"),
        ]
        for (template, reason) in cases {
            #expect(throws: TilesetsError.invalidTemplate(template, reason: reason)) { try TileURLTemplate(template) }
        }
    }
}
