public import Foundation
public import MapCore
import MapUtilities

/// A decoded Mapbox Vector Tile, version 2.1 of the specification: named layers of features with
/// properties and point, line and polygon geometry in tile coordinates.
///
/// For example:
///
/// ```swift
/// let tile = try TileID(z: 14, x: 9326, y: 4742)
/// let vectorTile = try VectorTile(data: data, tile: tile)
/// if let roads = vectorTile.layer(named: "roads") {
///     for feature in roads.features {
///         let shape = feature.geometry.mapPoints(in: tile, extent: roads.extent)
///     }
/// }
/// ```
///
/// Specification: <https://github.com/mapbox/vector-tile-spec/tree/master/2.1>.
public struct VectorTile: Sendable, Hashable {
    /// The layers, in the order the tile holds them.
    public var layers: [VectorTileLayer]

    /// The most bytes compressed tile data may decompress to: 64 MiB, over a hundred times the
    /// 500 KB that tilers such as Tippecanoe aim for, and a guard against a small hostile
    /// stream asking for gigabytes.
    public static let maximumDecompressedByteCount = 64 << 20

    public init(layers: [VectorTileLayer]) {
        self.layers = layers
    }

    /// Decodes a tile from its bytes: raw protocol buffers, or gzip (they start `1F 8B`) or
    /// zlib (`78 9C` and the like) compressed, as servers and MBTiles files often store them.
    ///
    /// Empty data is a valid tile of no layers. Fields the specification does not define are
    /// skipped, as protocol buffers require. Decoding is strict where data would be misread
    /// and lenient where encoders are known to be sloppy; see ``VectorTileGeometry``.
    ///
    /// - Parameters:
    ///   - data: The tile's bytes.
    ///   - tile: The tile's address, used only to name the tile in errors. The default is none.
    ///   - skippingBadFeatures: Whether a feature that cannot be read (its tags or geometry
    ///     broken) is left out, its error kept in its layer's ``VectorTileLayer/skippedFeatures``,
    ///     instead of failing the tile: what a renderer wants, one broken feature among thousands
    ///     costing that feature only. The default is false (strict).
    /// - Throws: ``VectorTileError``, naming the tile, layer and feature, for data that does not
    ///   decompress, is not protocol buffers, or breaks the specification in a way that would be
    ///   misread. Never crashes on damaged or hostile data.
    public init(data: Data, tile: TileID? = nil, skippingBadFeatures: Bool = false) throws(VectorTileError) {
        try self.init(undecoded: UndecodedVectorTile(data: data, tile: tile), skippingBadFeatures: skippingBadFeatures)
    }

    /// The first layer named `name`, or nil. (Spec 4.1 forbids two layers of one name.)
    public func layer(named name: String) -> VectorTileLayer? {
        layers.first { $0.name == name }
    }
}
