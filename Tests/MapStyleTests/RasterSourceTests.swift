import Foundation
import Testing

@testable import MapStyle

struct RasterSourceTests {
    @Test func argumentsAreTemplatesOrMBTilesFiles() throws {
        let base = URL(fileURLWithPath: "/work", isDirectory: true)
        #expect(try RasterTileLocation(argument: "https://x/{z}/{x}/{y}.jpg") == .templates(["https://x/{z}/{x}/{y}.jpg"]))
        #expect(try RasterTileLocation(argument: "mbtiles://imagery/aerial.mbtiles", relativeTo: base)
            == .mbtiles(URL(fileURLWithPath: "/work/imagery/aerial.mbtiles")))
        #expect(try RasterTileLocation(argument: "aerial.MBTILES", relativeTo: base) == .mbtiles(URL(fileURLWithPath: "/work/aerial.MBTILES")))
        let error = #expect(throws: StyleError.self) { try RasterTileLocation(argument: "https://x/tiles.json") }
        #expect(error?.description.contains("'https://x/tiles.json' is neither a tile URL template") == true)
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
