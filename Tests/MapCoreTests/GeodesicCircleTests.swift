import Foundation
import MapCore
import Testing

struct GeodesicCircleTests {
    @Test func initRejectsNegativeAndNonFiniteRadius() throws {
        let center = try Coordinate(latitude: 0, longitude: 0)
        let negative = #expect(throws: MapCoreError.self) { try GeodesicCircle(center: center, radiusMeters: -1) }
        #expect(negative == .invalidDistance(name: "radiusMeters", meters: -1))
        #expect(negative?.description.contains("-1.0") == true)
        #expect(throws: MapCoreError.self) { try GeodesicCircle(center: center, radiusMeters: .infinity) }
        #expect(throws: MapCoreError.self) { try GeodesicCircle(center: center, radiusMeters: .nan) }
    }

    @Test func containsPointsWithinTheRadius() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        let circle = try GeodesicCircle(center: paris, radiusMeters: 10_000)
        #expect(circle.contains(paris))
        for bearing in stride(from: 0.0, to: 360, by: 45) {
            #expect(circle.contains(paris.coordinate(at: 9_990, facing: bearing)))
            #expect(!circle.contains(paris.coordinate(at: 10_010, facing: bearing)))
        }
    }

    @Test func containsAcrossTheAntimeridian() throws {
        let circle = try GeodesicCircle(center: try Coordinate(latitude: 0, longitude: 179.9), radiusMeters: 50_000)
        #expect(circle.contains(try Coordinate(latitude: 0, longitude: -179.9)))
        #expect(!circle.contains(try Coordinate(latitude: 0, longitude: 0)))
    }

    @Test func ringPointsLieAtTheRadius() throws {
        let center = try Coordinate(latitude: 60, longitude: 25)
        let circle = try GeodesicCircle(center: center, radiusMeters: 250_000)
        let ring = circle.ring(pointCount: 36)
        #expect(ring.count == 36)
        for point in ring {
            #expect(abs(center.distance(to: point) - 250_000) < 1e-3)
        }
    }

    @Test func ringStartsDueNorthAndRunsCounterclockwise() throws {
        let center = try Coordinate(latitude: 10, longitude: 20)
        let ring = try GeodesicCircle(center: center, radiusMeters: 100_000).ring(pointCount: 4)
        #expect(ring[0].latitude > center.latitude && abs(ring[0].longitude - center.longitude) < 1e-9)
        #expect(ring[1].longitude < center.longitude)  // west
        #expect(ring[2].latitude < center.latitude)  // south
        #expect(ring[3].longitude > center.longitude)  // east
    }

    @Test func ringAcrossTheAntimeridianHasWrappedLongitudes() throws {
        let circle = try GeodesicCircle(center: try Coordinate(latitude: 0, longitude: 180), radiusMeters: 100_000)
        let ring = circle.ring()
        #expect(ring.count == 64)
        #expect(ring.contains { $0.longitude > 179 } && ring.contains { $0.longitude < -179 })
        let longitudes = ring.unwrappedLongitudes()
        for (a, b) in zip(longitudes, longitudes.dropFirst()) {
            #expect(abs(b - a) < 1)
        }
    }

    @Test func codableRoundTripsAndRejectsNegativeRadius() throws {
        let circle = try GeodesicCircle(center: try Coordinate(latitude: 1, longitude: 2), radiusMeters: 3)
        let data = try JSONEncoder().encode(circle)
        #expect(try JSONDecoder().decode(GeodesicCircle.self, from: data) == circle)
        let bad = Data(#"{"center":{"latitude":1,"longitude":2},"radiusMeters":-3}"#.utf8)
        #expect(throws: MapCoreError.invalidDistance(name: "radiusMeters", meters: -3)) {
            try JSONDecoder().decode(GeodesicCircle.self, from: bad)
        }
    }
}
