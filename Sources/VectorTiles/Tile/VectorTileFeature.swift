/// A feature of a vector tile layer (spec 4.2): an optional id, properties, and a geometry.
public struct VectorTileFeature: Sendable, Hashable {
    /// The feature's `id`, or nil when the feature has none (the field is optional; encoders
    /// that write every field write 0).
    public var id: UInt64?
    /// The kind of geometry, the feature's `type`; the default is
    /// ``VectorTileGeometryType/unknown``.
    public var type: VectorTileGeometryType
    /// The feature's properties, read from its `tags` through the layer's `keys` and `values`
    /// (spec 4.4). When a key repeats, which spec 4.4 forbids, the last pair wins.
    public var properties: [String: VectorTileValue]
    /// The geometry in the layer's tile coordinates; ``VectorTileGeometry/none`` for an unknown type.
    public var geometry: VectorTileGeometry

    public init(
        id: UInt64? = nil, type: VectorTileGeometryType, properties: [String: VectorTileValue] = [:],
        geometry: VectorTileGeometry
    ) {
        self.id = id
        self.type = type
        self.properties = properties
        self.geometry = geometry
    }
}
