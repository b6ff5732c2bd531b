import Foundation

/// A circle on the Earth's surface: every position within a great-circle distance of a centre.
///
/// Geodesy is on the sphere of radius ``Earth/meanRadiusMeters``. Drawn on a Web Mercator map,
/// the circle looks stretched toward the poles, as it should: use ``ring(pointCount:)`` to get
/// its outline. For example:
///
/// ```swift
/// let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
/// let zone = try GeodesicCircle(center: paris, radiusMeters: 10_000)
/// zone.contains(try Coordinate(latitude: 48.9, longitude: 2.35)) // true
/// ```
public struct GeodesicCircle: Hashable, Sendable {
    /// The centre.
    public let center: Coordinate
    /// The radius in meters along the surface, finite and non-negative. A radius of half the
    /// circumference (about 20,015 km) or more covers the whole Earth.
    public let radiusMeters: Double

    /// Creates a circle, rejecting a radius that is negative or not finite.
    ///
    /// - Parameters:
    ///   - center: The centre.
    ///   - radiusMeters: Meters along the surface; 0 gives a circle holding only its centre.
    /// - Throws: ``MapCoreError/invalidDistance(name:meters:)`` naming the radius.
    public init(center: Coordinate, radiusMeters: Double) throws(MapCoreError) {
        guard radiusMeters.isFinite, radiusMeters >= 0 else {
            throw .invalidDistance(name: "radiusMeters", meters: radiusMeters)
        }
        self.center = center
        self.radiusMeters = radiusMeters
    }

    /// Whether the coordinate is within the radius of the centre (on the edge counts as inside).
    public func contains(_ coordinate: Coordinate) -> Bool {
        center.distance(to: coordinate) <= radiusMeters
    }

    /// The outline as a polygon: `pointCount` points at the radius from the centre, at evenly
    /// spaced bearings.
    ///
    /// The ring starts due north of the centre and runs counterclockwise (north, west, south,
    /// east), the winding RFC 7946 §3.1.6 asks of exterior rings. It is open: the first point is
    /// not repeated at the end, so append it for a GeoJSON linear ring.
    ///
    /// Longitudes are wrapped, so a circle across the antimeridian jumps between 180 and -180:
    /// draw it through ``Swift/Sequence/unwrappedMapPoints()``. A circle that contains a pole
    /// has a ring whose longitudes go once round the world; as a polygon on a map it must be
    /// closed along the pole's edge of the map, which this ring does not do. A radius of half
    /// the circumference or more wraps past the antipode, and the ring is then meaningless.
    ///
    /// - Parameter pointCount: The number of points, at least 3. The default is 64.
    /// - Returns: `pointCount` coordinates.
    public func ring(pointCount: Int = 64) -> [Coordinate] {
        precondition(pointCount >= 3, "pointCount \(pointCount) is fewer than the 3 points of a polygon")
        return (0..<pointCount).map { index in
            center.coordinate(at: radiusMeters, facing: -360 * Double(index) / Double(pointCount))
        }
    }
}

extension GeodesicCircle: Codable {
    private enum CodingKeys: String, CodingKey { case center, radiusMeters }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            center: container.decode(Coordinate.self, forKey: .center),
            radiusMeters: container.decode(Double.self, forKey: .radiusMeters)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(center, forKey: .center)
        try container.encode(radiusMeters, forKey: .radiusMeters)
    }
}
