import Foundation
import MapCore
import MapProjection
import MapTestSupport
import Testing

/// MapCore's Web Mercator arithmetic against PROJ's EPSG:4326 ↔ EPSG:3857 transformation.
struct WebMercatorCrossCheckTests {
    @Test func forwardMatchesPROJWithinAMillimeter() throws {
        let toMercator = try Projection(from: "EPSG:4326", to: "EPSG:3857")
        var generator = SeededGenerator(seed: 3857)
        for _ in 0..<1_000 {
            let latitude = Double.random(in: -85...85, using: &generator)
            let longitude = Double.random(in: -180..<180, using: &generator)
            let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
            let mapCore = WebMercator.projectedMeters(of: MapPoint(coordinate))
            let proj = try toMercator.transform(x: longitude, y: latitude)
            #expect(abs(mapCore.easting - proj.x) < 1e-3, "easting at \(coordinate)")
            #expect(abs(mapCore.northing - proj.y) < 1e-3, "northing at \(coordinate)")
        }
    }

    @Test func inverseMatchesPROJWithinAMillimeter() throws {
        let toGeographic = try Projection(from: "EPSG:3857", to: "EPSG:4326")
        let halfWorld = WebMercator.equatorMeters / 2
        var generator = SeededGenerator(seed: 4326)
        for _ in 0..<1_000 {
            let easting = Double.random(in: -halfWorld..<halfWorld, using: &generator)
            let northing = Double.random(in: -halfWorld...halfWorld, using: &generator)
            let mapCore = WebMercator.mapPoint(easting: easting, northing: northing).coordinate
            let proj = try toGeographic.transform(x: easting, y: northing)
            // A millimeter on the ground is under 1e-8 degrees of latitude or longitude.
            #expect(abs(mapCore.latitude - proj.y) < 1e-8, "latitude at \(easting), \(northing)")
            #expect(
                abs(Coordinate.wrappedLongitude(mapCore.longitude - proj.x)) < 1e-8,
                "longitude at \(easting), \(northing)")
        }
    }
}
