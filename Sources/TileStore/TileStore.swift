public import Foundation
public import MapCore

/// A place that holds encoded tiles (PNG, JPEG, WebP or vector-tile bytes) by tile address.
///
/// The store does not look inside the bytes: raster sources decode them, a tile server sends them
/// as they are. ``MBTilesStore`` keeps them in an MBTiles 1.3 file, which is at once a tile cache,
/// an export format and what a tile server serves; ``MemoryTileStore`` keeps them in memory for tests.
///
/// For example:
///
/// ```swift
/// let store = try MBTilesStore(url: URL(fileURLWithPath: "Tiles/world.mbtiles"), mode: .create)
/// try store.write(pngBytes, at: TileID(z: 2, x: 1, y: 1))
/// let bytes = try store.tile(at: TileID(z: 2, x: 1, y: 1)) // pngBytes
/// ```
///
/// Every method may be called from any thread.
public protocol TileStore: Sendable {
    /// The bytes of a tile, or nil when the store has none.
    ///
    /// - Throws: ``TileStoreError`` when the store cannot be read.
    func tile(at id: TileID) throws(TileStoreError) -> Data?

    /// The bytes of several tiles at once; tiles the store does not have are absent.
    ///
    /// - Throws: ``TileStoreError`` when the store cannot be read.
    func tiles(at ids: [TileID]) throws(TileStoreError) -> [TileID: Data]

    /// Stores the bytes of a tile, replacing any it had.
    ///
    /// - Throws: ``TileStoreError`` when the store is read-only or cannot be written.
    func write(_ data: Data, at id: TileID) throws(TileStoreError)

    /// Stores several tiles at once: all of them or, when it throws, none.
    ///
    /// - Throws: ``TileStoreError`` when the store is read-only or cannot be written.
    func write(_ tiles: [TileID: Data]) throws(TileStoreError)

    /// Whether the store has the tile.
    ///
    /// - Throws: ``TileStoreError`` when the store cannot be read.
    func contains(_ id: TileID) throws(TileStoreError) -> Bool

    /// The number of tiles in the store.
    ///
    /// - Throws: ``TileStoreError`` when the store cannot be read.
    func count() throws(TileStoreError) -> Int
}

// MARK: - Default implementations

extension TileStore {
    public func tiles(at ids: [TileID]) throws(TileStoreError) -> [TileID: Data] {
        var found: [TileID: Data] = [:]
        for id in ids {
            if let data = try tile(at: id) { found[id] = data }
        }
        return found
    }

    public func contains(_ id: TileID) throws(TileStoreError) -> Bool {
        try tile(at: id) != nil
    }
}
