import Foundation
import MapCore
import Testing

struct GeodesyTests {
    private let meanRadius = Earth.meanRadiusMeters

    // MARK: - Distance

    @Test func distanceMatchesRosettaCodeHaversineExample() throws {
        // Rosetta Code's "Haversine formula" task: Nashville BNA (36.12, -86.67) to Los Angeles
        // LAX (33.94, -118.40) is 2887.2599506071106 km on a sphere of radius 6372.8 km. Distance
        // scales with the radius, so on the 6371.0088 km mean sphere it is that times 6371.0088 / 6372.8.
        let nashville = try Coordinate(latitude: 36.12, longitude: -86.67)
        let losAngeles = try Coordinate(latitude: 33.94, longitude: -118.40)
        let expected = 2_887_259.950_607_110_6 * 6_371_008.8 / 6_372_800
        #expect(abs(nashville.distance(to: losAngeles) - expected) < 1e-6)
        #expect(abs(losAngeles.distance(to: nashville) - expected) < 1e-6)
    }

    @Test func distanceBetweenIdenticalCoordinatesIsZero() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        #expect(paris.distance(to: paris) == 0)
    }

    @Test func distanceOfMillimetersIsAccurate() throws {
        let a = try Coordinate(latitude: 45, longitude: 7)
        let b = try Coordinate(latitude: 45 + 1e-8, longitude: 7)
        let expected = 1e-8 * .pi / 180 * meanRadius  // about 1.1 mm
        #expect(abs(a.distance(to: b) - expected) < expected * 1e-6)
    }

    @Test func distanceBetweenAntipodesIsHalfTheCircumference() throws {
        let a = try Coordinate(latitude: 10, longitude: 20)
        let antipode = try Coordinate(latitude: -10, longitude: -160)
        #expect(abs(a.distance(to: antipode) - .pi * meanRadius) < 1e-6)
        // A millimeter short of the antipode is still resolved.
        let nearAntipode = try Coordinate(latitude: -10 + 1e-8, longitude: -160)
        let expected = .pi * meanRadius - 1e-8 * .pi / 180 * meanRadius
        #expect(abs(a.distance(to: nearAntipode) - expected) < 1e-4)
    }

    @Test func distanceAcrossTheAntimeridianTakesTheShortWay() throws {
        let west = try Coordinate(latitude: 0, longitude: 179.5)
        let east = try Coordinate(latitude: 0, longitude: -179.5)
        #expect(abs(west.distance(to: east) - Earth.metersPerDegreeOfLatitude) < 1e-6)
    }

    // MARK: - Bearing

    @Test func bearingsAlongTheEquatorAndMeridianAreCardinal() throws {
        let origin = try Coordinate(latitude: 0, longitude: 0)
        #expect(abs(origin.initialBearing(to: try Coordinate(latitude: 0, longitude: 10)) - 90) < 1e-9)
        #expect(abs(origin.initialBearing(to: try Coordinate(latitude: 10, longitude: 0)) - 0) < 1e-9)
        #expect(abs(origin.initialBearing(to: try Coordinate(latitude: 0, longitude: -10)) - 270) < 1e-9)
        #expect(abs(origin.initialBearing(to: try Coordinate(latitude: -10, longitude: 0)) - 180) < 1e-9)
    }

    @Test func bearingOverAPoleLeavesDueNorthOrSouth() throws {
        // The great circle from 45°N 0° to 45°N 180° passes over the north pole.
        let north = try Coordinate(latitude: 45, longitude: 0)
        let bearingNorth = north.initialBearing(to: try Coordinate(latitude: 45, longitude: 180))
        #expect(min(bearingNorth, 360 - bearingNorth) < 1e-9)
        let south = try Coordinate(latitude: -45, longitude: 0)
        #expect(abs(south.initialBearing(to: try Coordinate(latitude: -45, longitude: 180)) - 180) < 1e-9)
    }

    @Test func bearingsAtAPoleFollowTheMeridianOfItsLongitude() throws {
        // At the north pole every direction is south; MapCore measures from the pole coordinate's
        // own meridian, as if one had stepped off the pole along it.
        let pole = try Coordinate(latitude: 90, longitude: 0)
        #expect(abs(pole.initialBearing(to: try Coordinate(latitude: 0, longitude: 0)) - 180) < 1e-9)
        #expect(abs(pole.initialBearing(to: try Coordinate(latitude: 0, longitude: 90)) - 90) < 1e-9)
        let down = pole.coordinate(at: 1_000_000, facing: 180)
        #expect(abs(down.longitude) < 1e-9)
        #expect(abs(down.latitude - (90 - 1_000_000 / Earth.metersPerDegreeOfLatitude)) < 1e-9)
    }

    @Test func bearingAcrossTheAntimeridianPointsEast() throws {
        let west = try Coordinate(latitude: 0, longitude: 179)
        #expect(abs(west.initialBearing(to: try Coordinate(latitude: 0, longitude: -179)) - 90) < 1e-9)
    }

    @Test func bearingToTheSameCoordinateIsZero() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        #expect(paris.initialBearing(to: paris) == 0)
    }

    @Test func bearingsLieInZeroToThreeSixty() throws {
        let origin = try Coordinate(latitude: 12, longitude: -40)
        for step in 0..<72 {
            let target = origin.coordinate(at: 500_000, facing: Double(step) * 5 - 0.5)
            let bearing = origin.initialBearing(to: target)
            #expect(bearing >= 0 && bearing < 360)
        }
    }

    // MARK: - Destination

    @Test func destinationOneDegreeNorthIsOneDegreeOfLatitude() throws {
        let origin = try Coordinate(latitude: 0, longitude: 0)
        let destination = origin.coordinate(at: Earth.metersPerDegreeOfLatitude, facing: 0)
        #expect(abs(destination.latitude - 1) < 1e-9)
        #expect(abs(destination.longitude) < 1e-9)
    }

    @Test func destinationWrapsLongitudeAcrossTheAntimeridian() throws {
        let origin = try Coordinate(latitude: 0, longitude: 179)
        let destination = origin.coordinate(at: 2 * Earth.metersPerDegreeOfLatitude, facing: 90)
        #expect(abs(destination.latitude) < 1e-9)
        #expect(abs(destination.longitude - -179) < 1e-9)
    }

    @Test func destinationThenDistanceAndBearingRoundTrip() throws {
        let starts = [
            try Coordinate(latitude: 48.8566, longitude: 2.3522),
            try Coordinate(latitude: -33.8688, longitude: 151.2093),
            try Coordinate(latitude: 0, longitude: -179.9),
            try Coordinate(latitude: 71, longitude: -156),
        ]
        for start in starts {
            for bearing in stride(from: 0.0, to: 360, by: 30) {
                for distance in [1.0, 1_000, 250_000, 5_000_000, 15_000_000] {
                    let destination = start.coordinate(at: distance, facing: bearing)
                    #expect(abs(start.distance(to: destination) - distance) < 1e-6 * max(1, distance))
                    let returned = start.initialBearing(to: destination)
                    let difference = abs(Coordinate.wrappedLongitude(returned - bearing))
                    #expect(difference < 1e-6, "from \(start) at \(bearing)° for \(distance) m")
                }
            }
        }
    }

    @Test func destinationWithNegativeDistanceTravelsBackwards() throws {
        let origin = try Coordinate(latitude: 10, longitude: 10)
        let back = origin.coordinate(at: -100_000, facing: 45)
        let reverse = origin.coordinate(at: 100_000, facing: 225)
        #expect(abs(back.latitude - reverse.latitude) < 1e-9)
        #expect(abs(back.longitude - reverse.longitude) < 1e-9)
    }

    // MARK: - Interpolation

    @Test func interpolatedMidpointOfAQuarterOfTheEquator() throws {
        let start = try Coordinate(latitude: 0, longitude: 0)
        let end = try Coordinate(latitude: 0, longitude: 90)
        let middle = start.interpolated(to: end, fraction: 0.5)
        #expect(abs(middle.latitude) < 1e-9)
        #expect(abs(middle.longitude - 45) < 1e-9)
    }

    @Test func interpolatedPointsAreEquidistantAlongTheGreatCircle() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        let tokyo = try Coordinate(latitude: 35.6762, longitude: 139.6503)
        let total = paris.distance(to: tokyo)
        for fraction in [0.0, 0.1, 0.25, 0.5, 0.9, 1.0] {
            let point = paris.interpolated(to: tokyo, fraction: fraction)
            #expect(abs(paris.distance(to: point) - fraction * total) < 1e-3)
            #expect(abs(point.distance(to: tokyo) - (1 - fraction) * total) < 1e-3)
        }
    }

    @Test func interpolatedBetweenIdenticalCoordinatesStaysPut() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        #expect(paris.interpolated(to: paris, fraction: 0.3) == paris)
    }

    @Test func interpolatedBetweenAntipodesIsAQuarterCircleAway() throws {
        let a = try Coordinate(latitude: 10, longitude: 20)
        let antipode = try Coordinate(latitude: -10, longitude: -160)
        let middle = a.interpolated(to: antipode, fraction: 0.5)
        #expect(abs(a.distance(to: middle) - .pi / 2 * meanRadius) < 1e-3)
        #expect(abs(middle.distance(to: antipode) - .pi / 2 * meanRadius) < 1e-3)
    }

    // MARK: - Great-circle paths

    @Test func greatCirclePathHasExactEndpointsAndShortSegments() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        let newYork = try Coordinate(latitude: 40.7128, longitude: -74.0060)
        let path = try paris.greatCirclePath(to: newYork, maximumSegmentMeters: 100_000)
        let total = paris.distance(to: newYork)
        #expect(path.count == Int((total / 100_000).rounded(.up)) + 1)
        #expect(path.first == paris)
        #expect(path.last == newYork)
        for (a, b) in zip(path, path.dropFirst()) {
            #expect(a.distance(to: b) <= 100_000)
        }
        // The great circle from Paris to New York bows north of both ends.
        #expect(path.map(\.latitude).max()! > 50)
    }

    @Test func greatCirclePathBetweenIdenticalCoordinatesHasBothEndpoints() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        #expect(try paris.greatCirclePath(to: paris) == [paris, paris])
    }

    @Test func greatCirclePathRejectsBadSegmentLengths() throws {
        let a = try Coordinate(latitude: 0, longitude: 0)
        let b = try Coordinate(latitude: 1, longitude: 1)
        let tooShort = #expect(throws: MapCoreError.self) { try a.greatCirclePath(to: b, maximumSegmentMeters: 0.5) }
        #expect(tooShort == .distanceTooShort(name: "maximumSegmentMeters", meters: 0.5, minimumMeters: 1))
        #expect(tooShort?.description.contains("0.5") == true)
        let negative = #expect(throws: MapCoreError.self) { try a.greatCirclePath(to: b, maximumSegmentMeters: -3) }
        #expect(negative?.description.contains("-3.0") == true)
        #expect(throws: MapCoreError.self) { try a.greatCirclePath(to: b, maximumSegmentMeters: .nan) }
    }

    @Test func greatCirclePathAcrossTheAntimeridianUnwrapsContinuously() throws {
        let tokyo = try Coordinate(latitude: 35.6762, longitude: 139.6503)
        let sanFrancisco = try Coordinate(latitude: 37.7749, longitude: -122.4194)
        let path = try tokyo.greatCirclePath(to: sanFrancisco, maximumSegmentMeters: 200_000)
        #expect(path.allSatisfy { (-180..<180).contains($0.longitude) })
        let longitudes = path.unwrappedLongitudes()
        #expect(longitudes.first == tokyo.longitude)
        #expect(abs(longitudes.last! - (sanFrancisco.longitude + 360)) < 1e-9)
        for (a, b) in zip(longitudes, longitudes.dropFirst()) {
            #expect(b > a && b - a < 10)
        }
        let points = path.unwrappedMapPoints()
        #expect(points.last!.x > WebMercator.worldSize)
        #expect(abs(points.last!.y - MapPoint(sanFrancisco).y) < 1e-6)
    }

    // MARK: - Unwrapping

    @Test func unwrappedLongitudesRunOnAcrossTheAntimeridian() throws {
        let coordinates = try [170.0, -175, -160, 175].map { try Coordinate(latitude: 0, longitude: $0) }
        #expect(coordinates.unwrappedLongitudes() == [170, 185, 200, 175])
        #expect([Coordinate]().unwrappedLongitudes().isEmpty)
    }
}
