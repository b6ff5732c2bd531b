import MapCore
public import MapJSON

/// A feature ready to draw: its geometry prepared for one zoom level, with its properties for
/// styling and labels.
public struct PreparedFeature: Hashable, Sendable {
    /// The feature's index in its source's ``FeatureSource/features``.
    public var sourceIndex: Int
    /// The feature's properties (`NAME`, `name`, `kind`...).
    public var properties: [String: FeatureValue]
    /// The geometry in map points, projected and simplified (and, from a query, clipped).
    public var geometry: PreparedGeometry

    /// A feature made elsewhere than from a ``FeatureSource`` (a vector tile's): `sourceIndex`
    /// is its index where it comes from.
    public init(sourceIndex: Int, properties: [String: FeatureValue], geometry: PreparedGeometry) {
        self.sourceIndex = sourceIndex
        self.properties = properties
        self.geometry = geometry
    }
}
