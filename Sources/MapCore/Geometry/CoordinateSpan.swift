/// The extent of a ``CoordinateRegion``, in degrees.
///
/// As in MapKit, one degree of latitude is about 111 km everywhere, while one degree of
/// longitude shrinks with the cosine of the latitude.
public struct CoordinateSpan: Hashable, Sendable {
    /// North–south extent in degrees, in [0, 180].
    public let latitudeDelta: Double
    /// East–west extent in degrees, in [0, 360].
    public let longitudeDelta: Double

    /// Creates a span, rejecting deltas that are not finite or out of range.
    ///
    /// - Throws: ``MapCoreError/invalidSpan(name:value:range:)`` naming the bad delta.
    public init(latitudeDelta: Double, longitudeDelta: Double) throws(MapCoreError) {
        guard latitudeDelta.isFinite, (0...180).contains(latitudeDelta) else {
            throw .invalidSpan(name: "latitudeDelta", value: latitudeDelta, range: 0...180)
        }
        guard longitudeDelta.isFinite, (0...360).contains(longitudeDelta) else {
            throw .invalidSpan(name: "longitudeDelta", value: longitudeDelta, range: 0...360)
        }
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }

    /// Creates a span from deltas the caller computed, clamped into range.
    init(uncheckedLatitudeDelta latitudeDelta: Double, longitudeDelta: Double) {
        self.latitudeDelta = min(180, max(0, latitudeDelta))
        self.longitudeDelta = min(360, max(0, longitudeDelta))
    }
}

extension CoordinateSpan: Codable {
    private enum CodingKeys: String, CodingKey { case latitudeDelta, longitudeDelta }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            latitudeDelta: container.decode(Double.self, forKey: .latitudeDelta),
            longitudeDelta: container.decode(Double.self, forKey: .longitudeDelta)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latitudeDelta, forKey: .latitudeDelta)
        try container.encode(longitudeDelta, forKey: .longitudeDelta)
    }
}
