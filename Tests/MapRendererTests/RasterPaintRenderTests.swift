import Foundation
import ImageCodec
import MapCore
import MapStyle
import Testing

@testable import MapRenderer

/// Raster paint, missing tiles, source bounds, image sources and hillshading, drawn as MapLibre
/// draws them.
struct RasterPaintRenderTests {
    /// A folder of flat-coloured 256-pixel PNG tiles, `{z}/{x}/{y}.png`, for the given tiles.
    private func withTiles(_ tiles: [(z: Int, x: Int, y: Int, pixel: RGBAPixel)], _ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-raster-paint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        for tile in tiles {
            let folder = directory.appendingPathComponent("\(tile.z)/\(tile.x)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try RGBAImage(width: 256, height: 256, filledWith: tile.pixel).pngData(compressionLevel: 1)
                .write(to: folder.appendingPathComponent("\(tile.y).png"))
        }
        try body(directory)
    }

    private func render(_ json: String, zoomLevel: Double, center: Coordinate? = nil, size: Double = 64) throws
        -> RGBAImage
    {
        let loaded = try Style.parse(Data(json.utf8), file: "raster.json")
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let viewport = try Viewport(
            center: try center ?? RenderFixtures.coordinate(0, 0), zoomLevel: zoomLevel,
            size: ViewSize(width: size, height: size))
        return try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)
        ).image
    }

    private func style(tiles directory: URL, source extra: String = "", paint: String = "{}") -> String {
        """
        {"version": 8, "sources": {"r": {"type": "raster", "tiles": ["file://\(directory.path)/{z}/{x}/{y}.png"], "tileSize": 256\(extra)}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#0000ff"}},
                    {"id": "r", "type": "raster", "source": "r", "paint": \(paint)}]}
        """
    }

    @Test func rasterPaintAdjustsAKnownTilesColours() throws {
        let orange = RGBAPixel(red: 200, green: 100, blue: 50, alpha: 255)
        let tiles = (0..<4).flatMap { x in (0..<4).map { y in (z: 2, x: x, y: y, pixel: orange) } }
        try withTiles(tiles) { directory in
            let plain = try render(style(tiles: directory), zoomLevel: 2)
            #expect(plain[x: 32, y: 32] == orange)
            // Saturation −1: every component becomes the mean, 116.7.
            let grey = try render(style(tiles: directory, paint: #"{"raster-saturation": -1}"#), zoomLevel: 2)
            #expect(grey[x: 32, y: 32] == RGBAPixel(red: 117, green: 117, blue: 117, alpha: 255))
            // Brightness: black becomes 0.2, white 0.6.
            let dim = try render(
                style(tiles: directory, paint: #"{"raster-brightness-min": 0.2, "raster-brightness-max": 0.6}"#),
                zoomLevel: 2)
            let expected = { (value: Double) in UInt8(((0.2 + 0.4 * value / 255) * 255).rounded()) }
            #expect(
                dim[x: 32, y: 32] == RGBAPixel(red: expected(200), green: expected(100), blue: expected(50), alpha: 255)
            )
            // Opacity over the blue background.
            let half = try render(style(tiles: directory, paint: #"{"raster-opacity": 0.5}"#), zoomLevel: 2)[
                x: 32, y: 32]
            #expect(abs(Int(half.red) - 100) <= 1 && abs(Int(half.blue) - 153) <= 1)
        }
    }

    @Test func aMissingTileIsDrawnFromItsNearestParentAndBoundsKeepTilesOut() throws {
        let green = RGBAPixel(red: 0, green: 200, blue: 0, alpha: 255)
        try withTiles([(1, 0, 0, green), (1, 1, 0, green), (1, 0, 1, green), (1, 1, 1, green)]) { directory in
            // Zoom 4 wants zoom-4 tiles; the folder has only zoom 1's, drawn scaled up.
            let overzoomed = try render(
                style(tiles: directory), zoomLevel: 4, center: RenderFixtures.coordinate(10, 10))
            #expect(overzoomed[x: 32, y: 32] == green)
            // Bounds far from the view: no tile is read, the background shows.
            let outside = try render(
                style(tiles: directory, source: #", "bounds": [100, -60, 120, -40]"#), zoomLevel: 4,
                center: RenderFixtures.coordinate(10, 10))
            #expect(outside[x: 32, y: 32] == RGBAPixel(red: 0, green: 0, blue: 255, alpha: 255))
        }
    }

    @Test func anImageSourceIsPlacedAtItsFourCorners() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-image-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Four quadrants: red, green (top); blue, yellow (bottom).
        var picture = RGBAImage(width: 64, height: 64)
        let colours = [
            RGBAPixel(red: 255, green: 0, blue: 0, alpha: 255), RGBAPixel(red: 0, green: 255, blue: 0, alpha: 255),
            RGBAPixel(red: 0, green: 0, blue: 255, alpha: 255), RGBAPixel(red: 255, green: 255, blue: 0, alpha: 255),
        ]
        for y in 0..<64 { for x in 0..<64 { picture[x: x, y: y] = colours[(y / 32) * 2 + x / 32] } }
        try picture.pngData(compressionLevel: 1).write(to: directory.appendingPathComponent("quadrants.png"))
        let json = """
            {"version": 8, "sources": {"i": {"type": "image", "url": "file://\(directory.path)/quadrants.png",
               "coordinates": [[-10, 10], [10, 10], [10, -10], [-10, -10]]}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "i", "type": "raster", "source": "i", "paint": {"raster-resampling": "nearest"}}]}
            """
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(0, 0), zoomLevel: 3, size: ViewSize(width: 200, height: 200))
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(
                viewport: viewport, style: try Style.parse(Data(json.utf8)).style, showsAttribution: false)
        ).image
        func pixel(_ latitude: Double, _ longitude: Double) throws -> RGBAPixel {
            let point = try #require(viewport.point(for: RenderFixtures.coordinate(latitude, longitude)))
            return image[x: Int(point.x), y: Int(point.y)]
        }
        #expect(try pixel(5, -5) == colours[0])
        #expect(try pixel(6, 3) == colours[1])
        #expect(try pixel(-3, -6) == colours[2])
        #expect(try pixel(-5, 5) == colours[3])
        #expect(try pixel(15, 0) == RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(try pixel(0, -15) == RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255))
    }

    @Test func demTilesDecodeBothEncodingsAndBackfillTheirBorder() throws {
        // Terrarium 1000 m: 33768 = 131·256 + 232; Mapbox 1000 m: 110000 = 1·65536 + 173·256 + 176.
        let terrarium = RGBAImage(width: 2, height: 2, filledWith: RGBAPixel(red: 131, green: 232, blue: 0, alpha: 255))
        let mapbox = RGBAImage(width: 2, height: 2, filledWith: RGBAPixel(red: 1, green: 173, blue: 176, alpha: 255))
        let fromTerrarium = try #require(DEMGrid(image: terrarium, encoding: .terrarium))
        let fromMapbox = try #require(DEMGrid(image: mapbox, encoding: .mapbox))
        // Stored as MapLibre's shader reads them: a quarter of the whole metres.
        #expect(fromTerrarium[0, 0] == 250 && fromMapbox[1, 1] == 250)
        // The border repeats the edge, then takes the neighbour's pixels.
        #expect(fromTerrarium[-1, -1] == 250 && fromTerrarium[2, 1] == 250)
        var grid = fromTerrarium
        let higher = try #require(
            DEMGrid(
                image: RGBAImage(width: 2, height: 2, filledWith: RGBAPixel(red: 135, green: 208, blue: 0, alpha: 255)),
                encoding: .terrarium))
        grid.backfill(from: higher, dx: 1, dy: 0)
        #expect(grid[2, 0] == 500 && grid[2, 1] == 500 && grid[2, -1] == 250 && grid[1, 0] == 250)
        #expect(DEMGrid(image: RGBAImage(width: 2, height: 1), encoding: .mapbox) == nil)
    }

    @Test func aSyntheticSlopeIsShadedByWhereTheLightComesFrom() throws {
        // Ground rising eastwards 40 m a pixel faces west.
        var ramp = RGBAImage(width: 8, height: 8)
        for y in 0..<8 {
            for x in 0..<8 {
                let meters = 32_768 + 40 * x
                ramp[x: x, y: y] = RGBAPixel(red: UInt8(meters / 256), green: UInt8(meters % 256), blue: 0, alpha: 255)
            }
        }
        let grid = try #require(DEMGrid(image: ramp, encoding: .terrarium))
        let slopes = grid.slopes(zoom: 12, maxZoom: 15)
        let (east, south) = (slopes[(3 * 8 + 3) * 2], slopes[(3 * 8 + 3) * 2 + 1])
        #expect(east > 0.2 && abs(south) < 0.01)
        func shade(direction: Double, anchor: String = "map", bearing: Double = 0) throws -> PremultipliedColor {
            var layer = HillshadeLayer()
            layer.illuminationDirection = .constant(direction)
            layer.illuminationAnchor = .constant(try #require(HillshadeIlluminationAnchor(rawValue: anchor)))
            layer.accentColor = .constant(.transparent)
            return HillshadeShader(layer, zoom: 12, bearingDegrees: bearing).color(
                east: east, south: south, latitudeDegrees: 0)
        }
        // Lit from the west, the slope takes the (white) highlight; from the east, the (black) shadow.
        let lit = try shade(direction: 270)
        let dark = try shade(direction: 90)
        #expect(lit.red > 0.2 && abs(lit.red - lit.alpha) < 0.01)
        #expect(dark.red < 0.01 && dark.alpha > 0.2)
        // North light falls across the slope: half shadow, half highlight.
        let across = try shade(direction: 0)
        #expect(abs(across.red / across.alpha - 0.5) < 0.01)
        // A viewport-anchored light turns with the view: from the top of a view turned 270°, it comes from the west.
        #expect(try shade(direction: 0, anchor: "viewport", bearing: 270) == lit)
        // Flat ground is left clear.
        var flat = HillshadeLayer()
        flat.exaggeration = .constant(1)
        #expect(
            HillshadeShader(flat, zoom: 12, bearingDegrees: 0).color(east: 0, south: 0, latitudeDegrees: 45).alpha == 0)
    }
}
