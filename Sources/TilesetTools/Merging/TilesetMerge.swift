public import Foundation
public import MBTiles
public import MapCore
import MapUtilities
public import TileSources
import Tilesets

/// Joins tilesets into one file: `mapwright tiles merge`, how the shards of an export become the
/// file one export writes.
///
/// ```swift
/// let report = try TilesetMerge.merge([shard0, shard1, shard2, shard3], into: URL(fileURLWithPath: "europe.mbtiles"))
/// ```
///
/// Inputs are MBTiles or PMTiles files, merged in the order given; the output (`.mbtiles` or
/// `.pmtiles`) is written beside its final name and renamed into place when complete. Metadata is
/// unioned: `bounds` grows to hold every input's, the zoom range widens, other keys keep the first
/// value found and a different one is reported; `agg_tiles_hash` is computed anew.
public enum TilesetMerge {
    /// What to do with a tile two inputs have with different bytes.
    public enum ConflictPolicy: String, Hashable, Sendable, CaseIterable {
        /// Keep the tile of the input merged first. The default.
        case keepFirst = "keep-first"
        /// Take the tile of the input merged last.
        case keepLast = "keep-last"
        /// Write nothing when any tile conflicts.
        case error
    }

    /// The metadata key an export's shard is marked with (`mapwright_shard`: `K/N`); a merge
    /// drops it.
    public static let shardMetadataKey = "mapwright_shard"

    /// What a merge did.
    public struct Report: Sendable {
        /// Tiles in the output.
        public var tileCount = 0
        /// Tiles two inputs had with the same bytes.
        public var identicalTileCount = 0
        /// Addresses two inputs had with different bytes, in the order found.
        public var conflictingTiles: [TileID] = []
        /// Metadata keys two inputs gave different values, with the input that differed.
        public var metadataConflicts: [(path: String, conflict: MBTilesMetadataConflict)] = []
    }

    /// Merges `inputs` into `output`.
    ///
    /// - Throws: ``TilesetToolsError`` naming the input or output at fault;
    ///   ``TilesetToolsError/invalidExport(reason:)`` for fewer than two inputs, an output that is one
    ///   of the inputs, or (with ``ConflictPolicy/error``) conflicting tiles, naming the first.
    ///   Nothing is written at `output` when it throws.
    @discardableResult
    public static func merge(_ inputs: [any TileSource], into output: URL, onConflict: ConflictPolicy = .keepFirst)
        throws(TilesetToolsError) -> Report
    {
        _ = try TilesetFormat(output: output)
        guard inputs.count >= 2 else { throw .invalidExport(reason: "tiles merge: give two or more tilesets to merge") }
        let outputPath = output.standardizedFileURL.resolvingSymlinksInPath().path
        for input in inputs where input.resolvedFilePath == outputPath {
            throw .invalidExport(
                reason: "\(output.displayPath): the output is one of the tilesets merged; name another file")
        }
        var report = Report()
        report.tileCount = try TilesetWriter.withTemporary(for: output) { (writer) throws(TilesetToolsError) in
            for input in inputs {
                let store: MBTilesStore
                var converted: URL?
                if let mbtiles = input as? MBTilesStore {
                    store = mbtiles
                } else {
                    // A PMTiles input goes through a temporary MBTiles copy beside the output.
                    let copy = output.deletingLastPathComponent().appendingPathComponent(
                        ".\(output.lastPathComponent).\(UUID().uuidString).mbtiles")
                    try TilesetConversion.convert(input, to: copy)
                    converted = copy
                    do throws(MBTilesError) { store = try MBTilesStore(url: copy) } catch {
                        throw .tileset(.mbtiles(error))
                    }
                }
                defer { if let converted { try? FileManager.default.removeItem(at: converted) } }
                let merged = try writer.merge(
                    from: store, onConflict: onConflict == .keepLast ? .replace : .keepExisting)
                report.identicalTileCount += merged.identicalTileCount
                report.conflictingTiles += merged.conflictingTiles
                report.metadataConflicts += merged.metadataConflicts.filter { $0.key != shardMetadataKey }.map {
                    (input.displayPath, $0)
                }
                if onConflict == .error, let first = merged.conflictingTiles.first {
                    throw .invalidExport(
                        reason:
                            "\(input.displayPath): \(merged.conflictingTiles.count) tile(s) differ from an earlier input's, first \(first); "
                            + "nothing was written (--on-conflict keep-first or keep-last merges anyway)")
                }
            }
            // The merge of shards is no shard: their marker goes.
            try writer.setWorkFileMetadataValues([shardMetadataKey: nil])
            return try writer.finish(metadata: nil)
        }
        return report
    }
}
