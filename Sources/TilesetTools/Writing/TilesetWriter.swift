public import Foundation
import MBTiles
public import MapCore
import MapUtilities
import PMTiles
public import TileSources
public import Tilesets

/// Writes a tileset file, MBTiles or PMTiles by the output's extension, so that nothing is lost:
/// tiles go into a *work file* beside the output, `NAME.partial` (a deduplicated MBTiles file,
/// whatever the output's format), committed in batches; ``finish(metadata:)`` turns it into the
/// output and removes it. Until then an earlier file at the output is untouched.
///
/// ```swift
/// let writer = try TilesetWriter(output: URL(fileURLWithPath: "alps.pmtiles"))
/// try writer.add(tiles)                        // from any thread; whole batches committed
/// try writer.finish(metadata: metadata)        // alps.pmtiles written, alps.pmtiles.partial removed
/// ```
///
/// - **MBTiles output**: the work file is finished (`agg_tiles_hash`, a rollback journal) and
///   renamed over the output.
/// - **PMTiles output**: the work file's tiles are written into the archive (clustered,
///   deduplicated, atomically renamed into place), then the work file is removed.
/// - **Interrupted** (Ctrl-C, `kill -9`, a full disk): the work file keeps every committed
///   batch; ``init(output:resuming:)`` with `resuming: true` opens it again, and
///   ``existingTiles(in:)`` says which tiles are done.
public final class TilesetWriter: Sendable {
    /// The file to write.
    public let output: URL
    /// Its format, from its extension.
    public let format: TilesetFormat
    /// The work file tiles are committed to: `output` with `.partial` appended.
    public let workFile: URL
    /// Whether the work file held tiles of an earlier, interrupted run when opened.
    public let isResuming: Bool
    private let store: MBTilesStore
    private let writer: MBTilesWriter

    /// The work file of an output: `NAME.partial` beside it.
    public static func workFile(for output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(output.lastPathComponent + ".partial")
    }

    /// Starts writing `output`, or goes on with an interrupted run.
    ///
    /// - Parameters:
    ///   - output: A path ending in `.mbtiles` or `.pmtiles`.
    ///   - resuming: Whether to go on with the work file an interrupted run left. When false and a
    ///     work file exists, nothing is changed and this throws (an interrupted run is never
    ///     thrown away silently); when true and none exists, a new one is started.
    ///   - tilesPerBatch: Tiles per committed transaction. The default is 1,000.
    /// - Throws: ``TilesetToolsError/tileset(_:)`` (`unknownFormat`), ``TilesetToolsError/unfinishedExport(path:reason:)``,
    ///   or the store's error when the work file cannot be made.
    public convenience init(output: URL, resuming: Bool = false, tilesPerBatch: Int = 1_000) throws(TilesetToolsError) {
        try self.init(
            output: output, workFile: Self.workFile(for: output), resuming: resuming, tilesPerBatch: tilesPerBatch)
    }

    /// A writer whose work file is `workFile` (a conversion's hidden temporary name).
    init(output: URL, workFile: URL, resuming: Bool, tilesPerBatch: Int = 1_000) throws(TilesetToolsError) {
        self.output = output
        format = try TilesetFormat(output: output)
        self.workFile = workFile
        let exists = FileManager.default.fileExists(atPath: workFile.path)
        if exists, !resuming {
            throw .unfinishedExport(
                path: workFile.displayPath,
                reason: "an interrupted run left this file: add --resume to finish it, or delete it to start again")
        }
        isResuming = exists
        do throws(MBTilesError) {
            store = try MBTilesStore(url: workFile, mode: .create, newFileSchema: .normalized)
            writer = try MBTilesWriter(store: store, tilesPerBatch: tilesPerBatch)
        } catch {
            throw .tileset(.mbtiles(error))
        }
    }

    /// The work file's metadata value for `key`, for checking that a resumed run asks for the
    /// same tiles as the run it finishes.
    public func workFileMetadataValue(forKey key: String) throws(TilesetToolsError) -> String? {
        do throws(MBTilesError) { return try store.metadataValue(forKey: key) } catch {
            throw .tileset(.mbtiles(error))
        }
    }

    /// Records metadata rows in the work file at once (committed, so a resumed run sees them).
    public func setWorkFileMetadataValues(_ values: [String: String?]) throws(TilesetToolsError) {
        do throws(MBTilesError) { try store.setMetadataValues(values) } catch { throw .tileset(.mbtiles(error)) }
    }

    /// The tiles of a block already committed to the work file.
    public func existingTiles(zoom: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) throws(TilesetToolsError)
        -> Set<TileID>
    {
        do throws(MBTilesError) { return try store.existingTiles(zoom: zoom, columns: columns, rows: rows) } catch {
            throw .tileset(.mbtiles(error))
        }
    }

    /// The number of tiles committed to the work file, this run's and an earlier run's.
    public func committedTileCount() throws(TilesetToolsError) -> Int {
        do throws(MBTilesError) { return try store.count() } catch { throw .tileset(.mbtiles(error)) }
    }

    /// Adds tiles from any thread; all of one call are committed in the same transaction.
    public func add(_ tiles: [TileID: Data]) throws(TilesetToolsError) {
        do throws(MBTilesError) { try writer.add(tiles) } catch { throw .tileset(.mbtiles(error)) }
    }

    /// Adds one tile from any thread.
    public func add(_ data: Data, at tile: TileID) throws(TilesetToolsError) {
        do throws(MBTilesError) { try writer.add(data, at: tile) } catch { throw .tileset(.mbtiles(error)) }
    }

    /// Commits the tiles added so far.
    public func flush() throws(TilesetToolsError) {
        do throws(MBTilesError) { try writer.flush() } catch { throw .tileset(.mbtiles(error)) }
    }

    /// Commits the rest, writes the metadata and makes the output; the work file is gone afterwards.
    ///
    /// - Parameter metadata: The output's metadata (`name` and `format` are required by MBTiles;
    ///   `format` is taken from the first tile when nil); nil keeps the work file's metadata as
    ///   it is (a merge's unioned rows).
    /// - Returns: The number of tiles in the output.
    /// - Throws: ``TilesetToolsError`` when a commit, the conversion or the rename fails; the work
    ///   file is then left for a resumed run.
    @discardableResult
    public func finish(metadata: TileMetadata?) throws(TilesetToolsError) -> Int {
        let count: Int
        let written: TileMetadata
        do throws(MBTilesError) {
            try writer.flush()
            count = try store.count()
            if var given = metadata {
                if given.format == nil, let first = try store.tileCursor().next()?.data {
                    given.format = TileFormat(sniffing: first)
                }
                // Rows of an earlier run's metadata that this metadata does not set (such as
                // Mapwright's own export key) are dropped: the output says what it is now.
                let old = try store.metadataRows()
                var rows: [String: String?] = [:]
                for key in old.keys { rows[key] = .some(nil) }
                try store.setMetadataValues(rows)
                try store.writeMetadata(given)
                written = given
            } else {
                written = try store.metadata()
            }
        } catch {
            throw .tileset(.mbtiles(error))
        }
        switch format {
        case .mbtiles:
            do throws(MBTilesError) { try writer.finish() } catch { throw .tileset(.mbtiles(error)) }
            try Self.moveIntoPlace(workFile, at: output)
        case .pmtiles:
            // The WAL checkpointed and gone first, so removing the work file leaves nothing beside it.
            do throws(MBTilesError) { try writer.finish(updatingAggregateHash: false) } catch {
                throw .tileset(.mbtiles(error))
            }
            try TilesetConversion.writePMTiles(from: store, to: output, metadata: written)
            for suffix in ["-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: workFile.path + suffix)
            }
            do { try FileManager.default.removeItem(at: workFile) } catch {
                throw .tileset(
                    .fileSystem(
                        path: workFile.displayPath,
                        reason: "the archive is written, but the work file cannot be removed"))
            }
        }
        return count
    }

    /// Renames `source` over `destination` (replacing it); on failure `source` is kept.
    static func moveIntoPlace(_ source: URL, at destination: URL) throws(TilesetToolsError) {
        if rename(source.path, destination.path) != 0 {
            throw .tileset(
                .fileSystem(
                    path: destination.displayPath,
                    reason: "cannot rename \(source.lastPathComponent) into place: \(String(cString: strerror(errno)))")
            )
        }
    }
}

extension TilesetWriter {
    /// Removes the work file and SQLite's files beside it (for a conversion that failed; an
    /// export keeps its work file for `--resume`).
    func discardWorkFile() {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: workFile.path + suffix)
        }
    }
}

extension TilesetWriter {
    /// A writer whose work file is hidden and its own (`.NAME.UUID.partial`), for conversions,
    /// imports and merges: an interrupted export's `NAME.partial` is never touched, and a failed
    /// run removes its work file (see ``discardWorkFile()``).
    static func temporary(for output: URL) throws(TilesetToolsError) -> TilesetWriter {
        let workFile = output.deletingLastPathComponent().appendingPathComponent(
            ".\(output.lastPathComponent).\(UUID().uuidString).partial")
        return try TilesetWriter(output: output, workFile: workFile, resuming: false)
    }

    /// Merges an MBTiles file into the work file (see `MBTilesWriter.merge(from:onConflict:)`).
    func merge(from source: MBTilesStore, onConflict: MBTilesMergeReport.ConflictPolicy) throws(TilesetToolsError)
        -> MBTilesMergeReport
    {
        do throws(MBTilesError) { return try writer.merge(from: source, onConflict: onConflict) } catch {
            throw .tileset(.mbtiles(error))
        }
    }

    /// Runs `body` with a writer made by ``temporary(for:)``; removes its work file when `body`
    /// throws.
    static func withTemporary<T>(for output: URL, _ body: (TilesetWriter) throws(TilesetToolsError) -> T)
        throws(TilesetToolsError) -> T
    {
        let writer = try temporary(for: output)
        do { return try body(writer) } catch {
            writer.discardWorkFile()
            throw error
        }
    }
}
