import Foundation
import MapCore
import MapServer
import Testing

/// The in-memory tile cache: least recently used tiles leave first, within a byte budget.
@Suite struct MemoryTileCacheTests {
    private func key(_ x: Int, _ source: String = "a") throws -> MemoryTileKey {
        MemoryTileKey(source: .tileset(source, generation: 0), tile: try TileID(z: 10, x: x, y: 0))
    }

    private func tile(_ byte: UInt8, bytes: Int = 100) -> CachedTile { CachedTile(Data(repeating: byte, count: bytes)) }

    @Test func keepsWhatFitsAndLetsTheLeastRecentlyUsedGo() throws {
        // 16 shards of 1,000 bytes: tiles of one shard are found by trying keys until three land in one.
        let cache = MemoryTileCache(capacityBytes: 16_000)
        var sameShard: [MemoryTileKey] = []
        let probe = MemoryTileCache(capacityBytes: 16 * 100)
        // With 100 bytes a shard, a shard keeps one tile: a key evicts another only in its own shard.
        let first = try key(0)
        probe.insert(tile(0), for: first)
        var x = 1
        while sameShard.count < 11 {
            let candidate = try key(x)
            probe.insert(tile(1), for: first)
            probe.insert(tile(2), for: candidate)
            if probe.tile(first) == nil { sameShard.append(candidate) }
            x += 1
        }
        // Ten tiles of 100 bytes fill the shard of `first`; reading the first keeps it, so the
        // eleventh pushes out the second.
        cache.insert(tile(0), for: first)
        for (number, key) in sameShard.prefix(9).enumerated() { cache.insert(tile(UInt8(number + 1)), for: key) }
        #expect(cache.usage.tiles == 10 && cache.usage.bytes == 1_000)
        #expect(cache.tile(first)?.data == Data(repeating: 0, count: 100))
        cache.insert(tile(99), for: sameShard[10])
        #expect(cache.tile(first) != nil, "read last, so kept")
        #expect(cache.tile(sameShard[0]) == nil, "the least recently used left")
        #expect(cache.tile(sameShard[10])?.data == Data(repeating: 99, count: 100))
        #expect(cache.usage.bytes == 1_000)
    }

    @Test func replacingATileKeepsOneCopyAndItsNewBytes() throws {
        let cache = MemoryTileCache(capacityBytes: 1 << 20)
        cache.insert(tile(1, bytes: 300), for: try key(5))
        cache.insert(tile(2, bytes: 500), for: try key(5))
        #expect(cache.usage.tiles == 1 && cache.usage.bytes == 500)
        #expect(cache.tile(try key(5))?.data == Data(repeating: 2, count: 500))
        #expect(cache.tile(try key(5))?.entityTag == CachedTile(Data(repeating: 2, count: 500)).entityTag)
    }

    @Test func removingASourceForgetsOnlyItsTiles() throws {
        let cache = MemoryTileCache(capacityBytes: 1 << 20)
        for x in 0..<50 {
            cache.insert(tile(1), for: try key(x, "a"))
            cache.insert(tile(2), for: try key(x, "b"))
        }
        cache.removeAll(source: .tileset("a", generation: 0))
        #expect(cache.usage.tiles == 50)
        for x in 0..<50 {
            #expect(cache.tile(try key(x, "a")) == nil)
            #expect(cache.tile(try key(x, "b")) != nil)
        }
    }

    @Test func aTileLargerThanAShardAndAZeroBudgetKeepNothing() throws {
        let cache = MemoryTileCache(capacityBytes: 16 * 1_000)
        cache.insert(tile(1, bytes: 1_001), for: try key(1))
        #expect(cache.tile(try key(1)) == nil && cache.usage.tiles == 0)
        let none = MemoryTileCache(capacityBytes: 0)
        none.insert(tile(1), for: try key(1))
        #expect(none.tile(try key(1)) == nil)
    }
}
