import Foundation
import ImageCodec
import MapCore
import MapData
import MapRenderer
import MapStyle
import MapTestSupport
import Testing
import Tilesets

/// Sprite icons (`icon-image` and its layout and paint properties) drawn and placed as MapLibre
/// draws and places them; the GL suite's icon tests judge the looks, these pin the rules.
struct IconRenderTests {
    static let red = RGBAPixel(red: 255, green: 0, blue: 0, alpha: 255)
    static let blue = RGBAPixel(red: 0, green: 0, blue: 255, alpha: 255)
    static let white = RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255)

    /// A folder with the sprite `sheet`: `square`, 4 × 4 blue with a red top-left pixel, and
    /// `disc`, an 8 × 8 SDF whose distance falls from 1 at its centre (inside from 0.75).
    private func spriteFolder() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        var pixels = [UInt8](repeating: 0, count: 12 * 8 * 4)
        for y in 0..<8 {
            for x in 0..<12 {
                let offset = (y * 12 + x) * 4
                if x < 4, y < 4 {
                    let isRed = x == 0 && y == 0
                    pixels.replaceSubrange(offset..<offset + 4, with: isRed ? [255, 0, 0, 255] : [0, 0, 255, 255])
                } else if x >= 4 {
                    let distance = hypot(Double(x - 4) + 0.5 - 4, Double(y) + 0.5 - 4)
                    pixels[offset + 3] = UInt8(max(0, min(255, (1 - distance / 8) * 255)))
                }
            }
        }
        try RGBAImage(width: 12, height: 8, pixels: pixels).pngData().write(to: directory.file("sheet.png"))
        _ = try directory.write(
            """
            {"square": {"x": 0, "y": 0, "width": 4, "height": 4, "pixelRatio": 1},
             "disc": {"x": 4, "y": 0, "width": 8, "height": 8, "pixelRatio": 1, "sdf": true}}
            """, to: "sheet.json")
        return directory
    }

    /// Renders `layers` over white at GL zoom 1 on a 64-point view centred on (0, 0), with two
    /// points: (0, 0) at the view's centre, then (5, 0) 14.2 points east of it.
    private func render(
        _ layers: String, in directory: TemporaryDirectory, metadata: String = "", sprite: String = "sheet",
        data: MapData = MapData(basemapDirectory: RepositoryFiles.basemap), scale: Double = 1
    ) throws -> RGBAImage {
        let json = """
            {"version": 8, "sprite": "\(sprite)", \(metadata)
             "sources": {"points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
               {"type": "Feature", "properties": {"kind": "square"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
               {"type": "Feature", "properties": {"kind": "square"}, "geometry": {"type": "Point", "coordinates": [5, 0]}}]}}},
             "layers": [{"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}}, \(layers)]}
            """
        let loaded = try Style.parse(Data(json.utf8), file: "icons.json", baseURL: directory.url)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let viewport = try Viewport(
            center: try Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 64, height: 64),
            scale: scale)
        return try MapSnapshotter(data: data).snapshot(
            MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)
        ).image
    }

    /// An icon is centred on its point at its own size, texel for pixel; `{token}` names read
    /// the feature's properties.
    @Test func anIconIsCentredOnItsPointPixelForPixel() throws {
        let image = try render(
            #"{"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "{kind}", "icon-allow-overlap": true}}"#,
            in: try spriteFolder())
        // The view's centre is at (32, 32): the 4-pixel icon covers 30...33.
        #expect(image[x: 30, y: 30] == Self.red)
        for (x, y) in [(31, 30), (33, 33), (30, 33)] { #expect(image[x: x, y: y] == Self.blue, "(\(x), \(y))") }
        for (x, y) in [(29, 30), (34, 33), (30, 29), (30, 34)] {
            #expect(image[x: x, y: y] == Self.white, "(\(x), \(y))")
        }
    }

    /// `icon-anchor`, `icon-offset` (times `icon-size`) and `icon-size` place and scale the quad.
    @Test func anchorOffsetAndSizeMoveAndScaleTheIcon() throws {
        let folder = try spriteFolder()
        let anchored = try render(
            #"{"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "square", "icon-anchor": "top-left", "icon-offset": [2, 1], "icon-allow-overlap": true}}"#,
            in: folder)
        #expect(anchored[x: 34, y: 33] == Self.red)
        #expect(anchored[x: 33, y: 33] == Self.white)
        let doubled = try render(
            #"{"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "square", "icon-size": 2, "icon-allow-overlap": true}}"#,
            in: folder)
        // 8 × 8 round the centre: 28...35, the red texel bilinear over its top-left corner.
        #expect(doubled[x: 28, y: 35].blue > 200)
        #expect(doubled[x: 27, y: 32] == Self.white)
        #expect(doubled[x: 28, y: 28].red > 100)
    }

    /// An SDF icon takes `icon-color` inside its edge and `icon-halo-color` round it.
    @Test func anSDFIconTakesItsColourAndHalo() throws {
        let image = try render(
            ##"{"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "disc", "icon-allow-overlap": true}, "paint": {"icon-color": "#00ff00", "icon-halo-color": "#ff0000", "icon-halo-width": 2}}"##,
            in: try spriteFolder())
        // Distance 0.75 lies 2 texels from the centre: green within, red in the halo round it.
        #expect(image[x: 32, y: 32] == RGBAPixel(red: 0, green: 255, blue: 0, alpha: 255))
        let halo = image[x: 35, y: 32]
        #expect(halo.red > 100 && halo.green < 100, "\(halo)")
        #expect(image[x: 32, y: 20] == Self.white)
    }

    /// Icons collide: of two overlapping ones the first feature's shows (MapLibre's order);
    /// `icon-allow-overlap` shows both; a missing image draws nothing and is warned about once.
    @Test func iconsCollideInFeatureOrderAndAMissingOneIsWarnedAbout() throws {
        let folder = try spriteFolder()
        let layer =
            #"{"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "square", "icon-size": 4}}"#
        let collided = try render(layer, in: folder)
        #expect(collided[x: 32, y: 32] != Self.white)
        #expect(
            collided[x: 46, y: 32] == Self.white, "the second icon, 14 points east, overlaps the first's 16-point box")
        let both = try render(
            layer.replacingOccurrences(of: #""icon-size": 4"#, with: #""icon-size": 4, "icon-allow-overlap": true"#),
            in: folder)
        #expect(both[x: 46, y: 32] != Self.white)
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        let missing = try render(
            #"{"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "nope"}}"#, in: folder,
            data: data)
        #expect(missing[x: 32, y: 32] == Self.white)
        #expect(data.skippedDataWarnings() == ["no sprite has the image 'nope': what names it is not drawn"])
    }

    /// Under the inside-view rules (the shipped styles') an icon that would cross the view's
    /// edge is left out; under MapLibre's it is drawn, cut by the edge.
    @Test func insideViewRulesKeepIconsWhole() throws {
        let folder = try spriteFolder()
        let layer =
            #"{"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "square", "icon-size": 20, "icon-allow-overlap": true}}"#
        let maplibre = try render(layer, in: folder)
        #expect(maplibre[x: 1, y: 1] != Self.white)
        let insideView = try render(
            layer, in: folder, metadata: #""metadata": {"mapwright": {"labels": {"placement": "inside-view"}}},"#)
        #expect(insideView[x: 1, y: 1] == Self.white)
        #expect(insideView[x: 32, y: 32] == Self.white)
    }

    /// Images added at run time are drawn as sprite images are.
    @Test func anImageAddedAtRunTimeIsDrawn() throws {
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        data.addImage(
            RGBAImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 12) + [255, 0, 0, 255]), named: "added")
        let image = try render(
            #"{"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "added", "icon-allow-overlap": true}}"#,
            in: try spriteFolder(), data: data)
        #expect(image[x: 32, y: 32] == Self.red)
        #expect(image[x: 31, y: 31] == Self.white)
        data.removeImage(named: "added")
        let removed = try render(
            #"{"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "added", "icon-allow-overlap": true}}"#,
            in: try spriteFolder(), data: data)
        #expect(removed[x: 32, y: 32] == Self.white)
    }

    /// A sprite at an http URL is fetched (its `@2x` index asked for first at scale 2, the plain
    /// files after a 404), drawn as from a file, and kept: a second render, with new map data,
    /// asks the server nothing; with the server gone and the copies stale, they are still used.
    @Test func aSpriteOverHTTPIsFetchedOnceAndKept() throws {
        let folder = try spriteFolder()
        let cache = try TemporaryDirectory()
        let serverFiles = try TemporaryDirectory()
        let server = try LoopbackTileServer(serving: folder.url, in: serverFiles)
        let layer =
            #"{"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "{kind}", "icon-allow-overlap": true}}"#
        let sprite = "\(server.baseURL)/sheet"
        func data() -> MapData { MapData(basemapDirectory: RepositoryFiles.basemap, tileCacheDirectory: cache.url) }

        let fetched = try render(layer, in: folder, sprite: sprite, data: data(), scale: 2)
        let fromFile = try render(layer, in: folder, scale: 2)
        #expect(fetched == fromFile)
        #expect(fetched[x: 63, y: 63] != Self.white, "the icon is drawn")
        #expect(try server.requests().map(\.path) == ["/sheet@2x.json", "/sheet.json", "/sheet.png"])
        #expect(try server.requests().allSatisfy { $0.userAgent?.hasPrefix("Mapwright/") == true })

        #expect(
            try render(layer, in: folder, sprite: sprite, data: data(), scale: 1) == (try render(layer, in: folder)))
        #expect(try server.requests().count == 3, "fresh copies are read without asking")

        server.stop()
        let stale = HTTPFileCache(directory: cache.url.appendingPathComponent("files"), maximumAgeSeconds: 0)
        let index = try stale.data(from: try #require(URL(string: "\(sprite).json")), maximumBytes: 1 << 20)
        #expect(String(decoding: index, as: UTF8.self).contains("square"))
        #expect(throws: TilesetsError.self) {
            try stale.data(from: try #require(URL(string: "\(server.baseURL)/other.json")), maximumBytes: 1 << 20)
        }
    }

    /// A sprite the server does not have draws nothing, with one warning naming its URL and the
    /// server's answer (and, as in GL, one for the image the layer names).
    @Test func aSpriteTheServerLacksIsOneWarning() throws {
        let folder = try spriteFolder()
        let serverFiles = try TemporaryDirectory()
        let cache = try TemporaryDirectory()
        let server = try LoopbackTileServer(serving: folder.url, in: serverFiles)
        let data = MapData(basemapDirectory: RepositoryFiles.basemap, tileCacheDirectory: cache.url)
        let image = try render(
            #"{"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "{kind}", "icon-allow-overlap": true}}"#,
            in: folder, sprite: "\(server.baseURL)/missing", data: data)
        #expect(image[x: 30, y: 30] == Self.white)
        let warnings = data.skippedDataWarnings()
        #expect(
            warnings.count == 2 && warnings[0].contains("\(server.baseURL)/missing.json")
                && warnings[0].contains("404"), "\(warnings)")
    }
}
