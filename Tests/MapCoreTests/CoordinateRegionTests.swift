import Foundation
import MapCore
import Testing

struct CoordinateRegionTests {
    private func region(_ latitude: Double, _ longitude: Double, span latitudeDelta: Double, _ longitudeDelta: Double)
        throws -> CoordinateRegion
    {
        CoordinateRegion(
            center: try Coordinate(latitude: latitude, longitude: longitude),
            span: try CoordinateSpan(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
        )
    }

    // MARK: - Edges

    @Test func edgesAreHalfASpanFromTheCentre() throws {
        let box = try region(10, 20, span: 4, 6)
        #expect(abs(box.north - 12) < 1e-12 && abs(box.south - 8) < 1e-12)
        #expect(abs(box.west - 17) < 1e-12 && abs(box.east - 23) < 1e-12)
        #expect(!box.crossesAntimeridian)
    }

    @Test func edgesAreClampedAtThePoles() throws {
        let cap = try region(85, 0, span: 20, 10)
        #expect(cap.north == 90)
        #expect(abs(cap.south - 75) < 1e-12)
    }

    @Test func regionAcrossTheAntimeridianHasWestEastOfEast() throws {
        let pacific = try region(0, 180, span: 10, 20)
        #expect(abs(pacific.west - 170) < 1e-12)
        #expect(abs(pacific.east - -170) < 1e-12)
        #expect(pacific.crossesAntimeridian)
    }

    @Test func worldWideRegionSpansTheWholeLongitudeRange() throws {
        // Whatever its centre longitude, a region 360 degrees wide runs from -180 to 180, and
        // rebuilding it from its edges keeps it world-wide.
        for longitude in [0.0, 10, -120] {
            let world = try region(0, longitude, span: 170, 360)
            #expect(world.west == -180 && world.east == 180)
            #expect(!world.crossesAntimeridian)
            let rebuilt = try CoordinateRegion(
                west: world.west, south: world.south, east: world.east, north: world.north)
            #expect(rebuilt.span.longitudeDelta == 360)
        }
    }

    // MARK: - Initializers

    @Test func initFromEdgesAcrossTheAntimeridian() throws {
        let pacific = try CoordinateRegion(west: 170, south: -10, east: -170, north: 10)
        #expect(abs(pacific.span.longitudeDelta - 20) < 1e-12)
        #expect(abs(pacific.span.latitudeDelta - 20) < 1e-12)
        #expect(abs(Coordinate.wrappedLongitude(pacific.center.longitude - 180)) < 1e-12)
        #expect(pacific.crossesAntimeridian)
    }

    @Test func initFromEdgesRejectsBadValuesNamingThem() throws {
        let latitude = #expect(throws: MapCoreError.self) {
            try CoordinateRegion(west: 0, south: 0, east: 1, north: 95)
        }
        #expect(latitude?.description.contains("95.0") == true)
        let longitude = #expect(throws: MapCoreError.self) {
            try CoordinateRegion(west: -200, south: 0, east: 1, north: 1)
        }
        #expect(longitude?.description.contains("-200.0") == true)
        #expect(throws: MapCoreError.self) { try CoordinateRegion(west: 0, south: 10, east: 1, north: 5) }
    }

    @Test func initFromMetersAtTheEquatorIsAboutOneDegree() throws {
        let origin = try Coordinate(latitude: 0, longitude: 0)
        let box = try CoordinateRegion(
            center: origin,
            latitudinalMeters: Earth.metersPerDegreeOfLatitude,
            longitudinalMeters: Earth.metersPerDegreeOfLatitude
        )
        #expect(abs(box.span.latitudeDelta - 1) < 1e-9)
        #expect(abs(box.span.longitudeDelta - 1) < 1e-9)
    }

    @Test func initFromMetersWidensLongitudeAtHigherLatitudes() throws {
        let oslo = try Coordinate(latitude: 60, longitude: 10.75)
        let box = try CoordinateRegion(center: oslo, latitudinalMeters: 10_000, longitudinalMeters: 10_000)
        #expect(abs(box.span.longitudeDelta - 2 * box.span.latitudeDelta) < 1e-9)  // cos 60° = 1/2
    }

    @Test func initFromMetersRejectsNegativeDistanceNamingIt() throws {
        let origin = try Coordinate(latitude: 0, longitude: 0)
        let error = #expect(throws: MapCoreError.self) {
            try CoordinateRegion(center: origin, latitudinalMeters: 10, longitudinalMeters: -5)
        }
        #expect(error == .invalidDistance(name: "longitudinalMeters", meters: -5))
        #expect(error?.description.contains("-5.0") == true)
    }

    @Test func enclosingCoordinatesAcrossTheAntimeridianTakesTheShortWay() throws {
        let points = try [(1.0, 179.0), (-1, -179), (0, 178)].map { try Coordinate(latitude: $0.0, longitude: $0.1) }
        let box = try CoordinateRegion(enclosing: points)
        #expect(abs(box.span.longitudeDelta - 3) < 1e-12)
        #expect(abs(box.span.latitudeDelta - 2) < 1e-12)
        #expect(box.crossesAntimeridian)
        #expect(points.allSatisfy(box.contains))
    }

    @Test func enclosingNoCoordinatesThrows() {
        #expect(throws: MapCoreError.noCoordinates) { try CoordinateRegion(enclosing: [Coordinate]()) }
    }

    // MARK: - Containment and union

    @Test func containsAcrossTheAntimeridian() throws {
        let pacific = try region(0, 180, span: 10, 20)
        #expect(pacific.contains(try Coordinate(latitude: 0, longitude: 175)))
        #expect(pacific.contains(try Coordinate(latitude: 4, longitude: -175)))
        #expect(pacific.contains(try Coordinate(latitude: 5, longitude: 170)))  // on the edge
        #expect(!pacific.contains(try Coordinate(latitude: 0, longitude: 165)))
        #expect(!pacific.contains(try Coordinate(latitude: 6, longitude: 180)))
        #expect(!pacific.contains(try Coordinate(latitude: 0, longitude: 0)))
    }

    @Test func unionAcrossTheAntimeridianTakesTheShortWay() throws {
        let west = try region(0, 175, span: 2, 6)
        let east = try region(1, -175, span: 2, 6)
        let union = west.union(east)
        #expect(abs(union.span.longitudeDelta - 16) < 1e-9)
        #expect(abs(union.span.latitudeDelta - 3) < 1e-9)
        #expect(union.crossesAntimeridian)
        #expect(union.contains(west.center) && union.contains(east.center))
        #expect(east.union(west) == union)
    }

    @Test func unionOfDisjointRegionsCoversBoth() throws {
        let a = try region(0, 0, span: 2, 2)
        let b = try region(10, 10, span: 2, 2)
        var union = a
        union.formUnion(b)
        #expect(union == a.union(b))
        #expect(abs(union.west - -1) < 1e-9 && abs(union.east - 11) < 1e-9)
        #expect(abs(union.south - -1) < 1e-9 && abs(union.north - 11) < 1e-9)
    }

    @Test func unionWithAContainedRegionIsUnchanged() throws {
        let outer = try region(0, 0, span: 20, 20)
        let inner = try region(1, 1, span: 2, 2)
        let union = outer.union(inner)
        #expect(abs(union.span.longitudeDelta - 20) < 1e-9 && abs(union.span.latitudeDelta - 20) < 1e-9)
        #expect(abs(union.center.longitude) < 1e-9 && abs(union.center.latitude) < 1e-9)
    }

    // MARK: - Map space

    @Test func mapRectRoundTripsToTheRegion() throws {
        for box in [
            try region(48.85, 2.35, span: 1, 2), try region(-33, 151, span: 20, 40), try region(0, 180, span: 10, 20),
        ] {
            let back = CoordinateRegion(box.mapRect)
            #expect(abs(back.center.latitude - box.center.latitude) < 1e-9)
            #expect(abs(Coordinate.wrappedLongitude(back.center.longitude - box.center.longitude)) < 1e-9)
            #expect(abs(back.span.latitudeDelta - box.span.latitudeDelta) < 1e-9)
            #expect(abs(back.span.longitudeDelta - box.span.longitudeDelta) < 1e-9)
        }
    }

    @Test func mapRectOfARegionAcrossTheAntimeridianReachesPastTheWorld() throws {
        let rect = try region(0, 180, span: 10, 20).mapRect
        #expect(rect.minX >= 0 && rect.minX < WebMercator.worldSize)
        #expect(rect.maxX > WebMercator.worldSize)
        #expect(rect.crossesAntimeridian)
        #expect(abs(rect.width - WebMercator.worldSize * 20 / 360) < 1e-6)
    }

    @Test func regionOfTheWorldRectSpansTheMercatorWorld() {
        let world = CoordinateRegion(MapRect.world)
        #expect(world.span.longitudeDelta == 360)
        #expect(abs(world.north - WebMercator.maximumLatitude) < 1e-6)
        #expect(abs(world.south + WebMercator.maximumLatitude) < 1e-6)
    }

    @Test func codableRoundTrips() throws {
        let box = try region(10, 20, span: 4, 6)
        #expect(try JSONDecoder().decode(CoordinateRegion.self, from: JSONEncoder().encode(box)) == box)
    }
}
