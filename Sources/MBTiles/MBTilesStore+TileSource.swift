public import Foundation
public import MapCore
public import TileSources

/// An MBTiles file is a tile source: tiles by address (``tile(at:)``, ``tiles(at:)`` in one read
/// transaction), its `metadata` table as ``TileMetadata`` and its tiles in file order (zoom,
/// column, TMS row). Errors are ``MBTilesError``s naming the file.
extension MBTilesStore: TileSource {
    /// The file's path.
    public var sourceDescription: String { path }

    /// The file.
    public var fileURL: URL? { url }

    /// Calls `body` with every tile, in file order (see ``forEachTile(zoomLevels:_:)``).
    public func forEachTile(_ body: (TileID, Data) throws -> Void) throws {
        try forEachTile(zoomLevels: nil, body)
    }
}
