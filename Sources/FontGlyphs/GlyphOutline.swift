/// A glyph's outline as closed rings of points, in pixels (FreeType's 26.6 units divided by 64),
/// y up: curves flattened to segments as node-fontnik's outline callbacks flatten them (AGG's
/// `curve3_div` and `curve4_div`, a distance tolerance of 0.5 px and no angle tolerance).
struct GlyphOutline: Sendable {
    /// The rings, each closed (its last point its first).
    var rings: [[Point]] = []
    private var ring: [Point] = []

    struct Point: Hashable, Sendable {
        var x: Double, y: Double
    }

    /// The distance tolerance's square: AGG's `(0.5 / approximation_scale)²` at scale 1.
    static let distanceToleranceSquared = 0.25
    /// How deep curves are divided at most (AGG's `curve_recursion_limit`).
    static let recursionLimit = 32

    /// Starts a ring at `point`, closing the one before.
    mutating func move(to point: Point) {
        closeRing()
        ring = [point]
    }

    mutating func line(to point: Point) {
        if ring.isEmpty { ring = [point] } else { ring.append(point) }
    }

    /// A quadratic Bézier curve from the ring's last point through `control` to `point`.
    mutating func conic(control: Point, to point: Point) {
        guard let start = ring.last else { return line(to: point) }
        Self.quadratic(start, control, point, level: 0, into: &ring)
        ring.append(point)
    }

    /// A cubic Bézier curve from the ring's last point through `control1` and `control2` to `point`.
    mutating func cubic(control1: Point, control2: Point, to point: Point) {
        guard let start = ring.last else { return line(to: point) }
        Self.cubic(start, control1, control2, point, level: 0, into: &ring)
        ring.append(point)
    }

    /// Closes the ring being drawn and keeps it (fontnik's `CloseRing`: the first point added
    /// at the end unless it is there already). A ring of one point has no segment, but counts in
    /// the glyph's bounding box, as in fontnik.
    mutating func closeRing() {
        guard let first = ring.first else { return }
        if ring.last != first { ring.append(first) }
        rings.append(ring)
        ring = []
    }

    /// AGG's `curve3_div::recursive_bezier`.
    private static func quadratic(_ p1: Point, _ p2: Point, _ p3: Point, level: Int, into points: inout [Point]) {
        guard level <= recursionLimit else { return }
        let p12 = Point(x: (p1.x + p2.x) / 2, y: (p1.y + p2.y) / 2)
        let p23 = Point(x: (p2.x + p3.x) / 2, y: (p2.y + p3.y) / 2)
        let p123 = Point(x: (p12.x + p23.x) / 2, y: (p12.y + p23.y) / 2)
        let dx = p3.x - p1.x
        let dy = p3.y - p1.y
        var d = abs((p2.x - p3.x) * dy - (p2.y - p3.y) * dx)
        if d > 1e-30 {
            if d * d <= distanceToleranceSquared * (dx * dx + dy * dy) {
                points.append(p123)
                return
            }
        } else {
            let da = dx * dx + dy * dy
            if da == 0 {
                d = squaredDistance(p1, p2)
            } else {
                d = ((p2.x - p1.x) * dx + (p2.y - p1.y) * dy) / da
                if d > 0 && d < 1 { return }
                if d <= 0 {
                    d = squaredDistance(p2, p1)
                } else if d >= 1 {
                    d = squaredDistance(p2, p3)
                } else {
                    d = squaredDistance(p2, Point(x: p1.x + d * dx, y: p1.y + d * dy))
                }
            }
            if d < distanceToleranceSquared {
                points.append(p2)
                return
            }
        }
        quadratic(p1, p12, p123, level: level + 1, into: &points)
        quadratic(p123, p23, p3, level: level + 1, into: &points)
    }

    /// AGG's `curve4_div::recursive_bezier` without its angle and cusp limits (both off in
    /// fontnik): the regular cases' flatness test, the collinear cases dividing on.
    private static func cubic(
        _ p1: Point, _ p2: Point, _ p3: Point, _ p4: Point, level: Int, into points: inout [Point]
    ) {
        guard level <= recursionLimit else { return }
        let p12 = Point(x: (p1.x + p2.x) / 2, y: (p1.y + p2.y) / 2)
        let p23 = Point(x: (p2.x + p3.x) / 2, y: (p2.y + p3.y) / 2)
        let p34 = Point(x: (p3.x + p4.x) / 2, y: (p3.y + p4.y) / 2)
        let p123 = Point(x: (p12.x + p23.x) / 2, y: (p12.y + p23.y) / 2)
        let p234 = Point(x: (p23.x + p34.x) / 2, y: (p23.y + p34.y) / 2)
        let p1234 = Point(x: (p123.x + p234.x) / 2, y: (p123.y + p234.y) / 2)
        let dx = p4.x - p1.x
        let dy = p4.y - p1.y
        let d2 = abs((p2.x - p4.x) * dy - (p2.y - p4.y) * dx)
        let d3 = abs((p3.x - p4.x) * dy - (p3.y - p4.y) * dx)
        let both = d2 + d3
        if both > 1e-30, both * both <= distanceToleranceSquared * (dx * dx + dy * dy) {
            points.append(p1234)
            return
        }
        if both <= 1e-30,
            max(squaredDistance(p1, p2), squaredDistance(p3, p4)) < distanceToleranceSquared
        {
            points.append(p1234)
            return
        }
        cubic(p1, p12, p123, p1234, level: level + 1, into: &points)
        cubic(p1234, p234, p34, p4, level: level + 1, into: &points)
    }

    private static func squaredDistance(_ a: Point, _ b: Point) -> Double {
        (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)
    }
}
