import Foundation
public import MapCore
import MapSQLite
import TileSources

/// What ``MBTilesWriter/merge(from:onConflict:)`` did with another file's tiles.
public struct MBTilesMergeReport: Hashable, Sendable {
    /// What to do with a tile both files have, with different bytes.
    public enum ConflictPolicy: Hashable, Sendable {
        /// Keep the tile the file merged into has.
        case keepExisting
        /// Take the tile of the file merged in.
        case replace
    }

    /// The file merged in.
    public var sourcePath: String
    /// Tiles the file merged into did not have.
    public var addedTileCount = 0
    /// Tiles both files had, with the same bytes: nothing to do.
    public var identicalTileCount = 0
    /// Addresses both files had with different bytes, in file order.
    public var conflictingTiles: [TileID] = []
    /// Metadata keys with different values in the two files (`bounds`, `minzoom` and `maxzoom`
    /// are combined, never in conflict).
    public var metadataConflicts: [MBTilesMetadataConflict] = []
}

extension MBTilesWriter {
    /// Adds another file's tiles and metadata to this writer's file: how `tiles merge` joins the
    /// files of shards, and `tiles convert` or `tiles import` copy one.
    ///
    /// Metadata is unioned (see ``MBTilesMetadataConflict``: `bounds` grows to hold both, the zoom
    /// range widens, other keys keep this file's value and a different one is reported), and
    /// `agg_tiles_hash` is removed until ``finish(updatingAggregateHash:journalMode:)`` writes it
    /// again. Each tile of `source` the file lacks is added in this writer's batches; a tile at
    /// an address the file already has is compared (by MD5 when this file is normalized, byte by
    /// byte when flat): identical ones are counted, different ones are reported and, per
    /// `onConflict`, kept or replaced. Commits what was pending before starting, and everything
    /// when done.
    ///
    /// - Parameters:
    ///   - source: The file to merge in; any layout.
    ///   - onConflict: What to do with a tile both files have with different bytes. The default is
    ///     ``MBTilesMergeReport/ConflictPolicy/keepExisting``.
    /// - Throws: ``MBTilesError``.
    public func merge(
        from source: MBTilesStore,
        onConflict: MBTilesMergeReport.ConflictPolicy = .keepExisting
    ) throws(MBTilesError) -> MBTilesMergeReport {
        try flush()
        var report = MBTilesMergeReport(sourcePath: source.path)
        let mine = try store.metadataRows()
        let (merged, conflicts) = TileMetadata.mergedRows(mine, try source.metadataRows())
        report.metadataConflicts = conflicts
        var changes: [String: String?] = merged.filter { mine[$0.key] != $0.value }.mapValues { $0 }
        for key in mine.keys where merged[key] == nil { changes[key] = .some(nil) }
        if !changes.isEmpty { try store.setMetadataValues(changes) }

        let schema = store.schema
        let lookup =
            schema == .normalized
            ? "SELECT tile_id FROM map WHERE zoom_level = ? AND tile_column = ? AND tile_row = ? LIMIT 1"
            : MBTilesStore.selectTileSQL
        let cursor = try source.tileCursor()
        defer { cursor.close() }
        let reader = try store.readers.checkOut()
        defer { store.readers.checkIn(reader) }
        while let tile = try cursor.next() {
            let incoming = MBTilesPendingTile(id: tile.id, data: tile.data ?? Data(), schema: schema)
            let same: Bool?
            do {
                same = try reader.withStatement(lookup) { statement -> Bool? in
                    try statement.bind(MBTilesStore.key(tile.id))
                    guard try statement.step() else { return nil }
                    if schema == .normalized { return statement.text(at: 0)?.uppercased() == incoming.imageID }
                    return statement.data(at: 0) ?? Data() == incoming.data
                }
            } catch {
                throw MBTilesError.wrapping(error, path: store.path)
            }
            switch same {
            case nil:
                report.addedTileCount += 1
            case true?:
                report.identicalTileCount += 1
                continue
            case false?:
                report.conflictingTiles.append(tile.id)
                if onConflict == .keepExisting { continue }
            }
            try add([incoming])
        }
        try flush()
        return report
    }
}
