public import MapCore

/// Geometry ready to draw: projected to Web Mercator map points, simplified for one zoom level,
/// and split by kind, as a renderer strokes, fills and marks them.
///
/// A GeometryCollection's members land in the matching lists. Coordinates are map points
/// (MapCore's map space: 256 × 2^20 per world side, y growing south); the renderer maps them to
/// pixels with its camera.
public struct PreparedGeometry: Hashable, Sendable {
    /// Points to mark (Point, MultiPoint).
    public var points: [MapPoint]
    /// Polylines to stroke (LineString, MultiLineString), each of at least two points.
    public var lines: [[MapPoint]]
    /// Polygons to fill: each a list of closed rings, exterior first, then holes. Fill with the
    /// even-odd rule, which needs no particular ring orientation.
    public var polygons: [[[MapPoint]]]

    /// Creates prepared geometry.
    public init(points: [MapPoint] = [], lines: [[MapPoint]] = [], polygons: [[[MapPoint]]] = []) {
        self.points = points
        self.lines = lines
        self.polygons = polygons
    }

    /// Projects a geometry and simplifies it at `tolerance`.
    ///
    /// Lines and rings are simplified with ``Simplification/douglasPeucker(_:tolerance:)``.
    /// A ring smaller than the tolerance both ways, or left with fewer than four points, is
    /// dropped; a polygon whose exterior is dropped goes with its holes. Lines keep at least
    /// their endpoints, so a short GPX track still shows as a dot.
    ///
    /// - Parameters:
    ///   - geometry: Longitude/latitude geometry.
    ///   - tolerance: The simplification tolerance in map points; 0 keeps every vertex.
    public init(projecting geometry: Geometry, tolerance: Double) {
        self.init()
        add(geometry, tolerance: tolerance)
    }

    private mutating func add(_ geometry: Geometry, tolerance: Double) {
        func project(_ positions: [Position]) -> [MapPoint] {
            positions.compactMap(\.mapPoint)
        }
        func line(_ positions: [Position]) -> [MapPoint]? {
            let simplified = Simplification.douglasPeucker(project(positions), tolerance: tolerance)
            return simplified.count >= 2 ? simplified : nil
        }
        func polygon(_ rings: [[Position]]) -> [[MapPoint]]? {
            guard let exterior = rings.first.flatMap({ ring(project($0)) }) else { return nil }
            return [exterior] + rings.dropFirst().compactMap { ring(project($0)) }
        }
        func ring(_ points: [MapPoint]) -> [MapPoint]? {
            let bounds = MapRect(enclosing: points)
            guard points.count >= 4, bounds.width >= tolerance || bounds.height >= tolerance else { return nil }
            let simplified = Simplification.douglasPeucker(points, tolerance: tolerance)
            return simplified.count >= 4 ? simplified : nil
        }

        switch geometry {
        case .point(let position):
            if let point = position.mapPoint { points.append(point) }
        case .multiPoint(let positions):
            points += project(positions)
        case .lineString(let positions):
            if let line = line(positions) { lines.append(line) }
        case .multiLineString(let members):
            lines += members.compactMap(line)
        case .polygon(let rings):
            if let polygon = polygon(rings) { polygons.append(polygon) }
        case .multiPolygon(let members):
            polygons += members.compactMap(polygon)
        case .geometryCollection(let members):
            for member in members { add(member, tolerance: tolerance) }
        }
    }

    /// Whether there is nothing to draw.
    public var isEmpty: Bool { points.isEmpty && lines.isEmpty && polygons.isEmpty }

    /// The geometry's type as legacy filters' `$type` names it: `Polygon` when it has polygons,
    /// else `LineString` with lines, else `Point` with points; nil when empty.
    public var legacyTypeName: String? {
        if !polygons.isEmpty { return "Polygon" }
        if !lines.isEmpty { return "LineString" }
        if !points.isEmpty { return "Point" }
        return nil
    }

    /// The number of map points held.
    public var vertexCount: Int {
        points.count + lines.reduce(0) { $0 + $1.count } + polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
    }

    /// The rect enclosing every map point; ``MapRect/null`` when empty.
    public var bounds: MapRect {
        var rect = MapRect(enclosing: points)
        for line in lines { rect.formUnion(MapRect(enclosing: line)) }
        for polygon in polygons { if let exterior = polygon.first { rect.formUnion(MapRect(enclosing: exterior)) } }
        return rect
    }

    /// The geometry cut to `rect`: points outside dropped, lines split into the pieces inside
    /// (``Clipping/clipLine(_:to:)``), rings clipped (``Clipping/clipRing(_:to:)``); a polygon
    /// whose exterior is cut away goes with its holes.
    public func clipped(to rect: MapRect) -> PreparedGeometry {
        PreparedGeometry(
            points: points.filter { $0.x >= rect.minX && $0.x <= rect.maxX && $0.y >= rect.minY && $0.y <= rect.maxY },
            lines: lines.flatMap { Clipping.clipLine($0, to: rect) },
            polygons: polygons.compactMap { rings in
                guard let exterior = rings.first.flatMap({ Clipping.clipRing($0, to: rect) }) else { return nil }
                return [exterior] + rings.dropFirst().compactMap { Clipping.clipRing($0, to: rect) }
            }
        )
    }

    /// The geometry moved `dx` map points east: how a world copy is drawn (see ``WorldCopy``).
    public func offsetBy(dx: Double) -> PreparedGeometry {
        guard dx != 0 else { return self }
        func move(_ points: [MapPoint]) -> [MapPoint] { points.map { MapPoint(x: $0.x + dx, y: $0.y) } }
        return PreparedGeometry(
            points: move(points),
            lines: lines.map(move),
            polygons: polygons.map { $0.map(move) }
        )
    }

    /// Whether `point` lies inside one of the polygons (even-odd rule: inside the exterior and
    /// outside its holes). Points and lines contain nothing.
    ///
    /// For example, the basemap's France contains the map point of Paris.
    public func contains(_ point: MapPoint) -> Bool {
        polygons.contains { rings in
            rings.reduce(false) { inside, ring in inside != Self.ring(ring, contains: point) }
        }
    }

    /// Ray casting towards +x: a point is inside when the ray crosses the ring an odd number of times.
    private static func ring(_ ring: [MapPoint], contains point: MapPoint) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst()) where (a.y > point.y) != (b.y > point.y) {
            let crossingX = a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x)
            if point.x < crossingX { inside.toggle() }
        }
        return inside
    }
}
