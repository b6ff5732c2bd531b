import Foundation
import ImageCodec
import MapCore
import MapStyle
import MapTestSupport
import Testing

@testable import MapComposer
@testable import MapRenderer

/// Pitched and rotated renders: the ground in perspective where the viewport's conversions put
/// it, upright pins on their coordinates, the sky above the horizon, goldens at pitch 0, 30 and 60.
struct PerspectiveRenderTests {
    private static let helsinki = RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles")
    /// Central Helsinki: the railway station, Kluuvi and the Esplanadi.
    private static let helsinkiCenter = try! Coordinate(latitude: 60.1705, longitude: 24.9440)

    private func pin(_ id: String, _ latitude: Double, _ longitude: Double, _ color: String, title: String = "") throws
        -> MapAnnotation
    {
        MapAnnotation(
            id: id, coordinate: try RenderFixtures.coordinate(latitude, longitude), title: title,
            marker: .pin(try Color(css: color)))
    }

    // MARK: - Goldens

    /// The streets style over the Helsinki sample, turned 45 degrees, flat and tilted, with three
    /// pins (Helsinki Cathedral, the railway station, the Market Square) and the cathedral's callout.
    @Test(arguments: [0.0, 30, 60])
    func streetsTurnedAndTilted(pitch: Double) throws {
        let style = try Style.named("streets", in: RepositoryFiles.styles).style.configuringVectorSources(Self.helsinki)
        let viewport = try Viewport(
            center: Self.helsinkiCenter, zoomLevel: 16, size: ViewSize(width: 600, height: 400), headingDegrees: 45,
            pitchDegrees: pitch)
        let annotations = [
            try pin("cathedral", 60.17044, 24.95212, "red", title: "Helsinki Cathedral"),
            try pin("station", 60.17146, 24.94141, "#007aff", title: "Railway station"),
            try pin("market", 60.16752, 24.95260, "green", title: "Market Square"),
        ]
        let options = MapSnapshotOptions(
            viewport: viewport, style: style, annotations: annotations, selectedAnnotationID: "cathedral")
        let image = try RenderFixtures.snapshotter.snapshot(options).image
        assertRenderMatches(image, named: "helsinki-heading45-pitch\(Int(pitch))")
    }

    /// Europe from low over the Sahara at pitch 78: the horizon, the sky's gradient above it and
    /// the fog before it.
    @Test func horizonOverEurope() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(40, 8), zoomLevel: 4, size: ViewSize(width: 600, height: 400),
            headingDegrees: 10, pitchDegrees: 78)
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: RenderFixtures.style("standard"))
        ).image
        assertRenderMatches(image, named: "europe-horizon-pitch78")
    }

    // MARK: - Where things land

    /// Each pin's needle ends within one pixel of `Viewport.point(for:)` under heading and pitch,
    /// near and far, found from the pixels (the needle's axis and its lowest dark row).
    @Test func pinTipsLandOnTheirCoordinatesUnderPitchAndHeading() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(48.8566, 2.3522), zoomLevel: 14, size: ViewSize(width: 480, height: 360),
            scale: 2,
            headingDegrees: 30, pitchDegrees: 55)
        // Spread over the view, near (bottom) and far (top); well apart so needles never meet.
        try expectPinTips(
            viewport: viewport,
            places: [(48.8566, 2.3522), (48.8640, 2.3620), (48.8500, 2.3400), (48.8700, 2.3420), (48.8480, 2.3650)])
    }

    /// At pitch 75 a pin near the camera is drawn at the largest marker scale (1.4): its needle
    /// still ends on its coordinate, as do the small far ones.
    @Test func pinTipsLandOnTheirCoordinatesAtTheLargestMarkerScale() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(30, -40), zoomLevel: 5, size: ViewSize(width: 400, height: 300), scale: 2,
            headingDegrees: 200, pitchDegrees: 75)
        let near = try RenderFixtures.coordinate(38.2486873, -36.3672552)
        #expect(AnnotationLayout.markerScale(at: try #require(viewport.point(for: near)), in: viewport) >= 1.39)
        try expectPinTips(viewport: viewport, places: [(38.2486873, -36.3672552), (30, -40), (25, -44)])
    }

    /// Renders pins at `places` on white and checks each needle against `point(for:)`: its axis
    /// within a pixel sideways, its lowest dark row within a pixel of the tip.
    private func expectPinTips(viewport: Viewport, places: [(Double, Double)]) throws {
        let scale = viewport.scale
        let annotations = try places.enumerated().map {
            try pin("p\($0.offset)", $0.element.0, $0.element.1, "#ff2d55")
        }
        let options = MapSnapshotOptions(
            viewport: viewport, style: try RenderFixtures.plainStyle("#ffffff"), annotations: annotations,
            showsAttribution: false)
        let image = try RenderFixtures.snapshotter.snapshot(options).image
        for annotation in annotations {
            let tip = try #require(viewport.point(for: annotation.coordinate))
            let tipX = tip.x * scale
            let tipY = tip.y * scale
            #expect(
                tipY > 20 && tipY < Double(image.height) - 4 && tipX > 10 && tipX < Double(image.width) - 10,
                "pin off the image")
            // The needle (steel grey, 0.35 at the tip) is darker than its shadow and the background.
            func isNeedle(_ x: Int, _ y: Int) -> Bool {
                guard x >= 0, y >= 0, x < image.width, y < image.height else { return false }
                let pixel = image[x: x, y: y]
                return pixel.red < 160 && pixel.green < 160 && pixel.blue < 170
            }
            // Its axis: the centroid of needle pixels 3 to 10 points above the tip, within 3 points sideways.
            var sum = 0.0
            var count = 0.0
            for y in Int(tipY - 10 * scale)...Int(tipY - 3 * scale) {
                for x in Int(tipX - 3 * scale)...Int(tipX + 3 * scale) where isNeedle(x, y) {
                    sum += Double(x) + 0.5
                    count += 1
                }
            }
            #expect(count > 0, "no needle found above \(annotation.id)'s tip")
            #expect(
                abs(sum / max(count, 1) - tipX) <= 1,
                "\(annotation.id): needle axis at x \(sum / max(count, 1)), point(for:) at \(tipX)")
            // Its end: the lowest needle row near the axis. The round cap reaches a quarter point past
            // the tip (times the marker's scale); the row's centre is within a pixel of the tip.
            var lowest = -1
            for y in Int(tipY - 6 * scale)...Int(tipY + 3 * scale) {
                for x in Int(tipX - 1.5)...Int(tipX + 1.5) where isNeedle(x, y) { lowest = max(lowest, y) }
            }
            #expect(lowest >= 0, "no needle end found for \(annotation.id)")
            #expect(
                abs(Double(lowest) + 0.5 - tipY) <= 1,
                "\(annotation.id): needle ends on row \(lowest), point(for:) at \(tipY)")
        }
    }

    /// The ground lies where the viewport's conversions say: small filled circles on the ground
    /// (drawn into the flat levels and warped) are centred within a pixel of `point(for:)`,
    /// across the view and at both ends of the depth.
    @Test func groundDrawnWhereTheViewportPutsIt() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(-33.9, 18.4), zoomLevel: 15, size: ViewSize(width: 500, height: 400),
            headingDegrees: 300, pitchDegrees: 60)
        // Places from near the bottom corners to the far top, each a disc 3 points across where it
        // lands (6 m at the centre, larger where the ground shrinks, so far discs stay visible).
        let points: [ViewPoint] = [(60, 370), (440, 360), (250, 200), (120, 90), (380, 40), (250, 15)].map {
            ViewPoint(x: $0.0, y: $0.1)
        }
        let coordinates = try points.map { try #require(viewport.coordinate(for: $0)) }
        let overlays = try zip(points, coordinates).map { point, coordinate in
            let shrink = try #require(viewport.perspectiveScale(atViewY: point.y))
            return MapOverlay(
                shape: .circle(center: coordinate, radiusMeters: 6 / shrink), strokeColor: nil, lineWidthPoints: 0,
                fillColor: Color(red: 0, green: 0, blue: 1))
        }
        let options = MapSnapshotOptions(
            viewport: viewport, style: try RenderFixtures.plainStyle("#ffffff"), overlays: overlays,
            showsAttribution: false)
        let image = try RenderFixtures.snapshotter.snapshot(options).image
        for (point, coordinate) in zip(points, coordinates) {
            let expected = try #require(viewport.point(for: coordinate))
            // The disc's centroid, weighted by how blue each pixel is.
            var sumX = 0.0
            var sumY = 0.0
            var weight = 0.0
            for y in max(0, Int(expected.y) - 12)...min(image.height - 1, Int(expected.y) + 12) {
                for x in max(0, Int(expected.x) - 12)...min(image.width - 1, Int(expected.x) + 12) {
                    let pixel = image[x: x, y: y]
                    let blueness = Double(255 - Int(pixel.red)) / 255
                    guard blueness > 0.02 else { continue }
                    sumX += (Double(x) + 0.5) * blueness
                    sumY += (Double(y) + 0.5) * blueness
                    weight += blueness
                }
            }
            #expect(weight > 0.5, "no disc drawn at \(point)")
            let found = ViewPoint(x: sumX / max(weight, 1e-9), y: sumY / max(weight, 1e-9))
            #expect(
                abs(found.x - expected.x) <= 1 && abs(found.y - expected.y) <= 1,
                "disc for \(point) centred at \(found), expected \(expected)")
        }
    }

    /// Markers are scaled by MapLibre's perspective ratio for symbols, 0.5 + 0.5 × the camera's
    /// distance to the centre over its distance to the anchor (measured along the line of
    /// sight), computed here from the camera's geometry.
    @Test func nearMarkersAreLargerThanFarOnes() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(0, 0), zoomLevel: 12, size: ViewSize(width: 400, height: 400),
            pitchDegrees: 50)
        let nearPoint = ViewPoint(x: 200, y: 380)
        let farPoint = ViewPoint(x: 200, y: 60)
        let annotations = [
            MapAnnotation(
                id: "near", coordinate: try #require(viewport.coordinate(for: nearPoint)), title: "",
                marker: .pin(.black)),
            MapAnnotation(
                id: "far", coordinate: try #require(viewport.coordinate(for: farPoint)), title: "", marker: .pin(.black)
            ),
        ]
        let layout = RenderFixtures.snapshotter.layout(
            MapSnapshotOptions(
                viewport: viewport, style: try RenderFixtures.plainStyle(), annotations: annotations,
                showsAttribution: false))
        #expect(layout.markerFrames.count == 2)
        // Far first: markers are drawn far to near.
        let far = try #require(layout.markerFrames.first)
        let near = try #require(layout.markerFrames.last)
        #expect(far.maxY < near.maxY)
        // The eye is 1.5 view heights from the centre, along a line of sight tilted 50 degrees; a
        // ground point v points toward the bottom lies at depth D − v·sin(pitch) along it.
        let distance = 1.5 * 400.0
        let pitch = 50.0 * .pi / 180
        func ratio(_ point: ViewPoint) throws -> Double {
            let v = try #require(viewport.groundPoint(for: point)).v
            return 0.5 + 0.5 * distance / (distance - v * sin(pitch))
        }
        let unscaledHeight = AnnotationFrames.pinHeight
        #expect(abs(near.size.height - unscaledHeight * min(1.4, try ratio(nearPoint))) < 1e-6)
        #expect(abs(far.size.height - unscaledHeight * max(0.6, try ratio(farPoint))) < 1e-6)
    }

    // MARK: - The sky

    /// Above the horizon: MapLibre's default sky blue at the top, fading to the pale horizon
    /// colour at the visible-ground limit; the ground below it.
    @Test func skyAboveTheHorizon() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(45, 10), zoomLevel: 3, size: ViewSize(width: 300, height: 200),
            pitchDegrees: 80)
        let limit = viewport.visibleGroundTopViewY
        #expect(limit > 40 && limit < 160, "the horizon should show in the view, at \(limit)")
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: RenderFixtures.style("standard"), showsAttribution: false)
        ).image
        func close(_ pixel: RGBAPixel, _ hex: UInt32, within tolerance: Int = 3) -> Bool {
            abs(Int(pixel.red) - Int(hex >> 16)) <= tolerance
                && abs(Int(pixel.green) - Int((hex >> 8) & 0xFF)) <= tolerance
                && abs(Int(pixel.blue) - Int(hex & 0xFF)) <= tolerance
        }
        #expect(close(image[x: 150, y: 0], 0x88C6FC, within: 12), "the top of the sky: \(image[x: 150, y: 0])")
        #expect(
            close(image[x: 150, y: Int(limit) - 1], 0xEAF2F8, within: 6),
            "at the horizon: \(image[x: 150, y: Int(limit) - 1])")
        // Lighter toward the horizon, row by row, across the whole width.
        for y in 1..<Int(limit) {
            #expect(image[x: 10, y: y].red >= image[x: 10, y: y - 1].red)
            #expect(image[x: 290, y: y] == image[x: 10, y: y], "the sky is level")
        }
        // Below the fog the ground shows: no pixel there is sky blue.
        let groundRow = Int(limit) + 30
        #expect((0..<300).allSatisfy { !close(image[x: $0, y: groundRow], 0x88C6FC, within: 20) })
    }

    @Test func styleSkyColoursAndNightSkyOverDarkStyles() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(45, 10), zoomLevel: 3, size: ViewSize(width: 200, height: 160),
            pitchDegrees: 80)
        let json = """
            {"version": 8, "sources": {}, "sky": {"sky-color": "#ff0000", "horizon-color": "#00ff00", "sky-horizon-blend": 1},
             "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}}]}
            """
        let styled = try Style.parse(Data(json.utf8), file: "sky.json").style
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: styled, showsAttribution: false)
        ).image
        #expect(image[x: 100, y: 0].red > 240 && image[x: 100, y: 0].green < 15, "\(image[x: 100, y: 0])")
        let horizonRow = Int(viewport.visibleGroundTopViewY) - 1
        #expect(
            image[x: 100, y: horizonRow].green > 235 && image[x: 100, y: horizonRow].red < 20,
            "\(image[x: 100, y: horizonRow])")

        let dark = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: RenderFixtures.style("dark"), showsAttribution: false)
        ).image
        let top = dark[x: 100, y: 0]
        #expect(Int(top.red) + Int(top.green) + Int(top.blue) < 3 * 48, "a dark style's sky is a night sky: \(top)")
    }

    @Test func aModeratePitchShowsNoSky() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(48.85, 2.35), zoomLevel: 10, size: ViewSize(width: 300, height: 200),
            pitchDegrees: 45)
        #expect(viewport.visibleGroundTopViewY < 0)
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(
                viewport: viewport, style: try RenderFixtures.plainStyle("#f4f1ea"), showsAttribution: false)
        ).image
        #expect((0..<300).allSatisfy { image[x: $0, y: 0] == RGBAPixel(red: 0xF4, green: 0xF1, blue: 0xEA) })
    }

    // MARK: - Output

    @Test func pitchedRendersAreDeterministic() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(46, 8), zoomLevel: 6, size: ViewSize(width: 400, height: 300),
            headingDegrees: 20, pitchDegrees: 65)
        let options = MapSnapshotOptions(viewport: viewport, style: try RenderFixtures.style("standard"))
        let first = try RenderFixtures.snapshotter.snapshot(options).pngData()
        let second = try RenderFixtures.snapshotter.snapshot(options).pngData()
        #expect(first == second)
    }

    @Test func pitchedPDFEmbedsTheGroundAsAnImage() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("pitched map.pdf")
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(46, 8), zoomLevel: 5, size: ViewSize(width: 300, height: 200),
            pitchDegrees: 60)
        try RenderFixtures.snapshotter.write(
            MapSnapshotOptions(viewport: viewport, style: try RenderFixtures.style("standard")), to: url)
        let bytes = try Data(contentsOf: url)
        #expect(bytes.starts(with: Data("%PDF".utf8)))
        #expect(bytes.range(of: Data("/Subtype /Image".utf8)) != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["pitched map.pdf"])
    }
}

/// Marker sizes the layout reports, from the public `frameAroundAnchor`.
private enum AnnotationFrames {
    static let pinHeight = MapAnnotation.Marker.pin(.black).frameAroundAnchor.size.height
}
