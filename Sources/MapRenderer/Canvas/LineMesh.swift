import MapCore
import MapStyle

/// A stroked line as MapLibre builds it for its line shader: a strip of triangles along the
/// line whose vertices carry an extrusion normal, to be widened and shaded by ``LineRasteriser``.
///
/// Each line vertex gives two mesh vertices, one either side (GL's `addCurrentVertex`); joins
/// and caps add more, with MapLibre's rules: a round join closer to straight than
/// `line-round-limit` is a miter, one whose miter is at most 2 widths a fan of triangles; a miter
/// longer than `line-miter-limit` widths is a bevel, a bevel sharper than 2 widths a flipped one;
/// a `bevel` layer's limit is 1.05. Round caps and joins are squares whose corners the shader
/// cuts off (their vertices are flagged ``Vertex/round``). A ring (a polygon's outline) is joined
/// all round and has no caps. Adjacent pieces share edges and never overlap, so a translucent line
/// is as dark at its joins as elsewhere, but a line that crosses itself darkens there, as in GL.
struct LineMesh {
    /// One mesh vertex.
    struct Vertex {
        /// The line's vertex, in view points.
        var position: ViewPoint
        /// The extrusion: a unit normal (longer at miters), scaled by the line's outset when drawn.
        var extrudeX: Double, extrudeY: Double
        /// Whether the vertex is a corner of a round cap or join.
        var round: Bool
        /// Whether the vertex lies on the left of the line (GL's "up").
        var up: Bool
        /// −1, 0 or 1: how the extrusion leans along the line (caps), for `line-offset`.
        var direction: Double
        /// How far along its line the vertex is, in view points (GL's `linesofar`, for dashes).
        var distancePoints: Double
        /// ``distancePoints`` as a fraction of the whole line's length (GL's line progress, for
        /// `line-gradient`).
        var progress: Double
    }

    /// The vertices, in the order made.
    private(set) var vertices: [Vertex] = []
    /// Triangles, as indices into ``vertices``.
    private(set) var triangles: [(Int32, Int32, Int32)] = []

    /// The last vertex added on each side, -1 before any (GL's e1 and e2).
    private var lastDown: Int32 = -1, lastUp: Int32 = -1
    /// How far along the current line the vertices being added are, in view points.
    private var distancePoints = 0.0
    /// The length of the current line, in view points.
    private var lineLengthPoints = 0.0

    /// MapLibre's triangles per degree of a fan join (`DEG_PER_TRIANGLE` 20).
    private static let degreesPerTriangle = 20.0
    /// cos(75° / 2): a corner sharper than 75° gets extra vertices near it (GL's sharp corners).
    private static let cosHalfSharpCorner = 0.7933533402912352

    /// Removes every vertex and triangle, keeping the arrays' capacity.
    mutating func removeAll() {
        vertices.removeAll(keepingCapacity: true)
        triangles.removeAll(keepingCapacity: true)
        lastDown = -1
        lastUp = -1
    }

    /// Adds a line (or a ring, when `closed`) through `points`, in view points.
    ///
    /// - Parameters:
    ///   - sharpCornerOffsetPoints: How far from a sharp corner GL adds a vertex on each side:
    ///     15 pixels of the tile's zoom, in view points.
    mutating func addLine(
        _ points: [ViewPoint], closed: Bool, join: MapStyle.LineJoin, cap: MapStyle.LineCap,
        miterLimit: Double, roundLimit: Double, sharpCornerOffsetPoints: Double
    ) {
        var line: [ViewPoint] = []
        line.reserveCapacity(points.count + 1)
        for point in points where line.last != point { line.append(point) }
        if closed, line.count > 1, line.first != line.last { line.append(line[0]) }
        let count = line.count
        guard count >= (closed ? 3 : 2) else { return }
        let miterLimit = join == .bevel ? 1.05 : miterLimit
        lastDown = -1
        lastUp = -1
        distancePoints = 0
        lineLengthPoints = zip(line, line.dropFirst()).reduce(0) { $0 + distance($1.0, $1.1) }

        func unitNormal(_ a: ViewPoint, _ b: ViewPoint) -> (x: Double, y: Double) {
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            // GL's perp of the unit direction: (-y, x).
            return (-dy / length, dx / length)
        }
        var current: ViewPoint?
        var previous: ViewPoint?
        var previousNormal: (x: Double, y: Double)?
        var nextNormal: (x: Double, y: Double)?
        if closed {
            current = line[count - 2]
            nextNormal = unitNormal(line[count - 2], line[0])
        }
        for index in 0..<count {
            let next: ViewPoint? = index == count - 1 ? (closed ? line[1] : nil) : line[index + 1]
            if let nextNormal { previousNormal = nextNormal }
            if let current { previous = current }
            var vertex = line[index]
            current = vertex
            nextNormal = next.map { unitNormal(vertex, $0) } ?? previousNormal
            let prevNormal = previousNormal ?? nextNormal!
            previousNormal = prevNormal
            let nextN = nextNormal!
            var joinX = prevNormal.x + nextN.x
            var joinY = prevNormal.y + nextN.y
            let joinLength = (joinX * joinX + joinY * joinY).squareRoot()
            if joinLength > 0 {
                joinX /= joinLength
                joinY /= joinLength
            }
            let cosAngle = prevNormal.x * nextN.x + prevNormal.y * nextN.y
            // The join normal's dot product with the next normal, (1 + cos) / |sum|, is |sum| / 2
            // for unit normals; computed as a dot product it can come out negative where a line
            // turns back on itself (the sum is rounding noise), which made a miter hundreds of
            // widths long pointing anywhere.
            let cosHalfAngle = joinLength / 2
            let miterLength = cosHalfAngle != 0 ? 1 / cosHalfAngle : .infinity
            let approximateAngle = 2 * (2 - 2 * cosHalfAngle).squareRoot()
            let isSharpCorner = cosHalfAngle < Self.cosHalfSharpCorner && previous != nil && next != nil
            let turnsLeft = prevNormal.x * nextN.y - prevNormal.y * nextN.x > 0

            if isSharpCorner, index > 0, let before = previous {
                let length = distance(vertex, before)
                if length > 2 * sharpCornerOffsetPoints {
                    let t = sharpCornerOffsetPoints / length
                    let moved = ViewPoint(
                        x: vertex.x - (vertex.x - before.x) * t, y: vertex.y - (vertex.y - before.y) * t)
                    distancePoints += distance(before, moved)
                    addPair(moved, normal: prevNormal, endLeft: 0, endRight: 0)
                    previous = moved
                }
            }
            enum Piece { case miter, bevel, flipBevel, fakeRound, round, butt, square }
            let middle = previous != nil && next != nil
            var piece: Piece
            if middle {
                switch join {
                case .miter: piece = .miter
                case .bevel: piece = .bevel
                case .round: piece = miterLength < roundLimit ? .miter : miterLength <= 2 ? .fakeRound : .round
                }
            } else if closed {
                piece = .butt
            } else {
                switch cap {
                case .butt: piece = .butt
                case .round: piece = .round
                case .square: piece = .square
                }
            }
            if piece == .miter, miterLength > miterLimit { piece = .bevel }
            if piece == .bevel {
                if miterLength > 2 { piece = .flipBevel }
                if miterLength < miterLimit { piece = .miter }
            }
            if let previous { distancePoints += distance(previous, vertex) }
            switch piece {
            case .miter:
                addPair(vertex, normal: (joinX * miterLength, joinY * miterLength), endLeft: 0, endRight: 0)
            case .flipBevel:
                var normal: (x: Double, y: Double)
                if miterLength > 100 {
                    normal = (-nextN.x, -nextN.y)
                } else {
                    let sumX = prevNormal.x + nextN.x
                    let sumY = prevNormal.y + nextN.y
                    let differenceX = prevNormal.x - nextN.x
                    let differenceY = prevNormal.y - nextN.y
                    let bevelLength =
                        miterLength * (sumX * sumX + sumY * sumY).squareRoot()
                        / (differenceX * differenceX + differenceY * differenceY).squareRoot()
                    let sign = turnsLeft ? -1.0 : 1.0
                    normal = (-joinY * bevelLength * sign, joinX * bevelLength * sign)
                }
                addPair(vertex, normal: normal, endLeft: 0, endRight: 0)
                addPair(vertex, normal: (-normal.x, -normal.y), endLeft: 0, endRight: 0)
            case .bevel, .fakeRound:
                let offset = -(miterLength * miterLength - 1).squareRoot()
                let offsetA = turnsLeft ? offset : 0
                let offsetB = turnsLeft ? 0 : offset
                if previous != nil { addPair(vertex, normal: prevNormal, endLeft: offsetA, endRight: offsetB) }
                if piece == .fakeRound {
                    let triangles = Int((approximateAngle * 180 / .pi / Self.degreesPerTriangle).rounded())
                    for step in stride(from: 1, to: max(triangles, 1), by: 1) {
                        var t = Double(step) / Double(triangles)
                        if t != 0.5 {
                            // GL's approximate spherical interpolation of the two normals.
                            let t2 = t - 0.5
                            let a = 1.0904 + cosAngle * (-3.2452 + cosAngle * (3.55645 - cosAngle * 1.43519))
                            let b = 0.848013 + cosAngle * (-1.06021 + cosAngle * 0.215638)
                            t += t * t2 * (t - 1) * (a * t2 * t2 + b)
                        }
                        var x = prevNormal.x + (nextN.x - prevNormal.x) * t
                        var y = prevNormal.y + (nextN.y - prevNormal.y) * t
                        let length = (x * x + y * y).squareRoot()
                        let sign = turnsLeft ? -1.0 : 1.0
                        x = x / length * sign
                        y = y / length * sign
                        addHalf(vertex, extrudeX: x, extrudeY: y, round: false, up: turnsLeft, direction: 0)
                    }
                }
                if next != nil { addPair(vertex, normal: nextN, endLeft: -offsetA, endRight: -offsetB) }
            case .butt:
                addPair(vertex, normal: (joinX, joinY), endLeft: 0, endRight: 0)
            case .square:
                let offset: Double = previous != nil ? 1 : -1
                addPair(vertex, normal: (joinX, joinY), endLeft: offset, endRight: offset)
            case .round:
                if previous != nil {
                    addPair(vertex, normal: prevNormal, endLeft: 0, endRight: 0)
                    addPair(vertex, normal: prevNormal, endLeft: 1, endRight: 1, round: true)
                }
                if next != nil {
                    addPair(vertex, normal: nextN, endLeft: -1, endRight: -1, round: true)
                    addPair(vertex, normal: nextN, endLeft: 0, endRight: 0)
                }
            }
            if isSharpCorner, index < count - 1, let after = next {
                let length = distance(vertex, after)
                if length > 2 * sharpCornerOffsetPoints {
                    let t = sharpCornerOffsetPoints / length
                    let moved = ViewPoint(
                        x: vertex.x + (after.x - vertex.x) * t, y: vertex.y + (after.y - vertex.y) * t)
                    distancePoints += distance(vertex, moved)
                    vertex = moved
                    addPair(vertex, normal: nextN, endLeft: 0, endRight: 0)
                    current = vertex
                }
            }
        }
    }

    private func distance(_ a: ViewPoint, _ b: ViewPoint) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Two vertices either side of `point`, their extrusions leaning `endLeft` and `endRight`
    /// along the line (GL's `addCurrentVertex`).
    private mutating func addPair(
        _ point: ViewPoint, normal: (x: Double, y: Double), endLeft: Double, endRight: Double, round: Bool = false
    ) {
        addHalf(
            point, extrudeX: normal.x + normal.y * endLeft, extrudeY: normal.y - normal.x * endLeft, round: round,
            up: false, direction: endLeft)
        addHalf(
            point, extrudeX: -normal.x + normal.y * endRight, extrudeY: -normal.y - normal.x * endRight, round: round,
            up: true, direction: -endRight)
    }

    /// One vertex, making a triangle with the last vertex of each side (GL's `addHalfVertex`).
    private mutating func addHalf(
        _ point: ViewPoint, extrudeX: Double, extrudeY: Double, round: Bool, up: Bool, direction: Double
    ) {
        // GL stores the extrusion in bytes, 63 to the unit.
        let quantisedX = (extrudeX * 63).rounded() / 63
        let quantisedY = (extrudeY * 63).rounded() / 63
        let index = Int32(vertices.count)
        vertices.append(
            Vertex(
                position: point, extrudeX: quantisedX, extrudeY: quantisedY, round: round, up: up,
                direction: direction == 0 ? 0 : (direction < 0 ? -1 : 1), distancePoints: distancePoints,
                progress: lineLengthPoints > 0 ? min(1, distancePoints / lineLengthPoints) : 0))
        if lastDown >= 0, lastUp >= 0 { triangles.append((lastDown, index, lastUp)) }
        if up { lastUp = index } else { lastDown = index }
    }
}
