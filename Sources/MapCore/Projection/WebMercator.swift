import Foundation

/// Constants and conversions of the Web Mercator projection (EPSG:3857) as MapKit lays it out.
///
/// The world is a square of ``worldSize`` map points, 256 × 2^20: one map point is one screen
/// point at zoom level 20. x grows east from the antimeridian, y grows south from the top
/// edge at latitude ``maximumLatitude``. The sphere has the WGS 84 semi-major axis as radius,
/// as EPSG:3857 specifies.
public enum WebMercator {
    /// Width and height of the world in map points: 268,435,456 (256 × 2^20).
    public static let worldSize: Double = 268_435_456
    /// The zoom level at which one map point is one screen point: 20.
    public static let mapPointZoomLevel: Double = 20
    /// Width and height of a tile in screen points: 256.
    public static let tileSizePoints: Double = 256
    /// Radius of the Web Mercator sphere: the WGS 84 semi-major axis, 6,378,137 m.
    public static let earthRadiusMeters: Double = 6_378_137
    /// Circumference of the Web Mercator sphere at the equator, in meters.
    public static let equatorMeters: Double = 2 * .pi * earthRadiusMeters
    /// The latitude where the square world ends, north and south: 85.05112878 degrees.
    public static let maximumLatitude: Double = 85.05112878

    /// Map points per meter on the ground at a latitude (MapKit's MKMapPointsPerMeterAtLatitude).
    ///
    /// - Parameter latitude: Degrees; clamped to ±``maximumLatitude``.
    public static func mapPointsPerMeter(atLatitude latitude: Double) -> Double {
        let clamped = clampedLatitude(latitude)
        return worldSize / (equatorMeters * cos(clamped * .pi / 180))
    }

    /// Meters on the ground per map point at a latitude (MapKit's MKMetersPerMapPointAtLatitude).
    public static func metersPerMapPoint(atLatitude latitude: Double) -> Double {
        1 / mapPointsPerMeter(atLatitude: latitude)
    }

    /// A latitude clamped into the square world, ±``maximumLatitude``.
    public static func clampedLatitude(_ latitude: Double) -> Double {
        min(maximumLatitude, max(-maximumLatitude, latitude))
    }

    /// Projected EPSG:3857 meters (easting, northing) of a map point.
    public static func projectedMeters(of point: MapPoint) -> (easting: Double, northing: Double) {
        ((point.x / worldSize - 0.5) * equatorMeters, (0.5 - point.y / worldSize) * equatorMeters)
    }

    /// The map point of projected EPSG:3857 meters (easting, northing).
    public static func mapPoint(easting: Double, northing: Double) -> MapPoint {
        MapPoint(x: (easting / equatorMeters + 0.5) * worldSize, y: (0.5 - northing / equatorMeters) * worldSize)
    }
}
