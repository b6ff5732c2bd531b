public import Foundation
public import MapCore
import Synchronization

/// A tile store in memory: for tests of the code that reads and writes tiles.
///
/// For example:
///
/// ```swift
/// let store = MemoryTileStore()
/// try store.write(Data([1, 2, 3]), at: TileID(z: 0, x: 0, y: 0))
/// ```
///
/// A mutex guards the tiles, so the store may be shared between threads.
public final class MemoryTileStore: TileStore {
    private let storage: Mutex<[TileID: Data]>

    /// Creates a store holding `tiles`. The default is none.
    public init(tiles: [TileID: Data] = [:]) {
        storage = Mutex(tiles)
    }

    public func tile(at id: TileID) -> Data? {
        storage.withLock { $0[id] }
    }

    public func write(_ data: Data, at id: TileID) {
        storage.withLock { $0[id] = data }
    }

    public func write(_ tiles: [TileID: Data]) {
        storage.withLock { $0.merge(tiles) { _, new in new } }
    }

    public func count() -> Int {
        storage.withLock { $0.count }
    }
}
