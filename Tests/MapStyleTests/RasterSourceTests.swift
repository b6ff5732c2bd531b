import Foundation
import Testing

@testable import MapStyle

struct RasterSourceTests {
    @Test func tileURLsFillTheTemplate() {
        let source = RasterSource(tiles: .templates(["https://{s}.tiles.example.com/{z}/{x}/{y}{r}.png"]))
        #expect(source.tileURL(z: 5, x: 16, y: 10) == "https://c.tiles.example.com/5/16/10.png")
        #expect(source.tileURL(z: 5, x: 17, y: 10, scale: 2) == "https://a.tiles.example.com/5/17/10@2x.png")
    }

    @Test func tmsSchemeFlipsY() {
        let source = RasterSource(tiles: .templates(["{z}/{x}/{y}"]), scheme: .tms)
        #expect(source.tileURL(z: 3, x: 1, y: 0) == "3/1/7")
    }

    @Test func templatesAreChosenStablyFromTheList() {
        let source = RasterSource(tiles: .templates(["a/{z}/{x}/{y}", "b/{z}/{x}/{y}"]))
        #expect(source.tileURL(z: 1, x: 0, y: 0) == "a/1/0/0")
        #expect(source.tileURL(z: 1, x: 1, y: 0) == "b/1/1/0")
        #expect(RasterSource().tileURL(z: 0, x: 0, y: 0) == nil)
        #expect(RasterSource(tiles: .mbtiles(URL(fileURLWithPath: "/x.mbtiles"))).tileURL(z: 0, x: 0, y: 0) == nil)
    }

    @Test func argumentsAreTemplatesOrMBTilesFiles() throws {
        let base = URL(fileURLWithPath: "/work", isDirectory: true)
        #expect(try RasterTiles(argument: "https://x/{z}/{x}/{y}.jpg") == .templates(["https://x/{z}/{x}/{y}.jpg"]))
        #expect(try RasterTiles(argument: "mbtiles://imagery/aerial.mbtiles", relativeTo: base)
            == .mbtiles(URL(fileURLWithPath: "/work/imagery/aerial.mbtiles")))
        #expect(try RasterTiles(argument: "aerial.MBTILES", relativeTo: base) == .mbtiles(URL(fileURLWithPath: "/work/aerial.MBTILES")))
        let error = #expect(throws: StyleError.self) { try RasterTiles(argument: "https://x/tiles.json") }
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
