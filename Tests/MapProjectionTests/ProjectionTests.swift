import Foundation
import MapCore
import MapProjection
import Testing

struct ProjectionTests {
    @Test func unknownCRSIsNamedInTheError() throws {
        let error = #expect(throws: ProjectionError.self) { try Projection(from: "EPSG:999999", to: "EPSG:4326") }
        guard case .unknownCRS(let definition, _) = error else {
            Issue.record("expected unknownCRS, got \(String(describing: error))")
            return
        }
        #expect(definition == "EPSG:999999")
        #expect(error?.description.contains("EPSG:999999") == true)
    }

    @Test func utmZoneCentralMeridianAtTheEquatorIsTheFalseOrigin() throws {
        // UTM zone 33N (EPSG:32633) has central meridian 15°E, false easting 500,000 m and
        // false northing 0 m.
        let toUTM = try Projection(from: "EPSG:4326", to: "EPSG:32633")
        let origin = try toUTM.transform(x: 15, y: 0)
        #expect(abs(origin.x - 500_000) < 1e-3)
        #expect(abs(origin.y) < 1e-3)
    }

    @Test func utmEastingsAreSymmetricAboutTheCentralMeridian() throws {
        let toUTM = try Projection(from: "EPSG:4326", to: "EPSG:32633")
        let east = try toUTM.transform(x: 17, y: 48)
        let west = try toUTM.transform(x: 13, y: 48)
        #expect(abs((east.x - 500_000) + (west.x - 500_000)) < 1e-3)
        #expect(abs(east.y - west.y) < 1e-3)
        // 48°N is about 5,317 km north of the equator along the meridian.
        #expect(abs(east.y - 5_317_000) < 10_000)
    }

    @Test func geographicRoundTripThroughUTMIsExact() throws {
        let toUTM = try Projection(from: "EPSG:4326", to: "EPSG:32633")
        let toGeographic = try Projection(from: "EPSG:32633", to: "EPSG:4326")
        let vienna = try Coordinate(latitude: 48.2082, longitude: 16.3738)
        let projected = try toUTM.transform(vienna)
        let back = try toGeographic.coordinate(x: projected.x, y: projected.y)
        #expect(abs(back.latitude - vienna.latitude) < 1e-9)
        #expect(abs(back.longitude - vienna.longitude) < 1e-9)
    }
}
