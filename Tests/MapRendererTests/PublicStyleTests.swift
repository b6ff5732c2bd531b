import Foundation
import ImageCodec
import MapCore
import MapData
import MapStyle
import MapTestSupport
import Testing

@testable import MapRenderer

/// OpenMapTiles' published styles (OSM Bright, Positron, Dark Matter, MapTiler Basic) and
/// Protomaps' basemap style (light), vendored in Tests/Fixtures/styles with their licences, over
/// the Helsinki sample (Protomaps' over the same data in its schema): they load with no warning,
/// draw at every street zoom with nothing skipped but the images the data names and the sprite
/// lacks, their SVG icons become a sprite, and their `text-font` names find installed faces by
/// family and weight.
struct PublicStyleTests {
    static let names = ["osm-bright", "positron", "dark-matter", "maptiler-basic", "protomaps-light"]
    private static let folder = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/styles", isDirectory: true)
    private static let helsinki = RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles")
    private static let helsinkiProtomaps = RepositoryFiles.samples.appendingPathComponent(
        "helsinki/helsinki-protomaps.mbtiles")

    /// The sample in the style's schema: Protomaps' for its style, OpenMapTiles' for the others.
    private static func tiles(for name: String) -> URL { name.hasPrefix("protomaps") ? helsinkiProtomaps : helsinki }
    /// Central Helsinki: the railway station, Kluuvi and the Esplanadi.
    private static let center = MapPoint(try! Coordinate(latitude: 60.1700, longitude: 24.9445))

    private static func load(_ name: String) throws -> (style: Style, warnings: [StyleWarning]) {
        try Style.load(from: folder.appendingPathComponent("\(name)/style.json"))
    }

    @Test(arguments: names)
    func loadsWithNoWarning(name: String) throws {
        let (style, warnings) = try Self.load(name)
        #expect(warnings.map(\.description) == [])
        // The published source reads MapTiler's (Protomaps') TileJSON: it waits for the tiles, naming the server.
        #expect(style.unconfiguredVectorSourceIDs == [name.hasPrefix("protomaps") ? "protomaps" : "openmaptiles"])
        #expect(style.camera != nil || name != "osm-bright")
    }

    @Test(arguments: names, [12.0, 13, 14, 15, 16, 17])
    func drawsOverHelsinki(name: String, zoom: Double) throws {
        let style = try Self.load(name).style.configuringVectorSources(Self.tiles(for: name))
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        let viewport = try Viewport(
            centerMapPoint: Self.center, zoomLevel: zoom, size: ViewSize(width: 400, height: 300))
        let image = try MapSnapshotter(data: data).snapshot(MapSnapshotOptions(viewport: viewport, style: style)).image
        // A street map: many colours, not one background.
        var colors = Set<UInt32>()
        for y in stride(from: 0, to: image.height, by: 3) {
            for x in stride(from: 0, to: image.width, by: 3) {
                let pixel = image[x: x, y: y]
                colors.insert(UInt32(pixel.red) << 16 | UInt32(pixel.green) << 8 | UInt32(pixel.blue))
            }
        }
        #expect(colors.count > 40, "\(name) at zoom \(zoom): \(colors.count) colours")
        // Nothing skipped but images the tiles name that the sprite has not (OSM Bright's
        // `{class}_11` for a POI class without an icon, as GL warns of them).
        #expect(data.skippedDataWarnings().filter { !$0.hasPrefix("no sprite has the image") } == [])
    }

    /// OSM Bright's POI icons come from its folder of SVGs, drawn at the map's pixel ratio.
    @Test func svgFolderIsASprite() throws {
        let sprite = SpriteReference(
            id: "default", url: Self.folder.appendingPathComponent("osm-bright/icons", isDirectory: true))
        let oneX = StyleImages.load([sprite], pixelRatio: 1)
        let twoX = StyleImages.load([sprite], pixelRatio: 2)
        #expect(oneX.failures == [] && twoX.failures == [])
        #expect(oneX.count == 101)
        let airport = try #require(oneX["airport_11"])
        let sharp = try #require(twoX["airport_11"])
        #expect(airport.pixels.width == 17 && airport.pixels.height == 17 && airport.pixelRatio == 1)
        #expect(sharp.pixels.width == 34 && sharp.pixels.height == 34 && sharp.pixelRatio == 2)
        #expect(sharp.widthPoints == 17)
        // Drawn, not empty: the plane's dark grey ink.
        #expect(airport.pixels.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element > 200 })
    }

    /// An SVG folder's icons are drawn when first named; a file librsvg cannot draw is counted
    /// in the sprite's failure line once named, in the map data's warnings too, and the others
    /// still draw.
    @Test func svgFolderIconIsDrawnWhenNamed() throws {
        let folder = try TemporaryDirectory()
        try Data(
            #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="8"><rect width="10" height="8"/></svg>"#.utf8
        )
        .write(to: folder.url.appendingPathComponent("box.svg"))
        try Data("not an svg".utf8).write(to: folder.url.appendingPathComponent("broken.svg"))
        let sprite = SpriteReference(id: "default", url: folder.url)
        let data = try MapData(basemapDirectory: RepositoryFiles.basemap)
        let images = data.styleImages(for: [sprite], pixelRatio: 2)
        #expect(images.count == 2 && images.failures == [] && data.skippedDataWarnings() == [])
        let box = try #require(images["box"])
        #expect(box.pixels.width == 20 && box.pixels.height == 16 && box.widthPoints == 10)
        #expect(images["broken"] == nil && images["missing"] == nil)
        let line = "\(folder.url.path): 1 SVG icon(s) cannot be drawn (broken.svg): they are not drawn"
        #expect(images.failures == [line])
        #expect(data.skippedDataWarnings() == [line])
    }

    /// Protomaps' sprite is a sheet as its authors publish it (basemaps-assets' v4 light), at 1x and 2x.
    @Test func protomapsSpriteSheetLoadsAtBothRatios() throws {
        let style = try Self.load("protomaps-light").style
        #expect(style.sprites.count == 1)
        let oneX = StyleImages.load(style.sprites, pixelRatio: 1)
        let twoX = StyleImages.load(style.sprites, pixelRatio: 2)
        #expect(oneX.failures == [] && twoX.failures == [])
        #expect(oneX.count == 22 && twoX.count == 22)
        let station = try #require(oneX["train_station"])
        let sharp = try #require(twoX["train_station"])
        #expect(station.pixelRatio == 1 && sharp.pixelRatio == 2 && sharp.widthPoints == station.widthPoints)
    }

    /// With the sprite the shops and cafés of the Esplanadi get their icons; without it they do not.
    @Test func osmBrightDrawsItsIcons() throws {
        var style = try Self.load("osm-bright").style.configuringVectorSources(Self.helsinki)
        let viewport = try Viewport(centerMapPoint: Self.center, zoomLevel: 17, size: ViewSize(width: 400, height: 300))
        let withIcons = try MapSnapshotter(data: MapData(basemapDirectory: RepositoryFiles.basemap))
            .snapshot(MapSnapshotOptions(viewport: viewport, style: style)).image
        style.sprites = []
        let withoutIcons = try MapSnapshotter(data: MapData(basemapDirectory: RepositoryFiles.basemap))
            .snapshot(MapSnapshotOptions(viewport: viewport, style: style)).image
        var differing = 0
        for index in stride(from: 0, to: withIcons.pixels.count, by: 4)
        where withIcons.pixels[index..<index + 3] != withoutIcons.pixels[index..<index + 3] {
            differing += 1
        }
        #expect(differing > 500, "\(differing) pixels differ")
    }

    /// Font names as public styles write them, read as family, weight and slant.
    @Test func fontNamesReadAsFamilyAndWeight() {
        #expect(FontSpec.parse(fontName: "Open Sans Semibold") == ("Open Sans", 600, false))
        #expect(FontSpec.parse(fontName: "Metropolis Medium Italic") == ("Metropolis", 500, true))
        #expect(FontSpec.parse(fontName: "Noto Sans Bold Italic") == ("Noto Sans", 700, true))
        #expect(FontSpec.parse(fontName: "Roboto Extra Light") == ("Roboto", 200, false))
        #expect(FontSpec.parse(fontName: "DejaVu Sans Book") == ("DejaVu Sans", 400, false))
        #expect(FontSpec.parse(fontName: "Noto Sans") == ("Noto Sans", 400, false))
        // A name that is only a weight word is a family.
        #expect(FontSpec.parse(fontName: "Black") == ("Black", 400, false))
        let positron = FontSpec(fontStack: ["Metropolis Light", "Noto Sans Regular"], sizePoints: 12)
        #expect(positron.families == "Metropolis, Noto Sans, DejaVu Sans, WenQuanYi Micro Hei")
        #expect(positron.weight == 300 && !positron.italic)
        #expect(
            FontSpec(fontStack: ["DejaVu Sans Bold"], sizePoints: 12).families == FontConfiguration.fallbackFamilies)
    }
}
