import Foundation
import Testing

@testable import MapStyle

struct RasterSourceTests {
    @Test func argumentsAreTemplatesOrTilesetFiles() throws {
        let base = URL(fileURLWithPath: "/work", isDirectory: true)
        #expect(
            try RasterTileLocation(argument: "https://x/{z}/{x}/{y}.jpg") == .templates(["https://x/{z}/{x}/{y}.jpg"]))
        #expect(
            try RasterTileLocation(argument: "mbtiles://imagery/aerial.mbtiles", relativeTo: base)
                == .file(URL(fileURLWithPath: "/work/imagery/aerial.mbtiles")))
        #expect(
            try RasterTileLocation(argument: "aerial.MBTILES", relativeTo: base)
                == .file(URL(fileURLWithPath: "/work/aerial.MBTILES")))
        #expect(
            try RasterTileLocation(argument: "pmtiles://imagery/aerial.pmtiles", relativeTo: base)
                == .file(URL(fileURLWithPath: "/work/imagery/aerial.pmtiles")))
        #expect(
            try RasterTileLocation(argument: "aerial.pmtiles", relativeTo: base)
                == .file(URL(fileURLWithPath: "/work/aerial.pmtiles")))
        let error = #expect(throws: StyleError.self) { try RasterTileLocation(argument: "https://x/tiles.json") }
        #expect(error?.description.contains("'https://x/tiles.json' is neither a tile URL template") == true)
        #expect(error?.description.contains("nor an .mbtiles or .pmtiles file") == true)
    }

    @Test func aPMTilesArchiveOnAWebServerIsATilesetByItsURL() throws {
        let url = try #require(URL(string: "https://maps.example.org/aerial.pmtiles"))
        #expect(
            try RasterTileLocation(
                argument: "https://maps.example.org/aerial.pmtiles", relativeTo: URL(fileURLWithPath: "/work"))
                == .file(url))
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
            guard case .raster(let raster)? = style.sources[id] else {
                Issue.record("\(id) is not a raster source")
                continue
            }
            #expect(raster.tiles == .file(url), "\(id)")
        }
        let city = try #require(URL(string: "https://maps.example.org/city.pmtiles"))
        for id in ["v", "w"] {
            guard case .vector(let vector)? = style.sources[id] else {
                Issue.record("\(id) is not a vector source")
                continue
            }
            #expect(vector.location == .tileset(city), "\(id)")
        }
    }

    @Test func emptyTilesLeaveTheSourceUnconfigured() throws {
        let json =
            #"{"version": 8, "sources": {"r": {"type": "raster", "tiles": []}}, "layers": [{"id": "r", "type": "raster", "source": "r"}]}"#
        let style = try Style.parse(Data(json.utf8), id: "r").style
        #expect(style.unconfiguredRasterSourceIDs == ["r"])
    }

    @Test func tilesAndURLTogetherAreAnError() {
        let json =
            #"{"version": 8, "sources": {"r": {"type": "raster", "tiles": ["{z}/{x}/{y}"], "url": "mbtiles://a.mbtiles"}}, "layers": []}"#
        let error = #expect(throws: StyleError.self) { try Style.parse(Data(json.utf8)) }
        #expect(error?.description == "sources.r.url: give either 'tiles' or 'url', not both")
    }

    /// `basemap://terrain`: the registered DEMs, waiting for whoever loads the style, drawing
    /// nothing until then (not an unconfigured source that needs --raster-source).
    @Test func terrainBasemapsWaitForTheRegisteredDEMs() throws {
        let json =
            #"{"version": 8, "sources": {"t": {"type": "raster-dem", "url": "basemap://terrain"}}, "layers": [{"id": "h", "type": "hillshade", "source": "t"}]}"#
        let style = try Style.parse(Data(json.utf8), id: "t").style
        #expect(style.terrainBasemapSourceIDs == ["t"])
        #expect(style.unconfiguredRasterSourceIDs.isEmpty)
        #expect(style.drawsRasterPixels(atZoom: 10) == false)
        let files = [URL(fileURLWithPath: "/dem/alps.mbtiles"), URL(fileURLWithPath: "/dem/europe.pmtiles")]
        let configured = style.configuringTerrainBasemaps(
            files, encoding: .terrarium, tileSizePixels: 256, attribution: "© Mapterhorn")
        guard case .rasterDEM(let dem)? = configured.sources["t"] else {
            Issue.record("\(String(describing: configured.sources["t"]))")
            return
        }
        #expect(dem.tiles.tiles == .files(files) && dem.encoding == .terrarium && dem.tiles.tileSize == 256)
        #expect(dem.tiles.attribution == "© Mapterhorn")
        #expect(configured.drawsRasterPixels(atZoom: 10))
        let none = style.configuringTerrainBasemaps([], encoding: .mapbox, tileSizePixels: 512)
        #expect(none.drawsRasterPixels(atZoom: 10) == false)
        // The shipped looks read it.
        for look in ["standard", "muted", "dark"] {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
                .appendingPathComponent("Styles/\(look).json")
            let shipped = try Style.load(from: url).style
            #expect(shipped.terrainBasemapSourceIDs == ["terrain"], "\(look)")
            #expect(shipped.layers.contains { $0.id == "terrain-hillshade" && $0.source == "terrain" }, "\(look)")
        }
    }
}
