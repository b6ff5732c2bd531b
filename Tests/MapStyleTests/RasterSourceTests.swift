import Foundation
import Testing

@testable import MapStyle

struct RasterSourceTests {
    @Test func argumentsAreTemplatesOrTilesetFiles() throws {
        let base = URL(fileURLWithPath: "/work", isDirectory: true)
        #expect(try RasterTileLocation(argument: "https://x/{z}/{x}/{y}.jpg") == .templates(["https://x/{z}/{x}/{y}.jpg"]))
        #expect(try RasterTileLocation(argument: "mbtiles://imagery/aerial.mbtiles", relativeTo: base)
            == .file(URL(fileURLWithPath: "/work/imagery/aerial.mbtiles")))
        #expect(try RasterTileLocation(argument: "aerial.MBTILES", relativeTo: base) == .file(URL(fileURLWithPath: "/work/aerial.MBTILES")))
        #expect(try RasterTileLocation(argument: "pmtiles://imagery/aerial.pmtiles", relativeTo: base)
            == .file(URL(fileURLWithPath: "/work/imagery/aerial.pmtiles")))
        #expect(try RasterTileLocation(argument: "aerial.pmtiles", relativeTo: base) == .file(URL(fileURLWithPath: "/work/aerial.pmtiles")))
        let error = #expect(throws: StyleError.self) { try RasterTileLocation(argument: "https://x/tiles.json") }
        #expect(error?.description.contains("'https://x/tiles.json' is neither a tile URL template") == true)
        #expect(error?.description.contains("nor an .mbtiles or .pmtiles file") == true)
    }

    @Test func aPMTilesArchiveOnAWebServerIsATilesetByItsURL() throws {
        let url = try #require(URL(string: "https://maps.example.org/aerial.pmtiles"))
        #expect(try RasterTileLocation(argument: "https://maps.example.org/aerial.pmtiles", relativeTo: URL(fileURLWithPath: "/work")) == .file(url))
        #expect(try RasterTileLocation(argument: "pmtiles://https://maps.example.org/aerial.pmtiles") == .file(url))
        let json = #"""
            {"version": 8, "sources": {
                "r": {"type": "raster", "url": "pmtiles://https://maps.example.org/aerial.pmtiles"},
                "s": {"type": "raster", "url": "https://maps.example.org/aerial.pmtiles"},
                "v": {"type": "vector", "url": "pmtiles://https://maps.example.org/city.pmtiles"},
                "w": {"type": "vector", "url": "https://maps.example.org/city.pmtiles"}},
             "layers": []}
            """#
        let style = try Style.parse(Data(json.utf8)).style
        for id in ["r", "s"] {
            guard case .raster(let raster)? = style.sources[id] else { Issue.record("\(id) is not a raster source"); continue }
            #expect(raster.tiles == .file(url), "\(id)")
        }
        let city = try #require(URL(string: "https://maps.example.org/city.pmtiles"))
        for id in ["v", "w"] {
            guard case .vector(let vector)? = style.sources[id] else { Issue.record("\(id) is not a vector source"); continue }
            #expect(vector.location == .tileset(city), "\(id)")
        }
    }

    @Test func emptyTilesLeaveTheSourceUnconfigured() throws {
        let json = #"{"version": 8, "sources": {"r": {"type": "raster", "tiles": []}}, "layers": [{"id": "r", "type": "raster", "source": "r"}]}"#
        let style = try Style.parse(Data(json.utf8), id: "r").style
        #expect(style.unconfiguredRasterSourceIDs == ["r"])
    }

    @Test func tilesAndURLTogetherAreAnError() {
        let json = #"{"version": 8, "sources": {"r": {"type": "raster", "tiles": ["{z}/{x}/{y}"], "url": "mbtiles://a.mbtiles"}}, "layers": []}"#
        let error = #expect(throws: StyleError.self) { try Style.parse(Data(json.utf8)) }
        #expect(error?.description == "sources.r.url: give either 'tiles' or 'url', not both")
    }
}
