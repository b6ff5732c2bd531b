public import Foundation
public import MBTiles
public import MapCore
import Synchronization
import TileSources

/// Tiles rendered on demand, kept in MBTiles files: one file per tile set served (a style or the
/// photo overlay at one tile size and scale), named by its ``TileCacheKey``, whose content hash
/// changes whenever what the tiles are drawn from changes (the style file's bytes, the photos and
/// overlays). An edited style therefore opens a new file and never serves tiles of the old one.
///
/// Writes are batched: tiles go to each file's ``MBTilesWriter`` (committed a batch at a time)
/// and, until ``flush()`` commits them, are also kept in memory so they are served at once. Reads
/// look in memory, then through the store's pool of read-only connections; the file is in WAL
/// mode, so a commit never blocks them.
public final class TileCache: Sendable {
    /// Where the cache files live: `<folder>/<base>.<key>.mbtiles`.
    public let folder: URL
    /// The first part of every file name.
    public let baseName: String
    private let tilesPerBatch: Int
    private let removesFolderOnClose: Bool
    /// Whether tiles are kept. A read-only cache serves the tiles its files hold and keeps no new
    /// ones: every other tile is rendered for each request that needs it.
    public let isWritable: Bool
    private let entries = Mutex<[String: Entry]>([:])
    private let readOnlyStores = Mutex<[String: MBTilesStore]>([:])
    private let pending = Mutex<Pending>(Pending())
    /// The files of older versions of each key's tiles (``staleTile(_:key:)``), newest first, by
    /// ``TileCacheKey/fileComponent``: found and opened at first use.
    private let olderStores = Mutex<[String: [MBTilesStore]]>([:])
    /// What each file's tiles are drawn for beyond its key (see ``adopt(drawnFor:key:zooms:)``), by ``TileCacheKey/fileComponent``.
    private let drawnFor = Mutex<[String: String]>([:])

    /// The metadata entry in which a cache file records what its tiles are drawn for beyond its
    /// key: the fingerprint of the photos of a library that changes while serving.
    public static let drawnForMetadataKey = "mapwright_drawn_for"

    private struct Pending {
        var generation: UInt64 = 0
        var tiles: [String: [TileID: (data: Data, generation: UInt64)]] = [:]
    }

    private final class Entry: Sendable {
        let store: MBTilesStore
        let writer: MBTilesWriter
        init(store: MBTilesStore, writer: MBTilesWriter) {
            self.store = store
            self.writer = writer
        }
    }

    /// A cache beside `file`: `--cache world.mbtiles` keeps `world.<key>.mbtiles` files in
    /// `world.mbtiles`' folder.
    ///
    /// - Parameter tilesPerBatch: Tiles per transaction. The default is 256.
    /// - Parameters:
    ///   - tilesPerBatch: Tiles per transaction. The default is 256.
    ///   - readOnly: Keeps no tiles, reading only the files already there (a cache on a
    ///     read-only disk or folder). The default is `false`.
    public convenience init(file: URL, tilesPerBatch: Int = 256, readOnly: Bool = false) {
        self.init(
            folder: file.deletingLastPathComponent(), baseName: file.deletingPathExtension().lastPathComponent,
            tilesPerBatch: tilesPerBatch, removesFolderOnClose: false, isWritable: !readOnly)
    }

    /// A cache in a new temporary folder, removed by ``close()``.
    public static func temporary(tilesPerBatch: Int = 256) throws -> TileCache {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return TileCache(folder: folder, baseName: "cache", tilesPerBatch: tilesPerBatch, removesFolderOnClose: true)
    }

    private init(folder: URL, baseName: String, tilesPerBatch: Int, removesFolderOnClose: Bool, isWritable: Bool = true)
    {
        self.folder = folder
        self.baseName = baseName
        self.tilesPerBatch = tilesPerBatch
        self.removesFolderOnClose = removesFolderOnClose
        self.isWritable = isWritable
    }

    /// The file that holds a key's tiles.
    public func fileURL(for key: TileCacheKey) -> URL {
        folder.appendingPathComponent("\(baseName).\(key.fileComponent).mbtiles")
    }

    /// A cached tile, or nil.
    ///
    /// - Throws: ``MBTilesError`` when the file cannot be opened or read.
    public func tile(_ tile: TileID, key: TileCacheKey) throws(MBTilesError) -> Data? {
        let id = key.fileComponent
        if let data = pending.withLock({ $0.tiles[id]?[tile]?.data }) { return data }
        guard isWritable else { return try readOnlyStore(for: key)?.tile(at: tile) }
        return try entry(for: key).store.tile(at: tile)
    }

    /// The most files of older versions of a key's tiles ``staleTile(_:key:)`` looks in: 2.
    static let olderFileLimit = 2

    /// A tile of an older version of a key's tiles, to stand in under load while the current one
    /// is drawn: from the cache files of the same source, tile size and scale but another
    /// content hash (drawn from an earlier version of the style), the two newest, newest first.
    /// `nil` when none holds it.
    ///
    /// - Throws: ``MBTilesError`` when a file cannot be opened.
    public func staleTile(_ tile: TileID, key: TileCacheKey) throws(MBTilesError) -> Data? {
        for store in try olderStores(for: key) {
            if let data = try? store.tile(at: tile) { return data }
        }
        return nil
    }

    private func olderStores(for key: TileCacheKey) throws(MBTilesError) -> [MBTilesStore] {
        let id = key.fileComponent
        if let stores = olderStores.withLock({ $0[id] }) { return stores }
        let prefix = "\(baseName).\(key.fileComponentWithoutHash)."
        let current = fileURL(for: key).lastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let older = names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".mbtiles") && $0 != current }.map {
            folder.appendingPathComponent($0)
        }
        let newestFirst = older.map { url in
            (
                url,
                (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate)
                    ?? .distantPast
            )
        }.sorted { $0.1 > $1.1 }.map(\.0)
        var stores: [MBTilesStore] = []
        for url in newestFirst.prefix(Self.olderFileLimit) {
            stores.append(try MBTilesStore(url: url, mode: .readOnly))
        }
        return olderStores.withLock { kept in
            if let existing = kept[id] { return existing }
            kept[id] = stores
            return stores
        }
    }

    /// A read-only cache's file of a key, opened for reading once; nil when there is none.
    private func readOnlyStore(for key: TileCacheKey) throws(MBTilesError) -> MBTilesStore? {
        let id = key.fileComponent
        if let store = readOnlyStores.withLock({ $0[id] }) { return store }
        let url = fileURL(for: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let store = try MBTilesStore(url: url, mode: .readOnly)
        guard try store.metadataValue(forKey: "mapwright_content_hash") == key.contentHash else { return nil }
        if let expected = drawnFor.withLock({ $0[id] }),
            try store.metadataValue(forKey: Self.drawnForMetadataKey) != expected
        {
            return nil
        }
        return readOnlyStores.withLock { stores in
            if let existing = stores[id] { return existing }
            stores[id] = store
            return store
        }
    }

    /// Keeps tiles: at once in memory, in the file when their batch commits.
    ///
    /// - Throws: ``MBTilesError`` when the file cannot be opened or a commit fails.
    public func add(_ tiles: [TileID: Data], key: TileCacheKey) throws(MBTilesError) {
        guard isWritable else { return }
        let id = key.fileComponent
        let entry = try entry(for: key)
        pending.withLock { pending in
            pending.generation += 1
            for (tile, data) in tiles { pending.tiles[id, default: [:]][tile] = (data, pending.generation) }
        }
        try entry.writer.add(tiles)
    }

    /// Forgets tiles of a key: those not yet committed, and those in its file (what was pending
    /// is committed first, so a later commit cannot bring a removed tile back). A key without a
    /// file has nothing to remove.
    ///
    /// - Returns: How many tiles the file held.
    /// - Throws: ``MBTilesError`` when the file cannot be written.
    @discardableResult
    public func remove(_ tiles: Set<TileID>, key: TileCacheKey) throws(MBTilesError) -> Int {
        let id = key.fileComponent
        guard isWritable else { return 0 }
        guard !tiles.isEmpty else { return 0 }
        let hasEntry = entries.withLock { $0[id] != nil }
        guard hasEntry || FileManager.default.fileExists(atPath: fileURL(for: key).path) else { return 0 }
        let entry = try entry(for: key)
        try entry.writer.flush()
        pending.withLock { pending in
            guard var kept = pending.tiles[id] else { return }
            for tile in tiles { kept[tile] = nil }
            pending.tiles[id] = kept.isEmpty ? nil : kept
        }
        return try entry.store.removeTiles(tiles)
    }

    /// Forgets every tile of a key at `zooms`, pending or in its file.
    ///
    /// - Returns: How many tiles the file held.
    /// - Throws: ``MBTilesError`` when the file cannot be read or written.
    @discardableResult
    public func removeAll(key: TileCacheKey, zooms: ClosedRange<Int>) throws(MBTilesError) -> Int {
        let id = key.fileComponent
        guard isWritable else { return 0 }
        let hasEntry = entries.withLock { $0[id] != nil }
        guard hasEntry || FileManager.default.fileExists(atPath: fileURL(for: key).path) else { return 0 }
        let entry = try entry(for: key)
        try entry.writer.flush()
        pending.withLock { $0.tiles[id] = nil }
        var tiles = Set<TileID>()
        for zoom in zooms { tiles.formUnion(try entry.store.existingTiles(zoom: zoom)) }
        return try entry.store.removeTiles(tiles)
    }

    /// Says what a key's tiles are drawn for from now on, beyond its content hash (the
    /// fingerprint of a changing library's photos), at start-up: a file that records anything
    /// else, or nothing (tiles drawn for other photos by an earlier run, or a run stopped while it
    /// applied a change), loses its tiles at `zooms`, then records `value`. Files made later
    /// record it too. A read-only cache serves no tile of such a file.
    ///
    /// - Returns: How many tiles were removed.
    /// - Throws: ``MBTilesError`` when the file cannot be read or written.
    @discardableResult
    public func adopt(drawnFor value: String, key: TileCacheKey, zooms: ClosedRange<Int>) throws(MBTilesError) -> Int {
        let id = key.fileComponent
        drawnFor.withLock { $0[id] = value }
        guard isWritable, hasFile(for: key) else { return 0 }
        let store = try entry(for: key).store
        guard try store.metadataValue(forKey: Self.drawnForMetadataKey) != value else { return 0 }
        let removed = try removeAll(key: key, zooms: zooms)
        try store.setMetadataValue(value, forKey: Self.drawnForMetadataKey)
        return removed
    }

    /// Whether a key's file is open or on disk.
    private func hasFile(for key: TileCacheKey) -> Bool {
        entries.withLock { $0[key.fileComponent] != nil }
            || FileManager.default.fileExists(atPath: fileURL(for: key).path)
    }

    /// Records in a key's file what its tiles are drawn for, without removing any: `nil` before
    /// a change of photos is applied (a run stopped midway leaves a file that records nothing,
    /// whose tiles the next start-up drops), the new photos' fingerprint once their changed tiles
    /// are removed.
    ///
    /// - Throws: ``MBTilesError`` when the file cannot be written.
    public func record(drawnFor value: String?, key: TileCacheKey) throws(MBTilesError) {
        let id = key.fileComponent
        drawnFor.withLock { $0[id] = value }
        guard isWritable, hasFile(for: key) else { return }
        try entry(for: key).store.setMetadataValue(value, forKey: Self.drawnForMetadataKey)
    }

    /// Commits every tile added so far and forgets the in-memory copies.
    ///
    /// - Throws: ``MBTilesError`` when a commit fails.
    public func flush() throws(MBTilesError) {
        let generation = pending.withLock { $0.generation }
        for entry in entries.withLock({ Array($0.values) }) { try entry.writer.flush() }
        pending.withLock { pending in
            for id in Array(pending.tiles.keys) {
                pending.tiles[id] = pending.tiles[id]!.filter { $0.value.generation > generation }
                if pending.tiles[id]!.isEmpty { pending.tiles[id] = nil }
            }
        }
    }

    /// Tiles added but not yet committed.
    public var uncommittedTileCount: Int { pending.withLock { $0.tiles.values.reduce(0) { $0 + $1.count } } }

    /// Commits what is pending and, for a temporary cache, removes its folder.
    public func close() throws(MBTilesError) {
        try flush()
        entries.withLock { $0.removeAll() }
        if removesFolderOnClose { try? FileManager.default.removeItem(at: folder) }
    }

    private func entry(for key: TileCacheKey) throws(MBTilesError) -> Entry {
        let id = key.fileComponent
        return try entries.withLock { (entries) throws(MBTilesError) -> Entry in
            if let entry = entries[id] { return entry }
            let store = try MBTilesStore(url: fileURL(for: key), mode: .create)
            if try store.metadataValue(forKey: "name") == nil {
                var metadata = TileMetadata(
                    name: "\(key.source) \(key.tileSizePoints)@\(key.scale)x", format: .png,
                    description: "Mapwright serve's cache of \(key.source), drawn from content \(key.contentHash)",
                    type: key.isOverlay ? .overlay : .baselayer, version: "1")
                metadata.otherValues["mapwright_content_hash"] = key.contentHash
                if let drawnFor = drawnFor.withLock({ $0[id] }) {
                    metadata.otherValues[Self.drawnForMetadataKey] = drawnFor
                }
                try store.writeMetadata(metadata)
            } else if let hash = try store.metadataValue(forKey: "mapwright_content_hash"), hash != key.contentHash {
                throw .corrupt(
                    path: store.path, reason: "the cache file holds tiles of content \(hash), not \(key.contentHash)")
            }
            let entry = Entry(store: store, writer: try MBTilesWriter(store: store, tilesPerBatch: tilesPerBatch))
            entries[id] = entry
            return entry
        }
    }
}

/// What a cache file holds: tiles of one source at one size and scale, drawn from one content.
public struct TileCacheKey: Hashable, Sendable {
    /// `style-NAME` or `overlay-photos`.
    public var source: String
    /// A hash of everything the tiles are drawn from: the style file's bytes, the photos and overlays.
    public var contentHash: String
    /// 256 or 512.
    public var tileSizePoints: Int
    /// 1 to 3.
    public var scale: Int
    /// Whether the tiles are a transparent overlay.
    public var isOverlay: Bool

    public init(source: String, contentHash: String, tileSizePoints: Int, scale: Int, isOverlay: Bool) {
        self.source = source
        self.contentHash = contentHash
        self.tileSizePoints = tileSizePoints
        self.scale = scale
        self.isOverlay = isOverlay
    }

    /// The key as a file name part: `style-standard.256@2x.0123456789abcdef`, with anything
    /// but letters, digits, `-` and `_` in the source replaced by `_`.
    public var fileComponent: String {
        "\(fileComponentWithoutHash).\(contentHash)"
    }

    /// ``fileComponent`` but its content hash: what the files of every version of these tiles share.
    var fileComponentWithoutHash: String {
        let safe = String(
            source.unicodeScalars.map { scalar in
                CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || scalar == "-" || scalar == "_"
                    ? Character(scalar) : "_"
            })
        return "\(safe).\(tileSizePoints)@\(scale)x"
    }
}
