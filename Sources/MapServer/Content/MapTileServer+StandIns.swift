import Foundation
import ImageCodec
import MBTiles
import MapCore

/// What answered a tile request that did not wait for its render (see
/// ``MapTileServer/renderedTile(_:cacheKey:lane:makeRenderer:disconnected:)``).
public enum StandInKind: String, Sendable {
    /// An older version of the same tile: drawn before a change of photos, or from an earlier
    /// version of the style (a cache file of another content hash).
    case stale
    /// The nearest cached parent tile's part over this tile, enlarged.
    case parent
}

/// A tile as the tile routes answer it: the tile itself, or a stand-in while it is drawn.
enum ServedTile: Sendable {
    case tile(CachedTile)
    case standIn(CachedTile, StandInKind)
}

extension MapTileServer {
    /// How many zooms above a tile its parent stand-in may be: 5, a 32nd of the parent's side
    /// enlarged 32 times (8 pixels of a 256-pixel tile), blurred but in the right colours.
    static let maximumParentZoomsUp = 5

    /// What can answer for a tile at once, without rendering: a replaced version of it (the
    /// photo overlay's and density map's tiles before the last change of photos, kept in
    /// ``replacedTiles``), a tile of an older version of the style (``TileCache/staleTile(_:key:)``),
    /// or, for a style's tiles, the nearest parent tile in memory or the cache, up to
    /// ``maximumParentZoomsUp`` zooms above, its part over the tile enlarged. Overlay tiles get
    /// no parent: their pins and labels would be drawn too large. Files are read and images
    /// scaled on NIO's blocking-I/O threads.
    func standIn(for tile: TileID, cacheKey: TileCacheKey) async -> (CachedTile, StandInKind)? {
        let source = MemoryTileSource.rendered(cacheKey)
        if let replaced = replacedTiles.tile(MemoryTileKey(source: source, tile: tile)) { return (replaced, .stale) }
        guard !cacheKey.isOverlay else { return nil }
        if let stale = try? await blockingIO({ [cache] in try cache.staleTile(tile, key: cacheKey) }) ?? nil {
            return (CachedTile(stale), .stale)
        }
        let parents = (1...Self.maximumParentZoomsUp).compactMap { up -> TileID? in
            guard tile.z - up >= 0 else { return nil }
            return try? TileID(z: tile.z - up, x: tile.x >> up, y: tile.y >> up)
        }
        guard !parents.isEmpty else { return nil }
        let inMemory = parents.lazy.compactMap { [memory] parent in
            memory.tile(MemoryTileKey(source: source, tile: parent)).map { (parent, $0.data) }
        }.first
        let enlarged = try? await blockingIO { [cache] () -> Data? in
            guard
                let (parent, data) = inMemory
                    ?? parents.lazy.compactMap({ parent in
                        (try? cache.tile(parent, key: cacheKey)).flatMap { $0 }.map { (parent, $0) }
                    }).first
            else { return nil }
            return try Self.enlargedPart(of: data, parent: parent, over: tile)
        }
        guard let enlarged = enlarged ?? nil else { return nil }
        return (CachedTile(enlarged), .parent)
    }

    /// The part of the parent tile `data` (a PNG) that covers `tile`, enlarged to the parent's size.
    static func enlargedPart(of data: Data, parent: TileID, over tile: TileID) throws -> Data {
        let image = try RGBAImage(pngData: data)
        let up = tile.z - parent.z
        let side = image.width >> up
        guard side >= 1, image.width == image.height else {
            throw ImageCodecError.unencodablePNG(reason: "the parent tile is too small")
        }
        let column = tile.x - (parent.x << up)
        let row = tile.y - (parent.y << up)
        return try image.enlarged(
            x: column * side, y: row * side, regionWidth: side, regionHeight: side, toWidth: image.width,
            height: image.height
        )
        .pngData(compressionLevel: 1)
    }
}
