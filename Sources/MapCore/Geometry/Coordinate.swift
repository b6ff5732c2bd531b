import Foundation

/// A geographic position on WGS 84, in degrees.
///
/// Latitude is positive north of the equator, longitude positive east of Greenwich. The
/// initializer validates both, so a `Coordinate` always holds a position that exists:
///
/// ```swift
/// let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
/// let wrapped = try Coordinate(latitude: 10, wrappingLongitude: 190) // longitude -170
/// ```
public struct Coordinate: Hashable, Sendable {
    /// Degrees north of the equator, in [-90, 90].
    public let latitude: Double
    /// Degrees east of the prime meridian, in [-180, 180].
    public let longitude: Double

    /// Creates a coordinate, rejecting values that are not finite or out of range.
    ///
    /// - Parameters:
    ///   - latitude: Degrees north, in [-90, 90].
    ///   - longitude: Degrees east, in [-180, 180].
    /// - Throws: ``MapCoreError/invalidLatitude(_:)`` or ``MapCoreError/invalidLongitude(_:)``.
    public init(latitude: Double, longitude: Double) throws(MapCoreError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else { throw .invalidLatitude(latitude) }
        guard longitude.isFinite, (-180...180).contains(longitude) else { throw .invalidLongitude(longitude) }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a coordinate whose longitude is first wrapped into [-180, 180).
    ///
    /// - Throws: ``MapCoreError/invalidLatitude(_:)`` or ``MapCoreError/invalidLongitude(_:)`` when
    ///   either value is not finite.
    public init(latitude: Double, wrappingLongitude longitude: Double) throws(MapCoreError) {
        guard longitude.isFinite else { throw .invalidLongitude(longitude) }
        try self.init(latitude: latitude, longitude: Coordinate.wrappedLongitude(longitude))
    }

    /// Creates a coordinate from values the caller has already computed within range.
    init(uncheckedLatitude latitude: Double, longitude: Double) {
        assert(latitude.isFinite && longitude.isFinite, "non-finite coordinate")
        self.latitude = min(90, max(-90, latitude))
        self.longitude = min(180, max(-180, longitude))
    }

    /// Wraps a longitude in degrees into [-180, 180).
    ///
    /// For example, 190 becomes -170 and -540 becomes -180.
    public static func wrappedLongitude(_ longitude: Double) -> Double {
        (longitude + 180).degreesWrappedTo360 - 180
    }
}

extension Coordinate: Codable {
    private enum CodingKeys: String, CodingKey { case latitude, longitude }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            latitude: container.decode(Double.self, forKey: .latitude),
            longitude: container.decode(Double.self, forKey: .longitude)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
    }
}

extension Coordinate: CustomStringConvertible {
    /// The coordinate as `latitude,longitude` in degrees, to at most 7 decimal places (about
    /// 1 cm) without binary noise: `37.8106,-122.4194`.
    public var description: String {
        let places = Double.displayedDegreeDecimalPlaces
        return
            "\(latitude.decimalText(maximumFractionDigits: places)),\(longitude.decimalText(maximumFractionDigits: places))"
    }

    /// The coordinate with both angles rounded to `places` decimal places, for output that
    /// should carry no binary noise (a GeoJSON file, a JSON report). The default is 7 (about 1 cm).
    public func rounded(toDecimalPlaces places: Int = Double.displayedDegreeDecimalPlaces) -> Coordinate {
        // Rounding a valid latitude and longitude keeps them in range.
        (try? Coordinate(
            latitude: latitude.rounded(toDecimalPlaces: places),
            longitude: longitude.rounded(toDecimalPlaces: places))) ?? self
    }
}
