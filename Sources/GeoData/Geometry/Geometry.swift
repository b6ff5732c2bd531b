public import MapCore

/// A geometry in a geographic CRS (longitude, latitude in degrees): the seven types that
/// RFC 7946 §3.1 and the OGC Simple Features share.
///
/// A polygon is a list of linear rings: the exterior first, then the holes. Each ring is
/// closed (its last position repeats its first) and has at least four positions
/// (RFC 7946 §3.1.6). An empty geometry (WKB `POINT EMPTY`, a GeoPackage empty flag) is a
/// case with no positions, such as `.multiPoint([])`; see ``isEmpty``.
///
/// For example, a square with a square hole:
///
/// ```swift
/// let outer = [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)].map(Position.init)
/// let hole = [(4, 4), (4, 6), (6, 6), (6, 4), (4, 4)].map(Position.init)
/// let square = Geometry.polygon([outer, hole])
/// ```
public indirect enum Geometry: Hashable, Sendable {
    case point(Position)
    case multiPoint([Position])
    case lineString([Position])
    case multiLineString([[Position]])
    /// Rings: exterior first, then holes.
    case polygon([[Position]])
    /// Polygons, each as rings: exterior first, then holes.
    case multiPolygon([[[Position]]])
    case geometryCollection([Geometry])
}

extension Geometry {
    /// Whether the geometry holds no position at all.
    public var isEmpty: Bool {
        var empty = true
        forEachPosition { _ in empty = false }
        return empty
    }

    /// The smallest box containing every position, or `nil` for an empty geometry.
    public var boundingBox: BoundingBox? {
        var west = Double.infinity
        var south = Double.infinity
        var east = -Double.infinity
        var north = -Double.infinity
        forEachPosition { position in
            west = min(west, position.longitude)
            east = max(east, position.longitude)
            south = min(south, position.latitude)
            north = max(north, position.latitude)
        }
        guard west.isFinite, south.isFinite else { return nil }
        return BoundingBox(west: west, south: south, east: east, north: north)
    }

    /// The map rect enclosing every position; ``MapRect/null`` for an empty geometry.
    var mapRect: MapRect {
        boundingBox?.mapRect ?? .null
    }

    /// Calls `body` with every position, in order.
    public func forEachPosition(_ body: (Position) -> Void) {
        switch self {
        case .point(let position):
            body(position)
        case .multiPoint(let positions), .lineString(let positions):
            positions.forEach(body)
        case .multiLineString(let lines), .polygon(let lines):
            for line in lines { line.forEach(body) }
        case .multiPolygon(let polygons):
            for polygon in polygons { for ring in polygon { ring.forEach(body) } }
        case .geometryCollection(let geometries):
            for geometry in geometries { geometry.forEachPosition(body) }
        }
    }
}
