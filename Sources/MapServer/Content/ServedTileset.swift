public import Foundation
import MapCore
public import TileStore
public import Tilesets

/// An MBTiles or PMTiles file served as it is under `/tilesets/NAME/…`.
public struct ServedTileset: Sendable {
    /// The name in URLs: the file's name without its extension.
    public var name: String
    /// The open file.
    public var reader: TilesetReader
    /// Its metadata, read once.
    public var metadata: MBTilesMetadata

    /// Opens a tileset file.
    ///
    /// - Parameter name: The name in URLs. The default is the file's name without its extension.
    /// - Throws: ``TilesetsError`` naming the file.
    public init(url: URL, name: String? = nil) throws(TilesetsError) {
        reader = try TilesetReader(url: url)
        metadata = try reader.metadata()
        self.name = name ?? url.deletingPathExtension().lastPathComponent
    }

    /// The file extension of its tiles: png, jpg, webp or pbf.
    public var fileExtension: String {
        switch metadata.format {
        case .jpg: "jpg"
        case .webp: "webp"
        case .pbf: "pbf"
        default: "png"
        }
    }

    /// Whether a tile lies within the tileset's zooms and bounds.
    func covers(_ tile: TileID) -> Bool {
        if let minZoom = metadata.minZoom, tile.z < minZoom { return false }
        if let maxZoom = metadata.maxZoom, tile.z > maxZoom { return false }
        if let bounds = metadata.bounds {
            // The tile's edges as they are, not normalised: a tile ending at 180° must not end at -180°.
            let side = 360 / Double(1 << tile.z)
            let west = Double(tile.x) * side - 180, east = west + side
            let region = tile.region
            let crossesAntimeridian = bounds.east < bounds.west
            let overlapsLongitudes = crossesAntimeridian
                ? east >= bounds.west || west <= bounds.east
                : east >= bounds.west && west <= bounds.east
            if !overlapsLongitudes || region.north < bounds.south || region.south > bounds.north { return false }
        }
        return true
    }
}
