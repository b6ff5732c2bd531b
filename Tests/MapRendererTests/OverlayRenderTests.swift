import Foundation
import ImageCodec
import MapComposer
import MapCore
import MapRenderer
import MapStyle
import MapTestSupport
import Testing

struct OverlayRenderTests {
    private func render(
        _ overlays: [MapOverlay], center: Coordinate, zoom: Double, size: ViewSize = ViewSize(width: 240, height: 160)
    ) throws -> MapSnapshot {
        let viewport = try Viewport(center: center, zoomLevel: zoom, size: size)
        let options = MapSnapshotOptions(
            viewport: viewport, style: try RenderFixtures.plainStyle(), overlays: overlays, showsAttribution: false)
        return try RenderFixtures.snapshotter.snapshot(options)
    }

    @Test func gpxTrackIsDrawnAsAPolyline() throws {
        let style = try RenderFixtures.style("standard")
        let contents = try OverlayFile.read(
            RenderFixtures.samples.appendingPathComponent("track.gpx"), look: style.mapwright.overlay)
        #expect(contents.overlays.count == 1)
        let viewport = try Viewport(
            showing: contents.overlays.flatMap { overlay -> [Coordinate] in
                if case .polyline(let points) = overlay.shape { return points }
                return []
            },
            edgePadding: EdgeInsets(all: 10), size: ViewSize(width: 320, height: 200))
        let options = MapSnapshotOptions(
            viewport: viewport, style: try RenderFixtures.plainStyle(), overlays: contents.overlays,
            showsAttribution: false)
        assertRenderMatches(try RenderFixtures.snapshotter.snapshot(options).image, named: "gpx-track")
    }

    @Test func polygonWithAHoleLeavesTheHoleUnfilled() throws {
        let c = RenderFixtures.coordinate
        let polygon = MapOverlay(
            shape: .polygon(
                exterior: [try c(0.1, -0.1), try c(0.1, 0.1), try c(-0.1, 0.1), try c(-0.1, -0.1)],
                holes: [[try c(0.04, -0.04), try c(0.04, 0.04), try c(-0.04, 0.04), try c(-0.04, -0.04)]]),
            strokeColor: try Color(css: "#1c5fa8"), lineWidthPoints: 2,
            fillColor: try Color(css: "rgba(28, 95, 168, 0.35)"))
        let snapshot = try render([polygon], center: try c(0, 0), zoom: 10)
        assertRenderMatches(snapshot.image, named: "polygon-hole")
        // The centre is in the hole: background shows through.
        #expect(snapshot.image[x: 120, y: 80] == RGBAPixel(red: 0xf4, green: 0xf1, blue: 0xea, alpha: 255))
    }

    @Test func geodesicCircleAndGreatCircleLine() throws {
        let c = RenderFixtures.coordinate
        let circle = MapOverlay(
            shape: .circle(center: try c(60, 10), radiusMeters: 300_000),
            strokeColor: try Color(css: "#d0021b"), lineWidthPoints: 2,
            fillColor: try Color(css: "rgba(208, 2, 27, 0.2)"))
        let arc = MapOverlay(
            shape: .geodesicPolyline([try c(48.85, 2.35), try c(59.33, 18.07)]),
            strokeColor: try Color(css: "#007aff"), lineWidthPoints: 2, lineDashPattern: [6, 4])
        let snapshot = try render(
            [circle, arc], center: try c(57, 10), zoom: 4, size: ViewSize(width: 320, height: 240))
        assertRenderMatches(snapshot.image, named: "geodesic-circle")
        // Web Mercator is conformal, so the circle looks round, and its radius in points is 300 km
        // at the map's scale for 60° N: 2^(4 − 20) × map points per meter.
        let north = try #require(snapshot.point(for: try c(60, 10).coordinate(at: 300_000, facing: 0)))
        let east = try #require(snapshot.point(for: try c(60, 10).coordinate(at: 300_000, facing: 90)))
        let centre = try #require(snapshot.point(for: try c(60, 10)))
        let expected = 300_000 * WebMercator.mapPointsPerMeter(atLatitude: 60) * exp2(4.0 - 20)
        #expect(abs((east.x - centre.x) / expected - 1) < 0.02)
        #expect(abs((centre.y - north.y) / (east.x - centre.x) - 1) < 0.1)
    }

    /// A trip as GPS maps show one: the track as a line, the waypoints as markers in the
    /// overlay's colour with their names beside them (a waypoint without a name is a marker
    /// alone), and a file of waypoints alone drawn rather than refused as "has no track points".
    @Test func gpxWaypointsAreNamedMarkers() throws {
        let directory = try TemporaryDirectory()
        let trip = try directory.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="60.16752" lon="24.95207"><name>Kauppatori</name><desc>Market square</desc></wpt>
              <wpt lat="60.17032" lon="24.95236"><name>Tuomiokirkko</name></wpt>
              <wpt lat="60.16890" lon="24.94140"><name>Rautatieasema</name></wpt>
              <wpt lat="60.16580" lon="24.94400"/>
              <trk><name>Walk</name><trkseg>
                <trkpt lat="60.16890" lon="24.94140"/><trkpt lat="60.16980" lon="24.94600"/>
                <trkpt lat="60.17032" lon="24.95236"/><trkpt lat="60.16752" lon="24.95207"/>
              </trkseg></trk>
            </gpx>
            """, to: "trip.gpx")
        let style = try RenderFixtures.style("standard")
        let contents = try OverlayFile.read(URL(fileURLWithPath: trip), look: style.mapwright.overlay)
        #expect(contents.skippedPoints == 0)
        let names = contents.overlays.compactMap { overlay -> String? in
            if case .waypoint(_, let name) = overlay.shape { return name ?? "(none)" }
            return nil
        }
        #expect(names == ["Kauppatori", "Tuomiokirkko", "Rautatieasema", "(none)"])
        #expect(contents.overlays.count == 5)
        let c = RenderFixtures.coordinate
        let snapshot = try render(
            contents.overlays, center: try c(60.1683, 24.9480), zoom: 14.5, size: ViewSize(width: 360, height: 200))
        assertRenderMatches(snapshot.image, named: "gpx-waypoints")
        // Each marker is filled in the overlay's colour at its waypoint.
        let market = try #require(snapshot.point(for: try c(60.16752, 24.95207)))
        let pixel = snapshot.image[x: Int(market.x.rounded(.down)), y: Int(market.y.rounded(.down))]
        let line = style.mapwright.overlay.lineColor
        #expect(
            abs(Double(pixel.red) - line.red * 255) < 40 && abs(Double(pixel.blue) - line.blue * 255) < 40,
            "\(pixel) against \(line)")

        let waypointsOnly = try directory.write(
            """
            <gpx version="1.1" creator="test"><wpt lat="60.1675" lon="24.9520"><name>Kauppatori</name></wpt></gpx>
            """, to: "places.gpx")
        #expect(
            try OverlayFile.read(URL(fileURLWithPath: waypointsOnly), look: style.mapwright.overlay).overlays.count == 1
        )
    }
}
