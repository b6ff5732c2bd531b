public import Foundation
import MBTiles
public import MapCore
public import NIOCore
import Synchronization
public import TileSources

/// The tiles answered most recently, kept in memory up to a number of bytes, each with its
/// `ETag` worked out once and its bytes ready to send: a request for a kept tile is answered
/// without touching SQLite or hashing its bytes. In front of the on-demand cache files and of
/// served tileset files, as martin keeps its tile cache.
///
/// Least recently used tiles go first when the bytes would exceed ``capacityBytes``. The cache
/// is split into shards, each behind its own lock, by the key's hash. A source's tiles can be
/// dropped at once (``removeAll(source:)``), when a tileset file changes on disk.
public final class MemoryTileCache: Sendable {
    /// The most bytes of tiles kept. 0 keeps nothing.
    public let capacityBytes: Int
    private let shards: [Shard]
    private let lettingsGo = Atomic<UInt64>(0)

    /// How many times kept tiles were let go (removed, replaced, trimmed or pushed out by newer
    /// ones) since the cache was made: while it stays the same, every tile found kept before is
    /// still kept, unchanged. Read it before looking a tile up.
    public var lettingsGoCount: UInt64 { lettingsGo.load(ordering: .acquiring) }

    /// A cache of at most `capacityBytes` bytes of tiles (their data; the bookkeeping adds about
    /// 150 bytes a tile).
    public init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
        let count = 16
        shards = (0..<count).map { _ in Shard(capacityBytes: max(0, capacityBytes) / count) }
    }

    /// The kept tile at `key`, now the most recently used; `nil` when it is not kept.
    public func tile(_ key: MemoryTileKey) -> CachedTile? {
        guard capacityBytes > 0 else { return nil }
        return shard(for: key).state.withLock { $0.get(key) }
    }

    /// Keeps `tile` at `key`, replacing what was there, and lets the least recently used tiles go
    /// when over capacity. A tile larger than a shard's share of the capacity is not kept.
    public func insert(_ tile: CachedTile, for key: MemoryTileKey) {
        guard capacityBytes > 0 else { return }
        if shard(for: key).state.withLock({ $0.put(key, tile) }) { lettingsGo.add(1, ordering: .releasing) }
    }

    /// Forgets every tile of `source`.
    ///
    /// - Returns: The tiles forgotten.
    @discardableResult
    public func removeAll(source: MemoryTileSource) -> [(MemoryTileKey, CachedTile)] {
        letGo(shards.flatMap { shard in shard.state.withLock { $0.remove { $0.source == source } } })
    }

    /// Forgets the tiles at `keys`; keys not kept are ignored.
    ///
    /// - Returns: The tiles forgotten.
    @discardableResult
    public func remove(_ keys: some Sequence<MemoryTileKey>) -> [(MemoryTileKey, CachedTile)] {
        guard capacityBytes > 0 else { return [] }
        return letGo(keys.compactMap { key in shard(for: key).state.withLock { $0.remove(key) }.map { (key, $0) } })
    }

    private func letGo(_ tiles: [(MemoryTileKey, CachedTile)]) -> [(MemoryTileKey, CachedTile)] {
        if !tiles.isEmpty { lettingsGo.add(1, ordering: .releasing) }
        return tiles
    }

    /// Forgets the least recently used tiles until at most `bytes` are kept (each shard keeps its
    /// share): what a server near its memory limit lets go. Tiles inserted later fill it again,
    /// up to ``capacityBytes``.
    public func trim(toBytes bytes: Int) {
        let share = max(0, bytes) / shards.count
        for shard in shards where shard.state.withLock({ $0.trim(toBytes: share) }) {
            lettingsGo.add(1, ordering: .releasing)
        }
    }

    /// Forgets every tile.
    public func removeAll() {
        for shard in shards { _ = letGo(shard.state.withLock { $0.remove { _ in true } }) }
    }

    /// How many tiles and bytes are kept.
    public var usage: (tiles: Int, bytes: Int) {
        shards.reduce((0, 0)) { total, shard in
            let (tiles, bytes) = shard.state.withLock { ($0.count, $0.bytes) }
            return (total.0 + tiles, total.1 + bytes)
        }
    }

    private func shard(for key: MemoryTileKey) -> Shard {
        shards[Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))]
    }

    private final class Shard: Sendable {
        let state: Mutex<LRUState>
        init(capacityBytes: Int) { state = Mutex(LRUState(capacityBytes: capacityBytes)) }
    }
}

/// A tile's place in a ``MemoryTileCache``: its source and its address.
public struct MemoryTileKey: Hashable, Sendable {
    public var source: MemoryTileSource
    public var tile: TileID

    public init(source: MemoryTileSource, tile: TileID) {
        self.source = source
        self.tile = tile
    }
}

/// Where kept tiles come from.
public enum MemoryTileSource: Hashable, Sendable {
    /// A served tileset file, by its name in URLs, as opened in a generation (see
    /// ``OpenTileset/generation``): tiles read before the file changed are kept apart from those read after.
    case tileset(String, generation: Int)
    /// Tiles rendered on demand into the cache file of this key.
    case rendered(TileCacheKey)
}

/// A tile as it is answered: its bytes in a buffer the server writes without copying, its
/// strong `ETag`, and what its first bytes say it is.
public struct CachedTile: Sendable {
    public let bytes: ByteBuffer
    public let entityTag: String
    /// The image format its bytes start with (PNG, JPEG, WebP), or `nil` (a vector tile).
    public let sniffedFormat: TileFormat?
    /// Whether the bytes are gzip-compressed (vector tiles usually are).
    public let isGzipped: Bool

    /// A tile of `data`, its tag and format worked out here (see ``HTTPCaching``).
    public init(_ data: Data) {
        bytes = ByteBuffer(bytes: data)
        entityTag = HTTPCaching.entityTag(of: data)
        sniffedFormat = TileFormat(sniffing: data)
        isGzipped = data.starts(with: [0x1F, 0x8B])
    }

    /// The tile's bytes.
    public var data: Data { Data(bytes.readableBytesView) }
}

/// A least-recently-used map by bytes: entries in arrays linked in use order by index, free
/// slots reused.
struct LRUState {
    private struct Node {
        var key: MemoryTileKey
        var tile: CachedTile?
        var previous: Int
        var next: Int
    }

    let capacityBytes: Int
    private(set) var bytes = 0
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var index: [MemoryTileKey: Int] = [:]
    /// Most and least recently used; -1 when empty.
    private var head = -1, tail = -1

    init(capacityBytes: Int) { self.capacityBytes = capacityBytes }

    var count: Int { index.count }

    mutating func get(_ key: MemoryTileKey) -> CachedTile? {
        guard let slot = index[key] else { return nil }
        moveToFront(slot)
        return nodes[slot].tile
    }

    /// Keeps `tile` at `key`; returns whether a tile was let go (the one at `key` replaced, or the
    /// least recently used ones over capacity).
    @discardableResult
    mutating func put(_ key: MemoryTileKey, _ tile: CachedTile) -> Bool {
        let size = tile.bytes.readableBytes
        guard size <= capacityBytes else { return false }
        var letGo = false
        if let slot = index[key] {
            letGo = true
            bytes += size - (nodes[slot].tile?.bytes.readableBytes ?? 0)
            nodes[slot].tile = tile
            moveToFront(slot)
        } else {
            let node = Node(key: key, tile: tile, previous: -1, next: head)
            let slot: Int
            if let reused = free.popLast() {
                slot = reused
                nodes[slot] = node
            } else {
                slot = nodes.count
                nodes.append(node)
            }
            if head >= 0 { nodes[head].previous = slot }
            head = slot
            if tail < 0 { tail = slot }
            index[key] = slot
            bytes += size
        }
        while bytes > capacityBytes, tail >= 0 {
            removeSlot(tail)
            letGo = true
        }
        return letGo
    }

    /// Lets the least recently used tiles go until at most `limit` bytes are kept; returns
    /// whether any went.
    @discardableResult
    mutating func trim(toBytes limit: Int) -> Bool {
        let before = count
        while bytes > limit, tail >= 0 { removeSlot(tail) }
        return count != before
    }

    @discardableResult
    mutating func remove(_ key: MemoryTileKey) -> CachedTile? {
        guard let slot = index[key] else { return nil }
        return removeSlot(slot)
    }

    @discardableResult
    mutating func remove(where matches: (MemoryTileKey) -> Bool) -> [(MemoryTileKey, CachedTile)] {
        var removed: [(MemoryTileKey, CachedTile)] = []
        for slot in Array(index.values) where matches(nodes[slot].key) {
            let key = nodes[slot].key
            if let tile = removeSlot(slot) { removed.append((key, tile)) }
        }
        return removed
    }

    private mutating func unlink(_ slot: Int) {
        let (previous, next) = (nodes[slot].previous, nodes[slot].next)
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
    }

    private mutating func moveToFront(_ slot: Int) {
        guard head != slot else { return }
        unlink(slot)
        nodes[slot].previous = -1
        nodes[slot].next = head
        if head >= 0 { nodes[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    @discardableResult
    private mutating func removeSlot(_ slot: Int) -> CachedTile? {
        unlink(slot)
        let tile = nodes[slot].tile
        bytes -= tile?.bytes.readableBytes ?? 0
        index[nodes[slot].key] = nil
        nodes[slot].tile = nil
        free.append(slot)
        return tile
    }
}
