import Foundation

// Great-circle geodesy on the sphere of radius ``Earth/meanRadiusMeters`` (6,371,008.8 m).
//
// Distances differ from the WGS 84 ellipsoid's geodesics by at most about 0.5 %; use an
// ellipsoidal library (PROJ's geodesic routines) where that matters.

extension Coordinate {
    /// The great-circle distance to another coordinate, in meters, on the mean-radius sphere.
    ///
    /// This is the haversine formula in its `atan2` form, with the complement `1 - h` computed as
    /// the haversine to the antipode rather than by subtraction, so it stays accurate for points
    /// a few millimeters apart and for nearly antipodal points alike. For example:
    ///
    /// ```swift
    /// let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
    /// let london = try Coordinate(latitude: 51.5074, longitude: -0.1278)
    /// paris.distance(to: london) // about 343,560 m
    /// ```
    ///
    /// - Parameter other: The other end.
    /// - Returns: Meters along the surface, in [0, π × ``Earth/meanRadiusMeters``].
    public func distance(to other: Coordinate) -> Double {
        centralAngle(to: other) * Earth.meanRadiusMeters
    }

    /// The angle between the two positions at the Earth's centre, in radians, in [0, π].
    func centralAngle(to other: Coordinate) -> Double {
        let latitude1 = latitude * .pi / 180
        let latitude2 = other.latitude * .pi / 180
        let longitudeDifference = (other.longitude - longitude) * .pi / 180
        let cosines = cos(latitude1) * cos(latitude2)
        let haversine = sin((latitude2 - latitude1) / 2).squared + cosines * sin(longitudeDifference / 2).squared
        // 1 - haversine, as the haversine from this position to the other's antipode.
        let complement = sin((latitude1 + latitude2) / 2).squared + cosines * cos(longitudeDifference / 2).squared
        return 2 * atan2(haversine.squareRoot(), complement.squareRoot())
    }

    /// The direction in which the great circle to another coordinate leaves this one, in degrees
    /// clockwise from true north, in [0, 360).
    ///
    /// For example, due east along the equator is 90 and due south is 180. The bearing is 0 for
    /// identical coordinates, and for antipodal ones, where every direction leads there, it is
    /// whichever one rounding gives. At a pole, where every direction is south (or north), it is
    /// measured as if one had stepped off the pole along the meridian of this coordinate's
    /// longitude, the convention ``coordinate(at:facing:)`` follows too.
    ///
    /// - Parameter other: The destination.
    /// - Returns: The initial bearing in degrees; the bearing usually changes along the way.
    public func initialBearing(to other: Coordinate) -> Double {
        let target = UnitVector(other)
        let radians = atan2(target.dot(.east(at: self)), target.dot(.north(at: self)))
        return (radians * 180 / .pi).degreesWrappedTo360
    }

    /// The coordinate reached by travelling a distance along a great circle, leaving in a given
    /// direction (the destination point), on the mean-radius sphere.
    ///
    /// For example, 111,195 m north of the equator is about latitude 1:
    ///
    /// ```swift
    /// let origin = try Coordinate(latitude: 0, longitude: 0)
    /// origin.coordinate(at: 111_195, facing: 0) // about 1.0,0.0
    /// ```
    ///
    /// - Parameters:
    ///   - distanceMeters: Meters along the surface. A negative distance travels backwards, and
    ///     distances beyond the circumference go round more than once. Must be finite.
    ///   - bearingDegrees: Degrees clockwise from true north; any finite value. At a pole, see
    ///     ``initialBearing(to:)`` for what north means.
    /// - Returns: The destination, its longitude wrapped into [-180, 180).
    public func coordinate(at distanceMeters: Double, facing bearingDegrees: Double) -> Coordinate {
        precondition(distanceMeters.isFinite, "distanceMeters \(distanceMeters) is not finite")
        precondition(bearingDegrees.isFinite, "bearingDegrees \(bearingDegrees) is not finite")
        let angle = distanceMeters / Earth.meanRadiusMeters
        let bearing = bearingDegrees * .pi / 180
        let direction = UnitVector.north(at: self) * cos(bearing) + UnitVector.east(at: self) * sin(bearing)
        return (UnitVector(self) * cos(angle) + direction * sin(angle)).coordinate
    }

    /// The coordinate a fraction of the way along the great circle to another (spherical linear
    /// interpolation).
    ///
    /// Fraction 0 gives this coordinate and 1 gives `other`; fractions outside [0, 1] continue
    /// along the same great circle beyond either end. Between identical coordinates every
    /// fraction gives this coordinate. Between antipodal ones, which infinitely many great
    /// circles join, the path follows ``initialBearing(to:)``.
    ///
    /// - Parameters:
    ///   - other: The coordinate at fraction 1.
    ///   - fraction: How far along, as a fraction of the distance; must be finite.
    /// - Returns: The interpolated coordinate, its longitude wrapped into [-180, 180).
    public func interpolated(to other: Coordinate, fraction: Double) -> Coordinate {
        precondition(fraction.isFinite, "fraction \(fraction) is not finite")
        let angle = centralAngle(to: other)
        guard angle > 0 else { return self }
        let sine = sin(angle)
        // Nearly antipodal (or a few nanometers apart): the slerp weights are ill-conditioned,
        // and the bearing is the only well-defined direction left.
        guard sine > 1e-9 else {
            return coordinate(at: fraction * angle * Earth.meanRadiusMeters, facing: initialBearing(to: other))
        }
        let start = UnitVector(self) * (sin((1 - fraction) * angle) / sine)
        let end = UnitVector(other) * (sin(fraction * angle) / sine)
        return (start + end).coordinate
    }

    /// The great circle to another coordinate as a polyline (MapKit's MKGeodesicPolyline), split
    /// so no segment is longer than `maximumSegmentMeters`.
    ///
    /// The path starts with this coordinate and ends with `other`, exactly, with the points in
    /// between evenly spaced; it always has at least two points. Its coordinates have wrapped
    /// longitudes, so a path across the antimeridian jumps from near 180 to near -180: renderers
    /// should draw it through ``Swift/Sequence/unwrappedMapPoints()`` (or
    /// ``Swift/Sequence/unwrappedLongitudes()``), which keep consecutive points within half a
    /// world of each other. For example:
    ///
    /// ```swift
    /// let tokyo = try Coordinate(latitude: 35.68, longitude: 139.69)
    /// let sanFrancisco = try Coordinate(latitude: 37.77, longitude: -122.42)
    /// let path = try tokyo.greatCirclePath(to: sanFrancisco, maximumSegmentMeters: 50_000)
    /// let points = path.unwrappedMapPoints() // x runs past the world's east edge, no jump
    /// ```
    ///
    /// - Parameters:
    ///   - other: The end of the path.
    ///   - maximumSegmentMeters: The longest a segment may be, at least 1 m. The default is
    ///     100 km, which gives at most about 200 segments.
    /// - Returns: ⌈distance / maximumSegmentMeters⌉ + 1 coordinates (at least 2).
    /// - Throws: ``MapCoreError/invalidDistance(name:meters:)`` for a negative or non-finite
    ///   segment length, ``MapCoreError/distanceTooShort(name:meters:minimumMeters:)`` for one
    ///   under 1 m.
    public func greatCirclePath(
        to other: Coordinate,
        maximumSegmentMeters: Double = 100_000
    ) throws(MapCoreError) -> [Coordinate] {
        guard maximumSegmentMeters.isFinite, maximumSegmentMeters >= 0 else {
            throw .invalidDistance(name: "maximumSegmentMeters", meters: maximumSegmentMeters)
        }
        // The floor keeps the point count below about 20 million (half the circumference in meters).
        guard maximumSegmentMeters >= 1 else {
            throw .distanceTooShort(name: "maximumSegmentMeters", meters: maximumSegmentMeters, minimumMeters: 1)
        }
        let segmentCount = max(1, Int((distance(to: other) / maximumSegmentMeters).rounded(.up)))
        let inner = (1..<segmentCount).map { interpolated(to: other, fraction: Double($0) / Double(segmentCount)) }
        return [self] + inner + [other]
    }
}

extension Double {
    fileprivate var squared: Double { self * self }
}
