import Foundation

/// A point in Web Mercator map space, in map points (MapKit's MKMapPoint).
///
/// x grows east from the antimeridian (0) to ``WebMercator/worldSize``; y grows south from
/// latitude +85.05112878 (0). Map points outside [0, worldSize] on x are copies of the world
/// east or west of it.
public struct MapPoint: Hashable, Sendable, Codable {
    /// Map points east of the antimeridian.
    public var x: Double
    /// Map points south of the world's top edge.
    public var y: Double

    /// Creates a map point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The map point of a coordinate; the latitude is clamped to ±``WebMercator/maximumLatitude``.
    ///
    /// For example, `MapPoint(Coordinate(latitude: 0, longitude: 0))` is the world's centre,
    /// (134217728, 134217728).
    public init(_ coordinate: Coordinate) {
        let latitudeRadians = WebMercator.clampedLatitude(coordinate.latitude) * .pi / 180
        x = (coordinate.longitude + 180) / 360 * WebMercator.worldSize
        y = (0.5 - atanh(sin(latitudeRadians)) / (2 * .pi)) * WebMercator.worldSize
    }

    /// The coordinate at this map point; x is wrapped into the world, y clamped into it.
    public var coordinate: Coordinate {
        let size = WebMercator.worldSize
        let clampedY = min(size, max(0, y))
        let latitude = atan(sinh(.pi * (1 - 2 * clampedY / size))) * 180 / .pi
        return Coordinate(uncheckedLatitude: latitude, longitude: Coordinate.wrappedLongitude(x / size * 360 - 180))
    }

    /// This point with x wrapped into [0, worldSize): the same place in the central world copy.
    public var wrapped: MapPoint {
        let size = WebMercator.worldSize
        let remainder = x.truncatingRemainder(dividingBy: size)
        return MapPoint(x: remainder < 0 ? remainder + size : remainder, y: y)
    }
}

/// A size in Web Mercator map points (MapKit's MKMapSize).
public struct MapSize: Hashable, Sendable, Codable {
    /// East–west extent in map points.
    public var width: Double
    /// North–south extent in map points.
    public var height: Double

    /// Creates a map size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The size of the whole world.
    public static let world = MapSize(width: WebMercator.worldSize, height: WebMercator.worldSize)
}

extension MapPoint {
    /// The point with `transform` applied to both coordinates, such as a rounding for output.
    public func rounded(_ transform: (Double) -> Double) -> MapPoint {
        MapPoint(x: transform(x), y: transform(y))
    }
}
