import Foundation
import ImageCodec
import MapComposer
import MapCore
import MapData
import MapRenderer
import MapStyle
import MapTestSupport
import Testing

struct BasemapRenderTests {
    private func snapshot(style: String, center: Coordinate, zoom: Double, size: ViewSize, scale: Double = 1) throws
        -> MapSnapshot
    {
        let viewport = try Viewport(center: center, zoomLevel: zoom, size: size, scale: scale)
        return try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: try RenderFixtures.style(style)))
    }

    @Test func worldAtZoomOne() throws {
        let image = try snapshot(
            style: "standard", center: RenderFixtures.coordinate(20, 0), zoom: 1,
            size: ViewSize(width: 512, height: 400)
        ).image
        assertRenderMatches(image, named: "world-z1")
    }

    @Test func cityLevelRegion() throws {
        let region = CoordinateRegion(
            center: try RenderFixtures.coordinate(48.8566, 2.3522),
            span: try CoordinateSpan(latitudeDelta: 2.5, longitudeDelta: 4))
        let viewport = try Viewport(region: region, size: ViewSize(width: 400, height: 300))
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: try RenderFixtures.style("standard"))
        ).image
        assertRenderMatches(image, named: "paris-region")
    }

    @Test(arguments: ["standard", "muted", "dark"])
    func eachStyleOverEurope(style: String) throws {
        let image = try snapshot(
            style: style, center: RenderFixtures.coordinate(50, 10), zoom: 3.5, size: ViewSize(width: 400, height: 300)
        ).image
        assertRenderMatches(image, named: "europe-\(style)")
    }

    @Test func crispAtTwiceTheScale() throws {
        let image = try snapshot(
            style: "standard", center: RenderFixtures.coordinate(38, 23.7), zoom: 5,
            size: ViewSize(width: 300, height: 200), scale: 2
        ).image
        #expect(image.width == 600 && image.height == 400)
        assertRenderMatches(image, named: "greece-z5@2x")
    }

    @Test(arguments: ["satellite", "hybrid"])
    func rasterStylesSayTheyNeedARasterSource(style: String) throws {
        do {
            _ = try snapshot(
                style: style, center: RenderFixtures.coordinate(0, 0), zoom: 2, size: ViewSize(width: 64, height: 64))
            Issue.record("expected \(style) to need a raster source")
        } catch {
            #expect(String(describing: error).contains("needs a raster source"), "\(error)")
        }
    }

    @Test func sameInputsGiveIdenticalBytes() throws {
        let first = try snapshot(
            style: "standard", center: RenderFixtures.coordinate(35, 139), zoom: 4,
            size: ViewSize(width: 200, height: 150))
        let second = try snapshot(
            style: "standard", center: RenderFixtures.coordinate(35, 139), zoom: 4,
            size: ViewSize(width: 200, height: 150))
        #expect(try first.image.pngData() == second.image.pngData())
    }

    @Test func fittingPinsAcrossTheAntimeridianShowsBothSides() throws {
        let style = try RenderFixtures.style("standard")
        let coordinates = [
            try RenderFixtures.coordinate(-17.7, 178.1), try RenderFixtures.coordinate(-14.3, -170.7),
            try RenderFixtures.coordinate(-21.1, -175.2),
        ]
        let viewport = try Viewport(
            showing: coordinates, edgePadding: EdgeInsets(top: 44, left: 24, bottom: 12, right: 24),
            size: ViewSize(width: 400, height: 260))
        #expect(viewport.visibleRegion.crossesAntimeridian)
        let annotations = coordinates.enumerated().map { index, coordinate in
            MapAnnotation(
                id: "\(index)", coordinate: coordinate, title: "",
                marker: .pin(style.mapwright.pins.color(forKey: "\(index)")))
        }
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: style, annotations: annotations)
        ).image
        assertRenderMatches(image, named: "antimeridian-fit")
    }

    @Test func pdfAndSVGOutputsAreWrittenWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-vector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(45, 5), zoomLevel: 4, size: ViewSize(width: 200, height: 150))
        let options = MapSnapshotOptions(viewport: viewport, style: try RenderFixtures.style("standard"))
        for name in ["map.pdf", "map.svg"] {
            let url = directory.appendingPathComponent(name)
            try RenderFixtures.snapshotter.write(options, to: url)
            let head = String(decoding: try Data(contentsOf: url).prefix(200), as: UTF8.self)
            #expect(head.contains(name.hasSuffix("pdf") ? "%PDF" : "<svg"), "\(head)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["map.pdf", "map.svg"])
    }

    @Test func aFailedWriteLeavesNoFile() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(45, 5), zoomLevel: 4, size: ViewSize(width: 50, height: 50))
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/map.png")
        #expect(throws: RendererError.self) {
            try RenderFixtures.snapshotter.write(
                MapSnapshotOptions(viewport: viewport, style: try RenderFixtures.style("standard")), to: missing)
        }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func placesAreFoundByNameInTheBasemap() throws {
        let style = try RenderFixtures.style("standard")
        let france = try #require(try RenderFixtures.data.region(ofPlaceNamed: "france", style: style))
        #expect(france.contains(try RenderFixtures.coordinate(48.8566, 2.3522)))
        #expect(france.span.longitudeDelta < 15)
        let california = try #require(try RenderFixtures.data.region(ofPlaceNamed: "California", style: style))
        #expect(california.contains(try RenderFixtures.coordinate(37.77, -122.42)))
        #expect(try RenderFixtures.data.region(ofPlaceNamed: "Lilliput", style: style) == nil)
    }
}
