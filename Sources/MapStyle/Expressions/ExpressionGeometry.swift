import Foundation
import MapJSON

/// A geometry in longitude and latitude, as `within` and `distance` read it: a feature's, or
/// the GeoJSON written in the expression. Points, lines and polygons (rings, the first outer)
/// are kept apart; a multi-geometry is several of one kind.
public struct GeoShapes: Hashable, Sendable {
    /// A position: longitude, latitude in degrees.
    public typealias Position = SIMD2<Double>

    public var points: [Position] = []
    public var lines: [[Position]] = []
    public var polygons: [[[Position]]] = []

    public init(points: [Position] = [], lines: [[Position]] = [], polygons: [[[Position]]] = []) {
        self.points = points
        self.lines = lines
        self.polygons = polygons
    }

    /// Reads GeoJSON: a geometry, a Feature or a FeatureCollection; nil when it holds no geometry.
    init?(geoJSON json: JSONValue) {
        func position(_ json: JSONValue) -> Position? {
            guard case .array(let items) = json, items.count >= 2, case .number(let x) = items[0],
                case .number(let y) = items[1]
            else { return nil }
            return Position(x, y)
        }
        func positions(_ json: JSONValue) -> [Position]? {
            guard case .array(let items) = json else { return nil }
            let list = items.compactMap(position)
            return list.count == items.count ? list : nil
        }
        func rings(_ json: JSONValue) -> [[Position]]? {
            guard case .array(let items) = json else { return nil }
            let list = items.compactMap(positions)
            return list.count == items.count ? list : nil
        }
        func add(_ json: JSONValue, to shapes: inout GeoShapes) -> Bool {
            guard case .string(let type) = json["type"] else { return false }
            switch type {
            case "FeatureCollection":
                guard case .array(let features) = json["features"] else { return false }
                for feature in features { _ = add(feature, to: &shapes) }
                return true
            case "Feature":
                guard let geometry = json["geometry"] else { return false }
                return add(geometry, to: &shapes)
            case "GeometryCollection":
                guard case .array(let geometries) = json["geometries"] else { return false }
                for geometry in geometries { _ = add(geometry, to: &shapes) }
                return true
            default:
                guard let coordinates = json["coordinates"] else { return false }
                switch type {
                case "Point":
                    guard let p = position(coordinates) else { return false }
                    shapes.points.append(p)
                case "MultiPoint":
                    guard let list = positions(coordinates) else { return false }
                    shapes.points += list
                case "LineString":
                    guard let list = positions(coordinates) else { return false }
                    shapes.lines.append(list)
                case "MultiLineString":
                    guard let list = rings(coordinates) else { return false }
                    shapes.lines += list
                case "Polygon":
                    guard let list = rings(coordinates) else { return false }
                    shapes.polygons.append(list)
                case "MultiPolygon":
                    guard case .array(let items) = coordinates else { return false }
                    for item in items {
                        guard let list = rings(item) else { return false }
                        shapes.polygons.append(list)
                    }
                default: return false
                }
                return true
            }
        }
        var shapes = GeoShapes()
        guard add(json, to: &shapes), !shapes.isEmpty else { return nil }
        self = shapes
    }

    var isEmpty: Bool { points.isEmpty && lines.isEmpty && polygons.isEmpty }

    /// The GeoJSON type name `geometry-type` gives: `Point`, `MultiLineString`...
    public var typeName: String? {
        if !points.isEmpty { return points.count == 1 ? "Point" : "MultiPoint" }
        if !lines.isEmpty { return lines.count == 1 ? "LineString" : "MultiLineString" }
        if !polygons.isEmpty { return polygons.count == 1 ? "Polygon" : "MultiPolygon" }
        return nil
    }

    // MARK: - Distance

    /// The shortest distance from `other` to these shapes, in metres, measured with a flat
    /// approximation of the WGS84 ellipsoid at the first position's latitude (as MapLibre's
    /// cheap ruler); zero inside a polygon. Nil when either is empty.
    func distance(to other: GeoShapes) -> Double? {
        guard let first = other.points.first ?? other.lines.first?.first ?? other.polygons.first?.first?.first else {
            return nil
        }
        let ruler = CheapRuler(latitude: first.y)
        var best = Double.infinity
        let mySegments = segments
        let theirSegments = other.segments
        let myPoints = points
        let theirPoints = other.points
        for p in theirPoints {
            for q in myPoints { best = min(best, ruler.distance(p, q)) }
            for s in mySegments { best = min(best, ruler.distance(p, s)) }
            if polygons.contains(where: { Self.contains($0, p) }) { return 0 }
        }
        for s in theirSegments {
            for q in myPoints { best = min(best, ruler.distance(q, s)) }
            for t in mySegments { best = min(best, ruler.distance(s, t)) }
        }
        for q in myPoints where other.polygons.contains(where: { Self.contains($0, q) }) { return 0 }
        for line in lines + polygons.flatMap({ $0 }) {
            if let p = line.first, other.polygons.contains(where: { Self.contains($0, p) }) { return 0 }
        }
        for line in other.lines + other.polygons.flatMap({ $0 }) {
            if let p = line.first, polygons.contains(where: { Self.contains($0, p) }) { return 0 }
        }
        return best.isFinite ? best : nil
    }

    private var segments: [(Position, Position)] {
        var list: [(Position, Position)] = []
        for line in lines + polygons.flatMap({ $0 }) {
            if line.count == 1 { list.append((line[0], line[0])) }
            for i in line.indices.dropLast() { list.append((line[i], line[i + 1])) }
        }
        return list
    }

    /// Whether `p` lies inside the polygon (rings by even-odd), not on its edges.
    static func contains(_ polygon: [[Position]], _ p: Position) -> Bool {
        var inside = false
        for ring in polygon {
            guard ring.count > 1 else { continue }
            var j = ring.count - 1
            for i in ring.indices {
                let a = ring[i]
                let b = ring[j]
                if onSegment(p, a, b) { return false }
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    static func onSegment(_ p: Position, _ a: Position, _ b: Position) -> Bool {
        let cross = (p.x - a.x) * (b.y - a.y) - (p.y - a.y) * (b.x - a.x)
        return abs(cross) < 1e-12 && (p.x - a.x) * (p.x - b.x) <= 0 && (p.y - a.y) * (p.y - b.y) <= 0
    }

    static func segmentsCross(_ a: Position, _ b: Position, _ c: Position, _ d: Position) -> Bool {
        func orient(_ p: Position, _ q: Position, _ r: Position) -> Double {
            (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)
        }
        let o1 = orient(a, b, c)
        let o2 = orient(a, b, d)
        let o3 = orient(c, d, a)
        let o4 = orient(c, d, b)
        return o1 * o2 < 0 && o3 * o4 < 0
    }
}

/// The polygons `within` tests against, in Web Mercator (as GL tests in tile space).
public struct GeoPolygons: Hashable, Sendable {
    var polygons: [[[GeoShapes.Position]]]

    init?(geoJSON json: JSONValue) {
        guard let shapes = GeoShapes(geoJSON: json), !shapes.polygons.isEmpty else { return nil }
        polygons = shapes.polygons.map { $0.map { $0.map(Self.mercator) } }
    }

    static func mercator(_ p: GeoShapes.Position) -> GeoShapes.Position {
        let lat = max(-85.051129, min(85.051129, p.y)) * .pi / 180
        return GeoShapes.Position((p.x + 180) / 360, (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2)
    }

    /// Whether every point, or every line, of the geometry lies inside one of the polygons;
    /// false for polygons (as GL).
    func contains(_ geometry: GeoShapes) -> Bool {
        if !geometry.points.isEmpty {
            return geometry.points.allSatisfy { p in polygons.contains { GeoShapes.contains($0, Self.mercator(p)) } }
        }
        if !geometry.lines.isEmpty {
            return geometry.lines.allSatisfy { line in
                let projected = line.map(Self.mercator)
                return polygons.contains { polygon in
                    projected.allSatisfy { GeoShapes.contains(polygon, $0) }
                        && !zip(projected, projected.dropFirst()).contains { a, b in
                            polygon.contains { ring in
                                zip(ring, ring.dropFirst() + [ring[0]]).contains {
                                    GeoShapes.segmentsCross(a, b, $0, $1)
                                }
                            }
                        }
                }
            }
        }
        return false
    }
}

/// Distances on the WGS84 ellipsoid, flattened at one latitude (Mapbox's cheap ruler).
struct CheapRuler {
    let kx, ky: Double

    init(latitude: Double) {
        let re = 6378.137
        let fe = 1 / 298.257223563
        let e2 = fe * (2 - fe)
        let rad = Double.pi / 180
        let m = rad * re * 1000
        let coslat = cos(latitude * rad)
        let w2 = 1 / (1 - e2 * (1 - coslat * coslat))
        let w = w2.squareRoot()
        kx = m * w * coslat
        ky = m * w * w2 * (1 - e2)
    }

    private func delta(_ a: GeoShapes.Position, _ b: GeoShapes.Position) -> SIMD2<Double> {
        var dx = a.x - b.x
        while dx < -180 { dx += 360 }
        while dx > 180 { dx -= 360 }
        return SIMD2(dx * kx, (a.y - b.y) * ky)
    }

    func distance(_ a: GeoShapes.Position, _ b: GeoShapes.Position) -> Double {
        let d = delta(a, b)
        return (d.x * d.x + d.y * d.y).squareRoot()
    }

    func distance(_ p: GeoShapes.Position, _ segment: (GeoShapes.Position, GeoShapes.Position)) -> Double {
        let (a, b) = segment
        var x = a.x
        var y = a.y
        var dx = b.x - x
        while dx < -180 { dx += 360 }
        while dx > 180 { dx -= 360 }
        let dxk = dx * kx
        let dyk = (b.y - y) * ky
        if dxk != 0 || dyk != 0 {
            var px = p.x - x
            while px < -180 { px += 360 }
            while px > 180 { px -= 360 }
            let t = (px * kx * dxk + (p.y - y) * ky * dyk) / (dxk * dxk + dyk * dyk)
            if t > 1 {
                x = b.x
                y = b.y
            } else if t > 0 {
                x += dx * t
                y += (b.y - y) * t
            }
        }
        return distance(p, GeoShapes.Position(x, y))
    }

    func distance(_ s: (GeoShapes.Position, GeoShapes.Position), _ t: (GeoShapes.Position, GeoShapes.Position))
        -> Double
    {
        if GeoShapes.segmentsCross(s.0, s.1, t.0, t.1) { return 0 }
        return min(distance(s.0, t), distance(s.1, t), distance(t.0, s), distance(t.1, s))
    }
}
