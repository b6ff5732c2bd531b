public import MapCore

/// A position in a geographic CRS, longitude first: RFC 7946's position, WKB's point.
///
/// Unlike MapCore's `Coordinate`, a position is not validated when made: readers check their
/// input (GeoJSON rejects out-of-range values, naming the feature), and a position costs just
/// its two doubles, which keeps thousands of country outlines small. Elevation and measures
/// (Z and M) are dropped by the readers.
public struct Position: Hashable, Sendable {
    /// Degrees east of the prime meridian, nominally in [-180, 180].
    public var longitude: Double
    /// Degrees north of the equator, nominally in [-90, 90].
    public var latitude: Double

    /// Creates a position, longitude first as in GeoJSON and WKB.
    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }

    /// Creates a position from a validated coordinate.
    public init(_ coordinate: Coordinate) {
        self.init(longitude: coordinate.longitude, latitude: coordinate.latitude)
    }

    /// The Web Mercator map point (MapCore's map space). Values are clamped into
    /// [-180, 180] × [-90, 90] first, and the latitude to ±``WebMercator/maximumLatitude``.
    /// A position that is not finite gives `nil`.
    public var mapPoint: MapPoint? {
        guard longitude.isFinite, latitude.isFinite else { return nil }
        let clamped = try? Coordinate(latitude: min(90, max(-90, latitude)), longitude: min(180, max(-180, longitude)))
        return clamped.map(MapPoint.init)
    }
}

extension Position {
    /// A position from a `(longitude, latitude)` pair, for literals.
    public init(_ pair: (Double, Double)) {
        self.init(longitude: pair.0, latitude: pair.1)
    }
}
