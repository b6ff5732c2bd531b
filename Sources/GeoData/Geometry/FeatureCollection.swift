public import MapCore

/// Features in order: a GeoJSON FeatureCollection (RFC 7946 §3.3), a GeoPackage table, a GPX file.
public struct FeatureCollection: Hashable, Sendable {
    /// The features, in the order the source lists them.
    public var features: [Feature]

    /// Creates a collection.
    public init(features: [Feature]) {
        self.features = features
    }

    /// The smallest box containing every feature's geometry, or `nil` when none has a position.
    public var boundingBox: BoundingBox? {
        features.compactMap { $0.geometry?.boundingBox }.reduce(nil) { $0?.union($1) ?? $1 }
    }
}
