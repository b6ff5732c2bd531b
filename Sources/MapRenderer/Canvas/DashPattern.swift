import Foundation
import MapCore

/// A dash pattern laid along lines from their first vertex, whatever part of them is drawn: the
/// style spec's `line-dasharray` anchored to the geometry, not to the image.
///
/// Cairo starts a dash pattern where a path starts. Geometry clipped to the view starts wherever
/// the clip cut it, so the same border would get its dashes in different places in two images,
/// and two neighbouring tiles would not meet. This type walks each whole line (or ring) from its
/// first vertex, measuring its length in points at the view's zoom scale, and adds to the path
/// only the "on" pieces that fall inside the area drawn; they are then stroked without a dash.
/// A dash that turns a corner keeps its join, and its ends get the line's caps, as Cairo's own
/// dashes do.
struct DashPattern {
    /// The lengths of the pattern in points: on, off, on, off, ...
    let lengthsPoints: [Double]
    /// The sum of ``lengthsPoints``.
    let periodPoints: Double
    /// How far into the pattern a line starts, in points. The default is 0.
    let phasePoints: Double

    /// A pattern of `lengths` in multiples of `lineWidth` (the style spec's units); `nil` for a
    /// solid line (empty, no positive length, or a single dash).
    ///
    /// An odd-length list is read as MapLibre reads it: its last dash runs on into its first
    /// (`[2, 1, 3]` is a dash of 5 and a gap of 1, the line starting 3 into the dash), so a
    /// one-length list is a solid line. (Cairo would repeat the list instead.)
    init?(_ lengths: [Double], lineWidth: Double) {
        var scaled = lengths.map { max(0, $0) * lineWidth }
        guard scaled.count >= 2, scaled.contains(where: { $0 > 0 }) else { return nil }
        var phase = 0.0
        if scaled.count % 2 == 1 {
            let last = scaled.removeLast()
            scaled[0] += last
            phase = last
        }
        guard scaled.enumerated().contains(where: { $0.offset % 2 == 1 && $0.element > 0 }) else { return nil }
        lengthsPoints = scaled
        periodPoints = scaled.reduce(0, +)
        phasePoints = phase
    }

    /// Adds the on pieces along `points` that meet `area` to a path, each whole.
    ///
    /// - Parameters:
    ///   - points: The line in map points, whole: the pattern starts at its first point.
    ///   - closed: Whether the line is a ring: its last point joins its first, and a dash running
    ///     through the first point is one piece.
    ///   - area: The area drawn, in map points, with room for the line's width and caps; pieces
    ///     outside it are skipped (only measured), pieces meeting it are added whole.
    ///   - pointsPerMapPoint: The zoom scale: view points per map point.
    ///   - moveTo: Starts a piece at a map point.
    ///   - lineTo: Continues the piece to a map point.
    func addDashes(
        along points: [MapPoint], closed: Bool, in area: MapRect, pointsPerMapPoint: Double,
        moveTo: (MapPoint) -> Void, lineTo: (MapPoint) -> Void
    ) {
        guard points.count >= 2, periodPoints > 0 else { return }
        var vertices = points
        if closed, let first = points.first, first != points.last { vertices.append(first) }
        // Pieces are collected first so that, in a ring, a dash through the first vertex can be
        // made one piece.
        var pieces: [[MapPoint]] = []
        // Whether the last piece ends where the previous segment ends, in the middle of a dash.
        var open = false
        var firstPieceStartsTheLine = false
        var distance = 0.0
        for index in 0..<vertices.count - 1 {
            let a = vertices[index]
            let b = vertices[index + 1]
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot() * pointsPerMapPoint
            defer { distance += length }
            guard length > 0 else { continue }
            guard let (t0, t1) = DashPattern.clip(a, b, to: area) else {
                open = false
                continue
            }
            // Dashes meeting the area are added whole (within their segment): a dash cut at the
            // area's edge would end at a rounded point, tilting it differently in each render.
            let start = distance + t0 * length
            let end = distance + t1 * length
            let segmentEnd = distance + length
            func point(at along: Double) -> MapPoint {
                let t = (along - distance) / length
                return MapPoint(x: a.x + dx * t, y: a.y + dy * t)
            }
            var stillOpen = false
            // The pattern's on intervals that meet [start, end], cycle by cycle.
            var cycle = ((start + phasePoints) / periodPoints).rounded(.down) * periodPoints - phasePoints
            cycles: while cycle < end {
                var intervalStart = cycle
                for (dashIndex, dash) in lengthsPoints.enumerated() {
                    defer { intervalStart += dash }
                    guard dashIndex % 2 == 0 else { continue }
                    let intervalEnd = intervalStart + dash
                    if intervalStart >= end { break cycles }
                    guard intervalEnd > start || (dash == 0 && intervalStart >= start) else { continue }
                    let from = max(intervalStart, distance)
                    let to = min(intervalEnd, segmentEnd)
                    if open, t0 == 0, intervalStart < start {
                        // The dash that ended the previous segment goes on round the corner.
                        pieces[pieces.count - 1].append(point(at: to))
                    } else {
                        if pieces.isEmpty { firstPieceStartsTheLine = from == 0 }
                        pieces.append([point(at: from), point(at: to)])
                    }
                    open = false
                    stillOpen = t1 == 1 && to == segmentEnd
                }
                cycle += periodPoints
            }
            open = stillOpen
        }
        // A ring whose first dash starts at its first vertex and whose last dash reaches it:
        // one dash through the vertex, as Cairo strokes a closed path.
        if closed, firstPieceStartsTheLine, open, pieces.count > 1 {
            let first = pieces.removeFirst()
            pieces[pieces.count - 1] += first.dropFirst()
        }
        for piece in pieces {
            moveTo(piece[0])
            for point in piece.dropFirst() { lineTo(point) }
        }
    }

    /// The part of segment a→b inside `rect`, as parameters 0 ≤ t0 ≤ t1 ≤ 1 (Liang–Barsky);
    /// `nil` when the segment misses it.
    static func clip(_ a: MapPoint, _ b: MapPoint, to rect: MapRect) -> (Double, Double)? {
        var t0 = 0.0
        var t1 = 1.0
        let dx = b.x - a.x
        let dy = b.y - a.y
        for (p, q) in [(-dx, a.x - rect.minX), (dx, rect.maxX - a.x), (-dy, a.y - rect.minY), (dy, rect.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }
                    if r > t0 { t0 = r }
                } else {
                    if r < t0 { return nil }
                    if r < t1 { t1 = r }
                }
            }
        }
        return (t0, t1)
    }
}
