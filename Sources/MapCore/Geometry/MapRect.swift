import Foundation

/// An axis-aligned rectangle in Web Mercator map space (MapKit's MKMapRect).
///
/// A rect whose ``maxX`` is beyond ``WebMercator/worldSize`` crosses the antimeridian: its
/// part east of it is ``remainder``. ``null`` is the identity of ``union(_:)``.
public struct MapRect: Hashable, Sendable, Codable {
    /// The north-west corner.
    public var origin: MapPoint
    /// Width and height in map points.
    public var size: MapSize

    /// Creates a rect from its north-west corner and size.
    public init(origin: MapPoint, size: MapSize) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rect from its north-west corner coordinates and size in map points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: MapPoint(x: x, y: y), size: MapSize(width: width, height: height))
    }

    /// The smallest rect containing every point; ``null`` for none.
    @inlinable
    public init<S: Sequence>(enclosing points: S) where S.Element == MapPoint {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for point in points {
            minX = min(minX, point.x)
            maxX = max(maxX, point.x)
            minY = min(minY, point.y)
            maxY = max(maxY, point.y)
        }
        self = minX.isFinite ? MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : .null
    }

    /// The whole world, from (0, 0) to (worldSize, worldSize).
    public static let world = MapRect(origin: MapPoint(x: 0, y: 0), size: .world)

    /// The empty rect that ``union(_:)`` ignores and ``intersection(_:)`` returns when nothing overlaps.
    public static let null = MapRect(x: .infinity, y: .infinity, width: 0, height: 0)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var width: Double { size.width }
    public var height: Double { size.height }
    /// The centre point.
    public var center: MapPoint { MapPoint(x: midX, y: midY) }

    /// Whether this is ``null``.
    public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }
    /// Whether the rect is null or has no area.
    public var isEmpty: Bool { isNull || size.width <= 0 || size.height <= 0 }

    /// Whether the rect reaches east of the antimeridian at ``WebMercator/worldSize``.
    public var crossesAntimeridian: Bool { !isNull && maxX > WebMercator.worldSize }

    /// The part east of the antimeridian, shifted one world west (MKMapRectRemainder);
    /// ``null`` when the rect does not cross it.
    public var remainder: MapRect {
        guard crossesAntimeridian else { return .null }
        let size = WebMercator.worldSize
        return MapRect(x: max(0, minX - size), y: minY, width: maxX - max(minX, size), height: height)
    }

    /// Whether the point lies inside or on the west/north edges (half-open, as MapKit).
    public func contains(_ point: MapPoint) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// Whether `other` lies entirely inside this rect.
    public func contains(_ other: MapRect) -> Bool {
        guard !isNull, !other.isNull else { return false }
        return other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// Whether the rects share any area.
    public func intersects(_ other: MapRect) -> Bool {
        !intersection(other).isNull
    }

    /// Whether the rects overlap or touch; unlike ``intersects(_:)``, a point's empty bounds
    /// meet the rects they lie in or on.
    public func meets(_ other: MapRect) -> Bool {
        maxX >= other.minX && minX <= other.maxX && maxY >= other.minY && minY <= other.maxY
    }

    /// The rect moved by `dx`, `dy` map points.
    public func offsetBy(dx: Double, dy: Double) -> MapRect {
        MapRect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// The rect grown (negative values shrink it) by `dx` on the left and right, `dy` on top and bottom.
    public func insetBy(dx: Double, dy: Double) -> MapRect {
        let newWidth = width - 2 * dx
        let newHeight = height - 2 * dy
        guard !isNull, newWidth >= 0, newHeight >= 0 else { return .null }
        return MapRect(x: minX + dx, y: minY + dy, width: newWidth, height: newHeight)
    }
}

// MARK: - Union and intersection

extension MapRect {
    /// The smallest rect containing both; ``null`` is ignored.
    public func union(_ other: MapRect) -> MapRect {
        if isNull { return other }
        if other.isNull { return self }
        let x = min(minX, other.minX)
        let y = min(minY, other.minY)
        return MapRect(x: x, y: y, width: max(maxX, other.maxX) - x, height: max(maxY, other.maxY) - y)
    }

    /// Grows this rect to contain `other`.
    public mutating func formUnion(_ other: MapRect) {
        self = union(other)
    }

    /// The area both rects cover; ``null`` when they do not overlap.
    ///
    /// Rects that only touch along an edge have an intersection of zero width or height.
    public func intersection(_ other: MapRect) -> MapRect {
        guard !isNull, !other.isNull else { return .null }
        let x = max(minX, other.minX)
        let y = max(minY, other.minY)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right >= x, bottom >= y else { return .null }
        return MapRect(x: x, y: y, width: right - x, height: bottom - y)
    }

    /// Shrinks this rect to the area it shares with `other`.
    public mutating func formIntersection(_ other: MapRect) {
        self = intersection(other)
    }
}
