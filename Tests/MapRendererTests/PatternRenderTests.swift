import Foundation
import ImageCodec
import MapCore
import MapData
import MapRenderer
import MapStyle
import MapTestSupport
import Testing

/// Sprite patterns: `background-pattern`, `fill-pattern` and `line-pattern` draw the style's sprite
/// images as MapLibre lays them (the GL suite's pattern tests judge the looks; these pin the rules).
struct PatternRenderTests {
    static let red = RGBAPixel(red: 255, green: 0, blue: 0, alpha: 255)
    static let blue = RGBAPixel(red: 0, green: 0, blue: 255, alpha: 255)
    static let white = RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255)

    /// A folder with the sprite `sheet`: `dot`, 4 × 4 blue with a red top-left pixel, and
    /// `stripes`, 4 × 4 with red top rows and blue bottom rows.
    private func spriteFolder() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        var pixels: [UInt8] = []
        for y in 0..<4 {
            for x in 0..<8 {
                let isRed = x < 4 ? (x == 0 && y == 0) : y < 2
                pixels += isRed ? [255, 0, 0, 255] : [0, 0, 255, 255]
            }
        }
        try RGBAImage(width: 8, height: 4, pixels: pixels).pngData().write(to: directory.file("sheet.png"))
        _ = try directory.write(
            """
            {"dot": {"x": 0, "y": 0, "width": 4, "height": 4, "pixelRatio": 1},
             "stripes": {"x": 4, "y": 0, "width": 4, "height": 4, "pixelRatio": 1}}
            """, to: "sheet.json")
        return directory
    }

    private func render(
        _ layers: String, in directory: TemporaryDirectory,
        data: MapData = MapData(basemapDirectory: RepositoryFiles.basemap)
    )
        throws -> RGBAImage
    {
        let json = """
            {"version": 8, "sprite": "sheet",
             "sources": {"shapes": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
               {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-5, -5], [5, -5], [5, 5], [-5, 5], [-5, -5]]]}},
               {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-60, 0], [60, 0]]}}]}}},
             "layers": [{"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}}, \(layers)]}
            """
        let loaded = try Style.parse(Data(json.utf8), file: "patterns.json", baseURL: directory.url)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        // GL zoom 1: the world is 1,024 pixels wide, the view's left edge 480 pixels from its corner.
        let viewport = try Viewport(
            center: try Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 64, height: 64))
        return try MapSnapshotter(data: data).snapshot(
            MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)
        ).image
    }

    /// The pattern repeats from the world's top-left corner, one image pixel per point.
    @Test func aBackgroundPatternRepeatsFromTheWorldsCorner() throws {
        let image = try render(
            #"{"id": "dots", "type": "background", "paint": {"background-pattern": "dot"}}"#, in: try spriteFolder())
        for (x, y) in [(0, 0), (4, 0), (60, 32), (8, 12)] { #expect(image[x: x, y: y] == Self.red, "(\(x), \(y))") }
        for (x, y) in [(1, 0), (0, 1), (3, 3), (61, 33)] { #expect(image[x: x, y: y] == Self.blue, "(\(x), \(y))") }
    }

    /// A fill pattern fills the polygons only, lined up with the same grid; a pattern no sprite
    /// has draws nothing there, and the map data says so once.
    @Test func aFillPatternFillsThePolygonAndAMissingOneDrawsNothing() throws {
        let folder = try spriteFolder()
        let image = try render(
            #"{"id": "fill", "type": "fill", "source": "shapes", "paint": {"fill-pattern": "dot"}}"#, in: folder)
        #expect(image[x: 32, y: 32] == Self.red)
        #expect(image[x: 33, y: 32] == Self.blue)
        #expect(image[x: 1, y: 1] == Self.white)
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        let missing = try render(
            #"{"id": "fill", "type": "fill", "source": "shapes", "paint": {"fill-pattern": "nope"}}"#, in: folder,
            data: data)
        #expect(missing[x: 32, y: 32] == Self.white)
        #expect(data.skippedDataWarnings() == ["no sprite has the image 'nope': what names it is not drawn"])
    }

    /// A line pattern runs along the line at the image's size, centred across it: a line as wide
    /// as the image shows its top rows on one side and its bottom rows on the other.
    @Test func aLinePatternLiesAcrossTheLine() throws {
        let image = try render(
            #"{"id": "rail", "type": "line", "source": "shapes", "paint": {"line-width": 4, "line-pattern": "stripes"}}"#,
            in: try spriteFolder())
        // The line's rows are 30 to 33 (y = 32 ± 2).
        let sides = [image[x: 10, y: 30], image[x: 10, y: 33]]
        #expect(Set(sides) == [Self.red, Self.blue], "\(sides)")
        #expect(image[x: 10, y: 28] == Self.white && image[x: 10, y: 35] == Self.white)
    }

    /// An extrusion's roof shows the pattern at its footprint, on the same grid as a fill, lit
    /// as GL lights a patterned face (MapLibre's default light, radial 1.15 at 30° from overhead:
    /// 0.5 + 0.5 × 0.996 on a roof).
    @Test func anExtrusionPatternLiesOnTheRoof() throws {
        let image = try render(
            #"{"id": "blocks", "type": "fill-extrusion", "source": "shapes", "paint": {"fill-extrusion-pattern": "dot", "fill-extrusion-height": 10}}"#,
            in: try spriteFolder())
        let roof = image[x: 32, y: 32]
        let next = image[x: 33, y: 32]
        #expect(abs(Int(roof.red) - 254) <= 1 && roof.green == 0 && roof.blue == 0, "\(roof)")
        #expect(next.red == 0 && next.green == 0 && abs(Int(next.blue) - 254) <= 1, "\(next)")
        #expect(image[x: 1, y: 1] == Self.white)
    }

    /// A sprite that cannot be read gives no images and one warning naming it.
    @Test func anUnreadableSpriteIsOneWarning() throws {
        let folder = try spriteFolder()
        try Data("not json".utf8).write(to: folder.file("sheet.json"))
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        let image = try render(
            #"{"id": "dots", "type": "background", "paint": {"background-pattern": "dot"}}"#, in: folder, data: data)
        #expect(image[x: 0, y: 0] == Self.white)
        let warnings = data.skippedDataWarnings()
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.first?.contains("sheet: the sprite cannot be read (") == true, "\(warnings)")
        #expect(warnings.first?.contains("sheet.json: is not valid JSON") == true, "\(warnings)")
    }
}
