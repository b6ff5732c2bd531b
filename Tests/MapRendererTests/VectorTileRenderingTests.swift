import Foundation
import GeoData
import ImageCodec
import ImageCompare
import MBTiles
import MapCore
import MapData
import MapStyle
import MapTestSupport
import Testing
import TileSources
import TilesetTools
import Tilesets

@testable import MapRenderer

/// Styles drawing Mapbox Vector Tiles from an MBTiles file: features land where the tile
/// formulas put them at native zooms and scaled up beyond the deepest tiles (overzoom), tiles
/// meet without seams and never draw their shared buffers twice, street names follow their
/// streets and are never upside down, and the tileset's attribution is the map's credit.
struct VectorTileRenderingTests {
    private let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// The tile holding Helsinki's Senate Square at zoom 14 (from the slippy-map formulas).
    private static let helsinkiTile = (z: 14, x: 9327, y: 4742)

    /// An MBTiles file of vector tiles at `zoom`, format pbf, written with the store.
    private func tileset(_ tiles: [TileID: Data], minZoom: Int, maxZoom: Int, name: String = "shapes.mbtiles") throws
        -> URL
    {
        let url = directory.url.appendingPathComponent(name)
        let store = try MBTilesStore(url: url, mode: .create)
        try store.write(tiles)
        try store.writeMetadata(
            TileMetadata(name: "shapes", format: .pbf, minZoom: minZoom, maxZoom: maxZoom, attribution: "Test shapes"))
        return url
    }

    /// A style on white: layer `shapes` of the tileset as a fill (and its lines as a line) in
    /// `fill` at `opacity`.
    private func style(_ url: URL, fill: String = "#ff0000", opacity: Double = 1) throws -> Style {
        let json = """
            {"version": 8, "sources": {"v": {"type": "vector", "url": "mbtiles://\(url.path)"}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "fill", "type": "fill", "source": "v", "source-layer": "shapes", "filter": ["==", "$type", "Polygon"],
                         "paint": {"fill-color": "\(fill)", "fill-opacity": \(opacity)}},
                        {"id": "line", "type": "line", "source": "v", "source-layer": "shapes", "filter": ["==", ["geometry-type"], "LineString"],
                         "paint": {"line-color": "#0000ff", "line-width": 6, "line-opacity": \(opacity)}}]}
            """
        return try Style.parse(Data(json.utf8), file: "shapes.json").style
    }

    /// A tile of one layer `shapes` with a square polygon from `(lo, lo)` to `(hi, hi)` in
    /// tile coordinates (extent 4096).
    private func squareTile(from lo: Int32, to hi: Int32) -> Data {
        var geometry = GeometryWriter()
        geometry.ring([(lo, lo), (hi, lo), (hi, hi), (lo, hi)])
        return TestTile.layer([TestTile.Feature(type: 3, geometry: geometry.numbers)], TestTile.Layer(name: "shapes"))
            .data
    }

    /// Longitude and latitude of a point of tile z/x/y, `u` and `v` from its west and north
    /// edges as fractions: the OpenStreetMap wiki's slippy-map formulas, not MapCore's.
    private func coordinate(z: Int, x: Int, y: Int, u: Double, v: Double) throws -> Coordinate {
        let n = exp2(Double(z))
        let longitude = (Double(x) + u) / n * 360 - 180
        let latitude = atan(sinh(.pi * (1 - 2 * (Double(y) + v) / n))) * 180 / .pi
        return try Coordinate(latitude: latitude, longitude: longitude)
    }

    private func render(_ style: Style, center: Coordinate, zoom: Double, size: Int, scale: Double = 1) throws
        -> RGBAImage
    {
        let viewport = try Viewport(
            centerMapPoint: MapPoint(center), zoomLevel: zoom,
            size: ViewSize(width: Double(size), height: Double(size)), scale: scale)
        let snapshot = try MapSnapshotter(data: MapData(basemapDirectory: RepositoryFiles.basemap))
            .snapshot(MapSnapshotOptions(viewport: viewport, style: style, showsAttribution: false))
        return snapshot.image
    }

    @Test(arguments: [15.0, 16.0, 18.0, 20.5])
    func aSquaresCornersLandWhereTheTileFormulasPutThemAtItsZoomAndScaledUpBeyondIt(viewportZoom: Double) throws {
        // One tile at zoom 14, the tileset's deepest: the view at 15 reads it (⌊15⌋ − 1); views
        // at 16 to 20.5 draw it scaled up 2 to 45 times.
        let (z, x, y) = Self.helsinkiTile
        let url = try tileset(
            [try TileID(z: z, x: x, y: y): squareTile(from: 1024, to: 3072)], minZoom: 14, maxZoom: 14)
        let red = RGBAPixel(red: 255, green: 0, blue: 0)
        let white = RGBAPixel(red: 255, green: 255, blue: 255)
        // Centred on the square's north-west corner (a quarter into the tile), then on its
        // south-east one: only the quadrant towards the square's inside is red, 3 pixels off.
        for (corner, inward) in [(0.25, 1.0), (0.75, -1.0)] {
            let image = try render(
                try style(url), center: try coordinate(z: z, x: x, y: y, u: corner, v: corner), zoom: viewportZoom,
                size: 64)
            func pixel(_ dx: Double, _ dy: Double) -> RGBAPixel {
                image[x: Int(32 + dx * inward), y: Int(32 + dy * inward)]
            }
            #expect(pixel(3, 3) == red, "zoom \(viewportZoom), corner \(corner): inside")
            #expect(
                pixel(-3, -3) == white && pixel(3, -3) == white && pixel(-3, 3) == white,
                "zoom \(viewportZoom), corner \(corner): outside")
            #expect(pixel(20, 20) == red && pixel(-20, -20) == white, "zoom \(viewportZoom), corner \(corner)")
        }
    }

    @Test func belowTheTilesetsShallowestZoomNothingIsDrawn() throws {
        // As MapLibre reads no tiles of a source below its minzoom.
        let (z, x, y) = Self.helsinkiTile
        let url = try tileset([try TileID(z: z, x: x, y: y): squareTile(from: 0, to: 4096)], minZoom: 14, maxZoom: 14)
        let center = try coordinate(z: z, x: x, y: y, u: 0.5, v: 0.5)
        let image = try render(try style(url), center: center, zoom: 13.5, size: 64)
        #expect(image[x: 32, y: 32] == RGBAPixel(red: 255, green: 255, blue: 255))
        let source = try VectorTileSource(location: .file(url))
        #expect(source.tileZoom(forViewportZoom: 14.9) == nil)
        #expect(source.tileZoom(forViewportZoom: 15) == 14)
        #expect(source.tileZoom(forViewportZoom: 21.5) == 14, "overzoom reads the deepest tiles")
    }

    @Test func translucentShapesAcrossTwoTilesAreDrawnOnceInTheirSharedBuffer() throws {
        // Two neighbouring tiles each carry the whole square and line with a 256-unit buffer past
        // their common edge, as encoders write them. Drawn at half opacity, a pixel drawn twice
        // would be darker than one drawn once.
        let (z, x, y) = Self.helsinkiTile
        func tile(westOfEdge: Bool) -> Data {
            // The square spans x 2048 of the west tile to 2048 of the east one.
            let lo: Int32 = westOfEdge ? 2048 : -2048
            let hi: Int32 = westOfEdge ? 4096 + 256 : 2048
            var square = GeometryWriter()
            square.ring([(max(lo, -256), 1024), (min(hi, 4352), 1024), (min(hi, 4352), 2048), (max(lo, -256), 2048)])
            var line = GeometryWriter()
            line.moveTo((westOfEdge ? 1024 : -256, 3072))
            line.lineTo((westOfEdge ? 4352 : 3072, 3072))
            return TestTile.layer(
                [
                    TestTile.Feature(type: 3, geometry: square.numbers),
                    TestTile.Feature(type: 2, geometry: line.numbers),
                ],
                TestTile.Layer(name: "shapes")
            ).data
        }
        let url = try tileset(
            [
                try TileID(z: z, x: x, y: y): tile(westOfEdge: true),
                try TileID(z: z, x: x + 1, y: y): tile(westOfEdge: false),
            ],
            minZoom: 14, maxZoom: 14)
        let center = try coordinate(z: z, x: x + 1, y: y, u: 0, v: 0.5)
        let image = try render(try style(url, opacity: 0.5), center: center, zoom: 15.3, size: 400)
        // Rows through the square (v 0.25 to 0.5 of the tile) and through the line (v 0.75); a
        // zoom-14 tile is 256 × 2^1.3 points wide at viewport zoom 15.3.
        let tilePoints = 256 * exp2(15.3 - 14)
        let squareRow = Int(200 - 0.125 * tilePoints)
        let lineRow = Int(200 + 0.25 * tilePoints)
        let pink = image[x: 200, y: squareRow]
        #expect(abs(Int(pink.green) - 128) <= 1 && pink.red == 255, "half-opaque red on white: \(pink)")
        let blue = image[x: 200, y: lineRow]
        #expect(abs(Int(blue.red) - 128) <= 1 && blue.blue == 255, "half-opaque blue on white: \(blue)")
        let span = 190
        for column in (200 - span)...(200 + span) {
            #expect(
                image[x: column, y: squareRow] == pink, "column \(column) of the square, across the tiles' edge at 200")
            #expect(image[x: column, y: lineRow] == blue, "column \(column) of the line, across the tiles' edge at 200")
        }
    }

    // MARK: - The Helsinki sample

    private var helsinki: URL { RepositoryFiles.root.appendingPathComponent("Samples/helsinki/helsinki.mbtiles") }

    private func streets(_ name: String = "streets") throws -> Style {
        try Style.named(name, in: RepositoryFiles.styles).style.configuringVectorSources(helsinki)
    }

    @Test func streetTilesFromSeparateMetatilesEqualOneRenderOfTheArea() throws {
        // Zoom 16 tiles 37307-37308 × 18967-18968 straddle both edges between the sample's
        // zoom-14 tiles (x 9327, y 4742, times 4); metatiles of one tile make every edge a cut.
        let renderer = try MapTileRenderer(
            data: MapData(basemapDirectory: RepositoryFiles.basemap), style: try streets(),
            options: TileRenderOptions(metatileSize: 1, layers: .basemap))
        let columns = 37307...37308
        let rows = 18967...18968
        let wanted = try rows.flatMap { row in try columns.map { try TileID(z: 16, x: $0, y: row) } }
        let tiles = try wanted.flatMap { try renderer.renderMetatile(renderer.metatile(containing: $0), only: [$0]) }
        let stitched = TileFixtures.stitch(tiles, columns: columns, rows: rows)
        let whole = try renderer.image(zoom: 16, columns: columns, rows: rows)
        try TileFixtures.expectSameRender(whole, stitched, "stitched street tiles against one render")
        // The area does have streets, named along them.
        let placement = try renderer.placement(
            forTileZoom: 16, meeting: ViewRect(x: 37307 * 256, y: 18967 * 256, width: 2 * 256, height: 2 * 256))
        #expect(placement.labels.contains { $0.angle != 0 }, "street names along streets")
    }

    @Test func streetNamesAreNeverUpsideDown() throws {
        let renderer = try MapTileRenderer(
            data: MapData(basemapDirectory: RepositoryFiles.basemap), style: try streets(),
            options: TileRenderOptions(layers: .basemap))
        for zoom in [15, 17] {
            // The sample's zoom-14 tiles round x 9327, y 4742, at this zoom.
            let side = 256 * exp2(Double(zoom - 14))
            let sample = ViewRect(x: 9326 * side, y: 4741 * side, width: 3 * side, height: 3 * side)
            let turned = try renderer.placement(forTileZoom: zoom, meeting: sample).labels.filter { $0.angle != 0 }
            #expect(turned.count >= 5, "zoom \(zoom): \(turned.count) street names")
            for label in turned {
                #expect(label.angle > -.pi / 2 && label.angle <= .pi / 2, "'\(label.text)' at \(label.angle) radians")
            }
        }
    }

    @Test func theSampleAsPMTilesDrawsTheSameStreets() throws {
        // The same tiles in a PMTiles archive (converted by Tilesets, read back through it).
        let archive = directory.url.appendingPathComponent("helsinki.pmtiles")
        let count = try TilesetConversion.convert(try TileSourceLocation.file(helsinki).open(), to: archive)
        #expect(count == 19)
        let streets = try Style.named("streets", in: RepositoryFiles.styles).style
        let center = try coordinate(z: 14, x: 9327, y: 4742, u: 0.1, v: 0.1)
        let fromMBTiles = try render(
            try streets.configuringVectorSources(helsinki), center: center, zoom: 16.5, size: 300)
        let fromPMTiles = try render(
            try streets.configuringVectorSources(archive), center: center, zoom: 16.5, size: 300)
        #expect(fromMBTiles.pixels == fromPMTiles.pixels)
        #expect(
            Set(stride(from: 0, to: fromPMTiles.pixels.count, by: 4 * 13).map { fromPMTiles.pixels[$0] }).count > 10,
            "streets drawn")
    }

    /// A tile whose bytes cannot be decoded is drawn as absent, never a failed map: the render
    /// draws its neighbour, and one warning line names the file, the count and the tile.
    @Test func aDamagedTileIsSkippedAndCountedInOneWarningNamingTheFileAndTheTile() throws {
        let damaged = try TileID(z: 14, x: 9327, y: 4742)
        let whole = try TileID(z: 14, x: 9328, y: 4742)
        let url = try tileset(
            [damaged: Data([0x1A, 0x7F, 0x01]), whole: squareTile(from: 0, to: 4096)], minZoom: 14, maxZoom: 14,
            name: "damaged.mbtiles")
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        // On the two tiles' common edge: the damaged tile west, the whole one east.
        let center = try coordinate(z: 14, x: 9328, y: 4742, u: 0, v: 0.5)
        let viewport = try Viewport(
            centerMapPoint: MapPoint(center), zoomLevel: 15.5, size: ViewSize(width: 64, height: 64))
        let image = try MapSnapshotter(data: data).snapshot(
            MapSnapshotOptions(viewport: viewport, style: try style(url), showsAttribution: false)
        ).image
        #expect(image[x: 8, y: 32] == RGBAPixel(red: 255, green: 255, blue: 255), "the damaged tile draws nothing")
        #expect(image[x: 56, y: 32] == RGBAPixel(red: 255, green: 0, blue: 0), "its neighbour draws")
        let warnings = data.skippedDataWarnings()
        #expect(warnings.count == 1)
        let warning = warnings.first ?? ""
        #expect(
            warning.contains("damaged.mbtiles: 1 unreadable tile is not drawn") && warning.contains("14/9327/4742"),
            "\(warning)")
    }

    /// One broken feature among good ones costs that feature only; a building whose first ring
    /// winds as a hole (a tilemaker file's) is drawn as MapLibre draws it, its hole open.
    @Test func aBrokenFeatureIsSkippedAndAFirstRingWindingAsAHoleIsDrawn() throws {
        var building = GeometryWriter()
        building.ring([(0, 0), (0, 4096), (4096, 4096), (4096, 0)])  // winds as a hole in version 2
        building.ring([(1536, 1536), (2560, 1536), (2560, 2560), (1536, 2560)])
        let broken = [GeometryWriter.command(1, count: 1), 2]  // a MoveTo missing its y
        let features = [
            TestTile.Feature(type: 3, geometry: building.numbers), TestTile.Feature(type: 3, geometry: broken),
        ]
        let tile = try TileID(z: 14, x: 9327, y: 4742)
        let url = try tileset(
            [tile: TestTile.layer(features, TestTile.Layer(name: "shapes")).data], minZoom: 14, maxZoom: 14,
            name: "odd.mbtiles")
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        let center = try coordinate(z: 14, x: 9327, y: 4742, u: 0.5, v: 0.5)
        let viewport = try Viewport(
            centerMapPoint: MapPoint(center), zoomLevel: 15, size: ViewSize(width: 256, height: 256))
        let image = try MapSnapshotter(data: data).snapshot(
            MapSnapshotOptions(viewport: viewport, style: try style(url), showsAttribution: false)
        ).image
        #expect(image[x: 128, y: 128] == RGBAPixel(red: 255, green: 255, blue: 255), "the hole is open")
        #expect(image[x: 20, y: 20] == RGBAPixel(red: 255, green: 0, blue: 0), "the building is filled")
        let warning = data.skippedDataWarnings().first ?? ""
        #expect(
            warning.contains("odd.mbtiles: 1 broken feature is not drawn") && warning.contains("feature 1"),
            "\(warning)")
    }
}
