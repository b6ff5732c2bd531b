import Foundation

/// A rectangle of longitudes and latitudes in degrees, as RFC 7946 §5 orders a bbox
/// (west, south, east, north) and a GeoPackage envelope stores it (min x, max x, min y, max y).
///
/// This box never crosses the antimeridian: `west <= east`. A query that crosses it is split
/// into two boxes, one per world copy (GeoData's `MapRect.worldCopies`). MBTiles metadata's
/// `bounds` use it too.
public struct BoundingBox: Hashable, Sendable {
    /// Smallest longitude, in degrees.
    public var west: Double
    /// Smallest latitude, in degrees.
    public var south: Double
    /// Largest longitude, in degrees.
    public var east: Double
    /// Largest latitude, in degrees.
    public var north: Double

    /// Creates a box from its edges in degrees; `west <= east` and `south <= north` are expected.
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// The whole world, [-180, 180] × [-90, 90].
    public static let world = BoundingBox(west: -180, south: -90, east: 180, north: 90)

    /// Whether the boxes share any point, edges included.
    public func intersects(_ other: BoundingBox) -> Bool {
        west <= other.east && other.west <= east && south <= other.north && other.south <= north
    }

    /// The smallest box containing both.
    public func union(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(
            west: min(west, other.west), south: min(south, other.south),
            east: max(east, other.east), north: max(north, other.north)
        )
    }

    /// The region the box covers.
    ///
    /// - Throws: ``MapCoreError`` naming the edge that is out of range.
    public func region() throws(MapCoreError) -> CoordinateRegion {
        try CoordinateRegion(west: west, south: south, east: east, north: north)
    }

    /// Grows this box to contain `other`.
    public mutating func formUnion(_ other: BoundingBox) {
        self = union(other)
    }

    /// The box of the part of the world a map rect covers; the rect must lie within
    /// [0, worldSize] on x. Rects reaching the world's top or bottom edge reach the pole, since
    /// the Mercator square stops at ±85.05° but data (Antarctica) goes further.
    public init(_ rect: MapRect) {
        let size = WebMercator.worldSize
        let west = min(1, max(0, rect.minX / size)) * 360 - 180
        let east = min(1, max(0, rect.maxX / size)) * 360 - 180
        let north = rect.minY <= 0 ? 90 : MapPoint(x: 0, y: rect.minY).coordinate.latitude
        let south = rect.maxY >= size ? -90 : MapPoint(x: 0, y: rect.maxY).coordinate.latitude
        self.init(west: west, south: south, east: east, north: north)
    }

}
