import Foundation
import MapTestSupport
import Testing

@testable import MapCore

struct ViewportTests {
    private func coordinate(_ latitude: Double, _ longitude: Double) throws -> Coordinate {
        try Coordinate(latitude: latitude, longitude: longitude)
    }

    private func makeViewport(
        center: Coordinate, zoom: Double, width: Double = 800, height: Double = 600,
        heading: Double = 0, pitch: Double = 0
    ) throws -> Viewport {
        try Viewport(
            center: center, zoomLevel: zoom, size: ViewSize(width: width, height: height),
            headingDegrees: heading, pitchDegrees: pitch
        )
    }

    @Test func coordinatePointCoordinateRoundTripsUnderRandomCameras() throws {
        var random = SeededGenerator(seed: 2026)
        var checked = 0
        for _ in 0..<500 {
            let center = try coordinate(
                Double.random(in: -70...70, using: &random), Double.random(in: -180...180, using: &random))
            let viewport = try makeViewport(
                center: center,
                zoom: Double.random(in: 2...19, using: &random),
                width: Double.random(in: 200...2000, using: &random),
                height: Double.random(in: 200...2000, using: &random),
                heading: Double.random(in: 0..<360, using: &random),
                pitch: Double.random(in: 0...60, using: &random)
            )
            for _ in 0..<20 {
                let point = ViewPoint(
                    x: Double.random(in: 0...viewport.size.width, using: &random),
                    y: Double.random(in: 0...viewport.size.height, using: &random)
                )
                guard let original = viewport.coordinate(for: point) else { continue }
                let projected = try #require(viewport.point(for: original))
                let back = try #require(viewport.coordinate(for: projected))
                #expect(abs(back.latitude - original.latitude) < 1e-9)
                #expect(abs(Coordinate.wrappedLongitude(back.longitude - original.longitude)) < 1e-9)
                // A view wider than the world shows copies of it; point(for:) gives the nearest copy.
                let mapPoint = try #require(viewport.mapPoint(for: point))
                if abs(mapPoint.x - viewport.centerMapPoint.x) < WebMercator.worldSize / 2 {
                    #expect(abs(projected.x - point.x) < 1e-6 && abs(projected.y - point.y) < 1e-6)
                }
                checked += 1
            }
        }
        #expect(checked > 9000)
    }

    @Test func centerCoordinateIsAtTheViewCentre() throws {
        let center = try coordinate(48.8566, 2.3522)
        let viewport = try makeViewport(center: center, zoom: 14, heading: 33, pitch: 45)
        let point = try #require(viewport.point(for: center))
        #expect(abs(point.x - 400) < 1e-9 && abs(point.y - 300) < 1e-9)
    }

    @Test func aViewportCentredOnAMapPointIsAnExactTranslationOfWorldPoints() throws {
        // Two windows of zoom 6 whose corners are whole points apart put every map point whole
        // points apart, to the last bit: what lets tiles rendered separately meet.
        let zoomScale = ZoomLevel.zoomScale(atZoomLevel: 6)
        func window(x: Double, y: Double, width: Double) throws -> Viewport {
            try Viewport(
                centerMapPoint: MapPoint(x: (x + width / 2) / zoomScale, y: (y + width / 2) / zoomScale), zoomLevel: 6,
                size: ViewSize(width: width, height: width), scale: 2)
        }
        let a = try window(x: 7936, y: 5632, width: 768)
        let b = try window(x: 6144, y: 4096, width: 2048)
        var random = SeededGenerator(seed: 6)
        for _ in 0..<1_000 {
            let point = MapPoint(
                x: Double.random(in: 7936...8704, using: &random) / zoomScale,
                y: Double.random(in: 5632...6400, using: &random) / zoomScale)
            let inA = try #require(a.unwrappedPoint(for: point))
            let inB = try #require(b.unwrappedPoint(for: point))
            #expect(inA.x == point.x * zoomScale - 7936 && inA.y == point.y * zoomScale - 5632)
            #expect(inB.x - 1792 == inA.x && inB.y - 1536 == inA.y)
        }
        #expect(a.zoomLevel == 6 && a.scale == 2 && a.camera.headingDegrees == 0 && a.camera.pitchDegrees == 0)
        #expect(
            abs(a.camera.centerCoordinate.longitude - MapPoint(x: 8320 / zoomScale, y: 0).coordinate.longitude) < 1e-9)
        #expect(throws: MapCoreError.self) {
            try Viewport(centerMapPoint: MapPoint(x: 0, y: 0), zoomLevel: 31, size: ViewSize(width: 1, height: 1))
        }
    }

    @Test func northUpViewIsTheScaledMapSpace() throws {
        let center = try coordinate(37.7749, -122.4194)
        let viewport = try makeViewport(center: center, zoom: 12)
        let target = try coordinate(37.8, -122.4)
        let point = try #require(viewport.point(for: target))
        let scale = exp2(12.0 - 20)
        #expect(abs(point.x - (400 + (MapPoint(target).x - MapPoint(center).x) * scale)) < 1e-9)
        #expect(abs(point.y - (300 + (MapPoint(target).y - MapPoint(center).y) * scale)) < 1e-9)
    }

    @Test func headingNinetyPutsEastAtTheTop() throws {
        let center = try coordinate(0, 0)
        let viewport = try makeViewport(center: center, zoom: 10, heading: 90)
        let east = try #require(viewport.point(for: try coordinate(0, 0.1)))
        let north = try #require(viewport.point(for: try coordinate(0.1, 0)))
        #expect(abs(east.x - 400) < 1e-9 && east.y < 300)
        #expect(north.x < 400 && abs(north.y - 300) < 1e-9)
    }

    @Test func pitchForeshortensTheFarSideAndEnlargesTheNearSide() throws {
        let center = try coordinate(45, 7)
        let flat = try makeViewport(center: center, zoom: 12)
        let pitched = try makeViewport(center: center, zoom: 12, pitch: 50)
        let north = try coordinate(45.02, 7)
        let south = try coordinate(44.98, 7)
        let flatNorth = try #require(flat.point(for: north))
        let pitchedNorth = try #require(pitched.point(for: north))
        let flatSouth = try #require(flat.point(for: south))
        let pitchedSouth = try #require(pitched.point(for: south))
        #expect(300 - pitchedNorth.y < 300 - flatNorth.y)
        #expect(pitchedSouth.y - 300 > (flatSouth.y - 300) * cos(50 * .pi / 180))
    }

    @Test func pointsAboveTheHorizonHaveNoCoordinate() throws {
        let viewport = try makeViewport(center: try coordinate(45, 7), zoom: 12, pitch: 80)
        // The top edge looks 80° + 18.4° from the vertical: above the horizon.
        #expect(viewport.coordinate(for: ViewPoint(x: 400, y: 0)) == nil)
        #expect(viewport.coordinate(for: ViewPoint(x: 400, y: 600)) != nil)
    }

    @Test func visibleRegionAtNoRotationIsTheViewsMapRect() throws {
        let viewport = try makeViewport(center: try coordinate(51.5, -0.12), zoom: 10)
        let region = viewport.visibleRegion
        let topLeft = try #require(viewport.coordinate(for: ViewPoint(x: 0, y: 0)))
        let bottomRight = try #require(viewport.coordinate(for: ViewPoint(x: 800, y: 600)))
        #expect(abs(region.north - topLeft.latitude) < 1e-9)
        #expect(abs(region.south - bottomRight.latitude) < 1e-9)
        #expect(abs(region.west - topLeft.longitude) < 1e-9)
        #expect(abs(region.east - bottomRight.longitude) < 1e-9)
    }

    @Test func visibleRegionContainsEveryVisibleCornerUnderRotationAndPitch() throws {
        let viewport = try makeViewport(center: try coordinate(-33.86, 151.2), zoom: 11, heading: 30, pitch: 40)
        let region = viewport.visibleRegion
        for corner in [
            ViewPoint(x: 0, y: 0), ViewPoint(x: 800, y: 0), ViewPoint(x: 0, y: 600), ViewPoint(x: 800, y: 600),
        ] {
            let coordinate = try #require(viewport.coordinate(for: corner))
            #expect(region.contains(coordinate))
        }
    }

    @Test func rectForRegionAndRegionForRectAreInverseWhenNorthUp() throws {
        let viewport = try makeViewport(center: try coordinate(40.7, -74), zoom: 11)
        let region = CoordinateRegion(
            center: try coordinate(40.72, -73.98), span: try CoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.08))
        let rect = try #require(viewport.rect(for: region))
        let back = try #require(viewport.region(for: rect))
        #expect(abs(back.center.latitude - region.center.latitude) < 1e-9)
        #expect(abs(back.center.longitude - region.center.longitude) < 1e-9)
        #expect(abs(back.span.latitudeDelta - region.span.latitudeDelta) < 1e-9)
        #expect(abs(back.span.longitudeDelta - region.span.longitudeDelta) < 1e-9)
    }

    @Test func rectForRegionBoundsItsRotatedOutline() throws {
        let viewport = try makeViewport(center: try coordinate(40.7, -74), zoom: 11, heading: 45)
        let region = CoordinateRegion(
            center: try coordinate(40.7, -74), span: try CoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.05))
        let rect = try #require(viewport.rect(for: region))
        let corner = try #require(viewport.point(for: try coordinate(region.north, region.west)))
        #expect(corner.x >= rect.minX - 1e-9 && corner.x <= rect.maxX + 1e-9)
        #expect(corner.y >= rect.minY - 1e-9 && corner.y <= rect.maxY + 1e-9)
        // Rotated by 45°, the square region's bounds are wider than the region itself.
        let north = try makeViewport(center: try coordinate(40.7, -74), zoom: 11)
        #expect(rect.size.width > (try #require(north.rect(for: region))).size.width * 1.3)
    }

    @Test func regionThatFitsHasTheViewsAspectAndContainsTheRegion() throws {
        let viewport = try makeViewport(center: try coordinate(0, 0), zoom: 3, width: 1200, height: 600)
        let region = CoordinateRegion(
            center: try coordinate(10, 20), span: try CoordinateSpan(latitudeDelta: 10, longitudeDelta: 5))
        let fitted = viewport.regionThatFits(region)
        #expect(abs(fitted.mapRect.width / fitted.mapRect.height - 2) < 1e-9)
        #expect(fitted.north >= region.north - 1e-9 && fitted.south <= region.south + 1e-9)
        #expect(fitted.span.longitudeDelta >= region.span.longitudeDelta)
    }

    @Test func viewportForRegionShowsAllOfIt() throws {
        let region = CoordinateRegion(
            center: try coordinate(60, 10), span: try CoordinateSpan(latitudeDelta: 4, longitudeDelta: 2))
        let viewport = try Viewport(region: region, size: ViewSize(width: 1000, height: 500))
        let visible = viewport.visibleRegion
        #expect(abs(visible.north - region.north) < 1e-9 && abs(visible.south - region.south) < 1e-9)
        #expect(visible.span.longitudeDelta >= region.span.longitudeDelta)
    }

    @Test func showingCoordinatesAcrossTheAntimeridianTakesTheShortWay() throws {
        let coordinates = [try coordinate(-17, 178.5), try coordinate(-18, -179.5), try coordinate(-16.5, 179.9)]
        let padding = EdgeInsets(top: 60, left: 20, bottom: 20, right: 20)
        let viewport = try Viewport(showing: coordinates, edgePadding: padding, size: ViewSize(width: 800, height: 600))
        #expect(viewport.visibleRegion.span.longitudeDelta < 10)
        #expect(viewport.visibleRegion.crossesAntimeridian)
        for coordinate in coordinates {
            let point = try #require(viewport.point(for: coordinate))
            #expect(point.x >= 20 - 1e-6 && point.x <= 780 + 1e-6)
            #expect(point.y >= 60 - 1e-6 && point.y <= 580 + 1e-6)
        }
    }

    @Test func showingCoordinatesFillsThePaddedAreaAlongOneAxis() throws {
        let coordinates = [try coordinate(48.80, 2.25), try coordinate(48.90, 2.42)]
        let viewport = try Viewport(
            showing: coordinates, edgePadding: EdgeInsets(all: 40), size: ViewSize(width: 800, height: 600))
        let west = try #require(viewport.point(for: coordinates[0]))
        let east = try #require(viewport.point(for: coordinates[1]))
        let fillsWidth = abs(west.x - 40) < 1e-6 && abs(east.x - 760) < 1e-6
        let fillsHeight = abs(west.y - 560) < 1e-6 && abs(east.y - 40) < 1e-6
        #expect(fillsWidth || fillsHeight)
    }

    @Test func showingOneCoordinateUsesTheMinimumSpan() throws {
        let paris = try coordinate(48.8566, 2.3522)
        for coordinates in [[paris], [paris, paris, paris]] {
            let viewport = try Viewport(
                showing: coordinates, size: ViewSize(width: 800, height: 600), minimumSpanMeters: 1000)
            let region = viewport.visibleRegion
            let heightMeters = region.span.latitudeDelta * Earth.metersPerDegreeOfLatitude
            #expect(heightMeters > 900 && heightMeters < 1200)
            let point = try #require(viewport.point(for: paris))
            #expect(abs(point.x - 400) < 1e-6 && abs(point.y - 300) < 1e-6)
        }
    }

    @Test func showingNothingOrWithTooMuchPaddingFails() throws {
        #expect(throws: MapCoreError.noCoordinates) {
            try Viewport(showing: [Coordinate](), size: ViewSize(width: 100, height: 100))
        }
        #expect(throws: MapCoreError.self) {
            try Viewport(
                showing: [try coordinate(0, 0)], edgePadding: EdgeInsets(all: 60),
                size: ViewSize(width: 100, height: 100))
        }
    }

    @Test func invalidViewportValuesAreRejectedWithTheValueInTheMessage() throws {
        let center = try coordinate(0, 0)
        let size = ViewSize(width: 100, height: 100)
        let cases: [(() throws -> Viewport, String)] = [
            ({ try Viewport(center: center, zoomLevel: 31, size: size) }, "31.0"),
            ({ try Viewport(center: center, zoomLevel: .nan, size: size) }, "nan"),
            ({ try Viewport(center: center, zoomLevel: 3, size: ViewSize(width: 0, height: 10)) }, "0.0x10.0"),
            ({ try Viewport(center: center, zoomLevel: 3, size: size, scale: 9) }, "9.0"),
            ({ try Viewport(center: center, zoomLevel: 3, size: size, pitchDegrees: 85) }, "pitch 85.0"),
        ]
        for (make, fragment) in cases {
            do {
                _ = try make()
                Issue.record("expected an error mentioning \(fragment)")
            } catch {
                #expect(String(describing: error).contains(fragment), "\(error)")
            }
        }
    }
}
