/// A named layer of a vector tile (spec 4.1): features sharing one coordinate extent.
public struct VectorTileLayer: Sendable, Hashable {
    /// The layer's `name`, which every layer has.
    public var name: String
    /// The major version of the specification the layer follows, 1 or 2. The default, for a
    /// layer without a `version` field, is 1, as the schema says.
    public var version: Int
    /// How many units the tile is wide and high in the features' coordinates. The default, for
    /// a layer without an `extent` field, is ``defaultExtent`` (4096).
    public var extent: Int
    /// The features, in the order the layer holds them.
    public var features: [VectorTileFeature]
    /// Why each feature left out was left out, in the layer's order: only a tile decoded with
    /// `skippingBadFeatures` (see ``VectorTile/init(data:tile:skippingBadFeatures:)``) leaves
    /// features out; otherwise the first bad feature fails the tile. The default is none.
    public var skippedFeatures: [VectorTileError] = []

    /// The extent of a layer that does not say: 4096.
    public static let defaultExtent = 4096

    public init(
        name: String, version: Int = 1, extent: Int = VectorTileLayer.defaultExtent, features: [VectorTileFeature] = [],
        skippedFeatures: [VectorTileError] = []
    ) {
        self.name = name
        self.version = version
        self.extent = extent
        self.features = features
        self.skippedFeatures = skippedFeatures
    }
}
