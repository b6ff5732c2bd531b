public import Foundation
public import MapCore
import MapSQLite
import Synchronization

/// The one writer of an export: tiles are added from any thread and committed in batches.
///
/// For example, an export's render threads hand their encoded tiles to one writer:
///
/// ```swift
/// let store = try MBTilesStore(url: output, mode: .create)  // normalized: identical tiles stored once
/// let writer = try MBTilesWriter(store: store)
/// try writer.add(metatileTiles)             // from any thread; committed every 1,000 tiles
/// try writer.finish()                       // the last batch, agg_tiles_hash, a checkpoint
/// ```
///
/// **Batches.** Added tiles wait in memory until ``tilesPerBatch`` have gathered, then the
/// thread whose addition filled the batch commits all of them in one transaction. The tiles of
/// one ``add(_:)-(Dictionary<TileID,Data>)`` call always go into the same transaction (a whole
/// metatile is in the file or not at all). A killed process loses only the tiles not yet
/// committed, never the file: readers, and a resumed export asking ``MBTilesStore/existingTiles(zoom:)``,
/// see exactly the committed batches. Uncommitted tiles are never visible to readers, not even
/// to this store's own. Tiles added but not committed when the writer goes away are dropped:
/// call ``flush()`` or ``finish(updatingAggregateHash:journalMode:)``.
///
/// **Threads.** `add` may be called from any number of threads: the MD5 that names an image in
/// the normalized layout is computed on the adding thread, then the tile joins the batch under a
/// short lock. Commits take the store's write connection one at a time, in the order their
/// batches filled.
public final class MBTilesWriter: Sendable {
    /// What the file's journal is left as when the writer finishes.
    public enum FinalJournalMode: Hashable, Sendable {
        /// WAL, as during the export: best while a server keeps reading the file.
        case wal
        /// A rollback journal (`DELETE`): one self-contained file to copy or publish, readable on
        /// read-only media. When other connections still have the file open, the file stays in WAL.
        case delete
    }

    /// The store written.
    public let store: MBTilesStore
    /// How many tiles make a batch, committed in one transaction.
    public let tilesPerBatch: Int

    private let pending = Mutex<[MBTilesPendingTile]>([])
    private let progress = Mutex(Progress())

    private struct Progress {
        var committedTileCount = 0
        var replacedTileCount = 0
    }

    /// A writer for a writable store.
    ///
    /// - Parameters:
    ///   - store: A store opened with ``MBTilesStore/Mode/create`` or ``MBTilesStore/Mode/readWrite``.
    ///   - tilesPerBatch: Tiles per transaction. The default, 1,000, commits a few times a second
    ///     during an export: few enough fsyncs to be fast, little work lost to a kill.
    /// - Throws: ``MBTilesError/readOnly(path:reason:)`` when the store cannot be written.
    public init(store: MBTilesStore, tilesPerBatch: Int = 1_000) throws(MBTilesError) {
        precondition(tilesPerBatch >= 1, "a batch holds at least one tile")
        _ = try store.requireWritable()
        self.store = store
        self.tilesPerBatch = tilesPerBatch
    }

    // MARK: - Adding

    /// Adds a tile, replacing any the file has at its address once committed; commits the batch
    /// when it is full.
    ///
    /// - Throws: ``MBTilesError`` when a commit this call made fails (its batch is dropped).
    public func add(_ data: Data, at id: TileID) throws(MBTilesError) {
        try add([MBTilesPendingTile(id: id, data: data, schema: store.schema)])
    }

    /// Adds tiles that go into the same transaction; commits when the batch is full.
    ///
    /// - Throws: ``MBTilesError`` when a commit this call made fails (its batch is dropped).
    public func add(_ tiles: [TileID: Data]) throws(MBTilesError) {
        try add(tiles.map { MBTilesPendingTile(id: $0.key, data: $0.value, schema: store.schema) })
    }

    func add(_ tiles: [MBTilesPendingTile]) throws(MBTilesError) {
        guard !tiles.isEmpty else { return }
        let count = pending.withLock { batch in
            batch.append(contentsOf: tiles)
            return batch.count
        }
        if count >= tilesPerBatch { try commitPending() }
    }

    /// The tiles added and not yet committed.
    public var pendingTileCount: Int { pending.withLock { $0.count } }

    /// The tiles this writer has committed.
    public var committedTileCount: Int { progress.withLock { $0.committedTileCount } }

    // MARK: - Committing

    /// Commits the tiles added so far, whatever their number.
    ///
    /// - Throws: ``MBTilesError`` when the commit fails; those tiles are dropped.
    public func flush() throws(MBTilesError) {
        try commitPending()
    }

    /// Commits the last batch and leaves the file ready to publish.
    ///
    /// In order: commits what is pending; removes images no tile uses any more (only when a tile
    /// replaced another); writes `agg_tiles_hash` (see ``MBTilesStore/aggregateTilesHash()``),
    /// which reads every tile once; checkpoints the WAL into the file; and switches the journal
    /// mode when asked.
    ///
    /// - Parameters:
    ///   - updatingAggregateHash: Whether to compute and store `agg_tiles_hash`. The default is true.
    ///   - journalMode: What to leave the file in. The default is ``FinalJournalMode/delete``.
    /// - Returns: The `agg_tiles_hash` written, or nil when not asked for.
    /// - Throws: ``MBTilesError``.
    @discardableResult
    public func finish(updatingAggregateHash: Bool = true, journalMode: FinalJournalMode = .delete) throws(MBTilesError)
        -> String?
    {
        try commitPending()
        if progress.withLock({ $0.replacedTileCount }) > 0 {
            try store.removeUnusedImages()
        }
        var hash: String?
        if updatingAggregateHash {
            let computed = try store.aggregateTilesHash()
            try store.setMetadataValue(computed, forKey: MBTilesStore.aggregateTilesHashKey)
            hash = computed
        }
        try store.checkpoint(switchingToRollbackJournal: journalMode == .delete)
        return hash
    }

    /// Takes the batch and commits it, holding the write connection from the take to the commit,
    /// so batches commit in the order they were taken.
    private func commitPending() throws(MBTilesError) {
        let connection = try store.requireWritable()
        let schema = store.schema
        try connection.withDatabase { database in
            let batch = pending.withLock { batch in
                defer { batch.removeAll(keepingCapacity: true) }
                return batch
            }
            guard !batch.isEmpty else { return }
            let replaced = try database.inTransaction {
                var inserter = try MBTilesTileInserter(database: database, schema: schema)
                for tile in batch { try inserter.insert(tile) }
                return inserter.replacedCount
            }
            progress.withLock {
                $0.committedTileCount += batch.count
                $0.replacedTileCount += replaced
            }
        }
    }
}
