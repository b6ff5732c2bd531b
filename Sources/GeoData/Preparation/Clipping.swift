public import MapCore

/// Clipping of lines and polygon rings to a rectangle in map space.
///
/// The renderer clips to its viewport plus a margin, so that paths handed to Cairo stay near
/// the image (Cairo's fixed-point coordinates overflow far from it) and off-screen vertices
/// cost nothing.
public enum Clipping {
    /// Cuts a polyline to the parts inside `rect` (edges included), with the Liang–Barsky
    /// algorithm: each run of segments inside becomes one piece; crossing points are added
    /// where the line leaves and re-enters.
    ///
    /// - Returns: The pieces, each of at least two points; none when the line stays outside.
    public static func clipLine(_ points: [MapPoint], to rect: MapRect) -> [[MapPoint]] {
        guard points.count >= 2, !rect.isNull else { return [] }
        let bounds = MapRect(enclosing: points)
        if rect.contains(bounds) { return [points] }
        guard rect.intersects(bounds) else { return [] }

        var pieces: [[MapPoint]] = []
        var current: [MapPoint] = []
        for (a, b) in zip(points, points.dropFirst()) {
            guard let (start, end) = clipSegment(a, b, to: rect) else {
                if current.count >= 2 { pieces.append(current) }
                current = []
                continue
            }
            if current.last != start {
                if current.count >= 2 { pieces.append(current) }
                current = [start]
            }
            current.append(end)
            if end != b {
                // The segment leaves the rect: the piece ends here.
                pieces.append(current)
                current = []
            }
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }

    /// Clips a closed polygon ring to `rect` with the Sutherland–Hodgman algorithm.
    ///
    /// The result is a closed ring (last point equal to the first) along the rect's edges where
    /// the ring was cut, and keeps the ring's orientation, so holes stay holes. A concave ring
    /// cut into several parts gives one ring joined by edges along the rect's border, which
    /// fill the same area with zero width.
    ///
    /// - Returns: The clipped ring, or `nil` when nothing of it is left (fewer than three points).
    public static func clipRing(_ ring: [MapPoint], to rect: MapRect) -> [MapPoint]? {
        guard ring.count >= 4, !rect.isNull else { return nil }
        let bounds = MapRect(enclosing: ring)
        if rect.contains(bounds) { return ring }
        guard rect.intersects(bounds) else { return nil }

        var polygon = Array(ring.dropLast())
        let edges: [(inside: (MapPoint) -> Bool, cross: (MapPoint, MapPoint) -> MapPoint)] = [
            ({ $0.x >= rect.minX }, { crossing($0, $1, x: rect.minX) }),
            ({ $0.x <= rect.maxX }, { crossing($0, $1, x: rect.maxX) }),
            ({ $0.y >= rect.minY }, { crossing($0, $1, y: rect.minY) }),
            ({ $0.y <= rect.maxY }, { crossing($0, $1, y: rect.maxY) }),
        ]
        for edge in edges {
            guard let last = polygon.last else { return nil }
            var output: [MapPoint] = []
            output.reserveCapacity(polygon.count + 4)
            var previous = last
            for point in polygon {
                switch (edge.inside(previous), edge.inside(point)) {
                case (true, true): output.append(point)
                case (true, false): output.append(edge.cross(previous, point))
                case (false, true):
                    output.append(edge.cross(previous, point))
                    output.append(point)
                case (false, false): break
                }
                previous = point
            }
            polygon = output
        }
        guard polygon.count >= 3, let first = polygon.first else { return nil }
        return polygon + [first]
    }

    /// Clips the segment from `a` to `b` to `rect` (Liang–Barsky); `nil` when it misses.
    static func clipSegment(_ a: MapPoint, _ b: MapPoint, to rect: MapRect) -> (MapPoint, MapPoint)? {
        let dx = b.x - a.x
        let dy = b.y - a.y
        var enter = 0.0
        var leave = 1.0
        for (p, q) in [(-dx, a.x - rect.minX), (dx, rect.maxX - a.x), (-dy, a.y - rect.minY), (dy, rect.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let t = q / p
                if p < 0 { enter = max(enter, t) } else { leave = min(leave, t) }
                if enter > leave { return nil }
            }
        }
        let start = enter == 0 ? a : MapPoint(x: a.x + enter * dx, y: a.y + enter * dy)
        let end = leave == 1 ? b : MapPoint(x: a.x + leave * dx, y: a.y + leave * dy)
        return (start, end)
    }

    private static func crossing(_ a: MapPoint, _ b: MapPoint, x: Double) -> MapPoint {
        MapPoint(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
    }

    private static func crossing(_ a: MapPoint, _ b: MapPoint, y: Double) -> MapPoint {
        MapPoint(x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y: y)
    }
}
