public import MapCore

/// Line simplification in map space.
public enum Simplification {
    /// Simplifies a polyline with the Douglas–Peucker algorithm: keeps the endpoints, and
    /// every point farther than `tolerance` from the segment between the points kept around it.
    ///
    /// For rendering, the tolerance is the size of a pixel in map points (see
    /// ``PreparedLayer/tolerance(zoomLevel:screenScale:)``): what is removed would move the
    /// line by less than a pixel. A closed ring (last point equal to the first) stays closed.
    ///
    /// For example, a straight line of 1,000 points simplifies to its two endpoints.
    ///
    /// - Parameters:
    ///   - points: The polyline, in map points.
    ///   - tolerance: The largest distance a removed point may lie from the result, in map points.
    /// - Returns: A subsequence of `points`, with the first and last; lines of up to two points as they are.
    ///
    /// Reference: David Douglas and Thomas Peucker, "Algorithms for the reduction of the number of
    /// points required to represent a digitized line or its caricature", Cartographica 10(2), 1973.
    public static func douglasPeucker(_ points: [MapPoint], tolerance: Double) -> [MapPoint] {
        guard points.count > 2, tolerance > 0 else { return points }
        let squaredTolerance = tolerance * tolerance
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        // An explicit stack of (first, last) spans instead of recursion: rings of 100,000 points
        // must not overflow the thread's stack.
        var spans = [(0, points.count - 1)]
        while let (first, last) = spans.popLast() {
            guard last - first > 1 else { continue }
            var farthest = first
            var farthestDistance = 0.0
            for index in (first + 1)..<last {
                let distance = squaredDistance(from: points[index], toSegment: points[first], points[last])
                if distance > farthestDistance {
                    farthest = index
                    farthestDistance = distance
                }
            }
            if farthestDistance > squaredTolerance {
                keep[farthest] = true
                spans.append((first, farthest))
                spans.append((farthest, last))
            }
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    /// The squared distance from `point` to the segment from `a` to `b` (to `a` when they coincide).
    static func squaredDistance(from point: MapPoint, toSegment a: MapPoint, _ b: MapPoint) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        var t = 0.0
        if lengthSquared > 0 {
            t = min(1, max(0, ((point.x - a.x) * dx + (point.y - a.y) * dy) / lengthSquared))
        }
        let x = a.x + t * dx - point.x
        let y = a.y + t * dy - point.y
        return x * x + y * y
    }
}
