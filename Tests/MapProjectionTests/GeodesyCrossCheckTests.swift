import CProj
import Foundation
import MapCore
import Testing

/// MapCore's spherical geodesy against PROJ's ellipsoidal geodesics (Karney's algorithms) on WGS 84.
struct GeodesyCrossCheckTests {
    private struct Geodesic {
        var distanceMeters: Double
        var initialAzimuthDegrees: Double
    }

    /// The WGS 84 geodesic between two coordinates, from PROJ's `geod_inverse`.
    private func wgs84Geodesic(from a: Coordinate, to b: Coordinate) -> Geodesic {
        var ellipsoid = geod_geodesic()
        geod_init(&ellipsoid, 6_378_137, 1 / 298.257_223_563)
        var distance = 0.0
        var azimuth1 = 0.0
        var azimuth2 = 0.0
        geod_inverse(&ellipsoid, a.latitude, a.longitude, b.latitude, b.longitude, &distance, &azimuth1, &azimuth2)
        return Geodesic(distanceMeters: distance, initialAzimuthDegrees: azimuth1)
    }

    private static let pairs: [(name: String, a: (Double, Double), b: (Double, Double))] = [
        ("Paris-London", (48.8566, 2.3522), (51.5074, -0.1278)),
        ("New York-London", (40.7128, -74.0060), (51.5074, -0.1278)),
        ("Tokyo-San Francisco", (35.6762, 139.6503), (37.7749, -122.4194)),
        ("Sydney-Santiago", (-33.8688, 151.2093), (-33.4489, -70.6693)),
        ("Quito-Singapore", (-0.1807, -78.4678), (1.3521, 103.8198)),
        ("Cape Town-Reykjavik", (-33.9249, 18.4241), (64.1466, -21.9426)),
        ("Longyearbyen-McMurdo", (78.2232, 15.6267), (-77.8419, 166.6863)),
        ("Anchorage-Moscow over the pole", (61.2181, -149.9003), (55.7558, 37.6173)),
    ]

    @Test func distancesAreWithinHalfAPercentOfWGS84Geodesics() throws {
        for pair in Self.pairs {
            let a = try Coordinate(latitude: pair.a.0, longitude: pair.a.1)
            let b = try Coordinate(latitude: pair.b.0, longitude: pair.b.1)
            let geodesic = wgs84Geodesic(from: a, to: b)
            let relativeError = abs(a.distance(to: b) - geodesic.distanceMeters) / geodesic.distanceMeters
            #expect(relativeError < 0.005, "\(pair.name): \(a.distance(to: b)) m vs \(geodesic.distanceMeters) m")
        }
    }

    @Test func initialBearingsAreWithinHalfADegreeOfWGS84Azimuths() throws {
        // Quito and Singapore are nearly antipodal along the equator: there the ellipsoid's
        // shortest geodesic leaves in a direction several degrees off the sphere's, as Karney
        // describes, so only its distance is compared.
        for pair in Self.pairs where pair.name != "Quito-Singapore" {
            let a = try Coordinate(latitude: pair.a.0, longitude: pair.a.1)
            let b = try Coordinate(latitude: pair.b.0, longitude: pair.b.1)
            let azimuth = wgs84Geodesic(from: a, to: b).initialAzimuthDegrees
            let difference = abs(Coordinate.wrappedLongitude(a.initialBearing(to: b) - azimuth))
            #expect(difference < 0.5, "\(pair.name): \(a.initialBearing(to: b))° vs \(azimuth)°")
        }
    }
}
