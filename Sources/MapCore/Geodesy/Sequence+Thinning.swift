import Foundation

extension Sequence where Element == Coordinate {
    /// The track with points closer than a distance to the last kept one dropped, as
    /// CLLocationManager's `distanceFilter` drops location updates.
    ///
    /// The first point is kept; each later point is kept when it is at least
    /// `minimumDistanceMeters` (great-circle distance, ``Coordinate/distance(to:)``) from the
    /// last kept point. The final point is always kept, even when it is closer than that to
    /// the last kept one, so a thinned track still ends where the track ended. For example:
    ///
    /// ```swift
    /// let thinned = track.thinned(minimumDistanceMeters: 10) // no two kept points within 10 m,
    ///                                                        // except possibly the last two
    /// ```
    ///
    /// - Parameter minimumDistanceMeters: Meters. Zero, a negative value or NaN keeps every point.
    /// - Returns: The kept points, in their original order; empty for an empty sequence.
    public func thinned(minimumDistanceMeters: Double) -> [Coordinate] {
        let points = Array(self)
        guard minimumDistanceMeters > 0, let first = points.first, let last = points.last, points.count > 2 else {
            return points
        }
        var kept = [first]
        var lastKept = first
        for point in points.dropFirst().dropLast() where lastKept.distance(to: point) >= minimumDistanceMeters {
            kept.append(point)
            lastKept = point
        }
        kept.append(last)
        return kept
    }
}
