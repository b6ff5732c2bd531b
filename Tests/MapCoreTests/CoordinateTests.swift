import Foundation
import MapCore
import Testing

struct CoordinateTests {
    @Test func initAcceptsTheEdgesOfTheRange() throws {
        let northEast = try Coordinate(latitude: 90, longitude: 180)
        let southWest = try Coordinate(latitude: -90, longitude: -180)
        #expect(northEast.latitude == 90 && northEast.longitude == 180)
        #expect(southWest.latitude == -90 && southWest.longitude == -180)
    }

    @Test func initRejectsLatitudeOutOfRangeNamingIt() throws {
        let error = #expect(throws: MapCoreError.self) { try Coordinate(latitude: 91, longitude: 0) }
        #expect(error == .invalidLatitude(91))
        #expect(error?.description.contains("91.0") == true)
        #expect(throws: MapCoreError.self) { try Coordinate(latitude: -90.5, longitude: 0) }
        #expect(throws: MapCoreError.self) { try Coordinate(latitude: .nan, longitude: 0) }
    }

    @Test func initRejectsLongitudeOutOfRangeNamingIt() throws {
        let error = #expect(throws: MapCoreError.self) { try Coordinate(latitude: 0, longitude: 180.5) }
        #expect(error == .invalidLongitude(180.5))
        #expect(error?.description.contains("180.5") == true)
        #expect(throws: MapCoreError.self) { try Coordinate(latitude: 0, longitude: -.infinity) }
    }

    @Test func wrappingLongitudeInitWrapsIntoRange() throws {
        #expect(try Coordinate(latitude: 10, wrappingLongitude: 190).longitude == -170)
        #expect(try Coordinate(latitude: 10, wrappingLongitude: -190).longitude == 170)
        #expect(try Coordinate(latitude: 10, wrappingLongitude: 720.5).longitude == 0.5)
        #expect(throws: MapCoreError.invalidLongitude(.infinity)) {
            try Coordinate(latitude: 0, wrappingLongitude: .infinity)
        }
        #expect(throws: MapCoreError.invalidLatitude(95)) { try Coordinate(latitude: 95, wrappingLongitude: 0) }
    }

    @Test func wrappedLongitudeLiesInHalfOpenRange() {
        #expect(Coordinate.wrappedLongitude(180) == -180)
        #expect(Coordinate.wrappedLongitude(-180) == -180)
        #expect(Coordinate.wrappedLongitude(-540) == -180)
        #expect(Coordinate.wrappedLongitude(359) == -1)
        #expect(Coordinate.wrappedLongitude(0) == 0)
        // Just west of -180, adding the turn rounds to 360: the result is -180, not 180.
        #expect(Coordinate.wrappedLongitude((-180.0).nextDown) == -180)
        for longitude in stride(from: -1_000.0, through: 1_000, by: 7.25) {
            let wrapped = Coordinate.wrappedLongitude(longitude)
            #expect(wrapped >= -180 && wrapped < 180)
            let turns = (longitude - wrapped) / 360
            #expect(abs(turns - turns.rounded()) < 1e-9)
        }
    }

    @Test func descriptionIsLatitudeCommaLongitude() throws {
        #expect(try Coordinate(latitude: 48.8566, longitude: 2.3522).description == "48.8566,2.3522")
    }

    @Test func codableRoundTripsAndRejectsBadLatitude() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        #expect(try JSONDecoder().decode(Coordinate.self, from: JSONEncoder().encode(paris)) == paris)
        let bad = Data(#"{"latitude":91,"longitude":0}"#.utf8)
        #expect(throws: MapCoreError.invalidLatitude(91)) { try JSONDecoder().decode(Coordinate.self, from: bad) }
    }
}
