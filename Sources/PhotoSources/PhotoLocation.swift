import MapCore

/// The location rule every source shares: a position must be valid, and exactly 0°, 0° means "none".
///
/// Cameras without a fix and Flickr photos that were never geotagged both report 0°, 0°; a photo is
/// never placed there.
enum PhotoLocation {
    /// The coordinate for `latitude` and `longitude` in degrees, or `nil` for exactly 0°, 0°.
    ///
    /// - Throws: ``MapCoreError`` when either value is not finite or out of range.
    static func coordinate(latitude: Double, longitude: Double) throws(MapCoreError) -> Coordinate? {
        if latitude == 0 && longitude == 0 { return nil }
        return try Coordinate(latitude: latitude, longitude: longitude)
    }
}
