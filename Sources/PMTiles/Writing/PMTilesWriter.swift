public import Foundation
public import MapCore
import Synchronization
public import TileSources

/// Writes a PMTiles v3 archive from tiles that arrive in any order, as a batch export renders
/// them (metatile by metatile, on many threads).
///
/// Each tile's bytes go to a spool file beside the archive as they are added; only a small
/// index stays in memory (about 16 bytes a tile and 40 a distinct tile). ``finish(metadata:)``
/// sorts the index by tile id and writes the archive: header, root directory, metadata, leaf
/// directories, then the tile data in tile-id order (clustered). For example:
///
/// ```swift
/// let writer = try PMTilesWriter(url: URL(fileURLWithPath: "alps.pmtiles"),
///                                metadata: TileMetadata(name: "Alps", format: .png))
/// for (tile, png) in rendered { try writer.add(png, at: tile) }
/// try writer.finish()
/// ```
///
/// - **Deduplication.** Identical tile bytes (an ocean, say) are stored once: tiles are matched
///   by CRC-32 and length, then compared byte for byte, so different tiles are never merged.
///   Consecutive tile ids with the same bytes become one run-length entry.
/// - **The same tile twice.** The bytes added last win.
/// - **Atomic.** The archive is written under a temporary name beside `url` and renamed over it
///   when complete; until then any earlier file at `url` is untouched. The spool has no name
///   from the moment it is created, so an interrupted export (even by `kill -9`) leaves no spool
///   behind; only a crash during ``finish(metadata:)`` can leave a hidden `.NAME.UUID.tmp`.
/// - **Encoding.** Directories and metadata are gzip (what every reader reads, PyPI's
///   `pmtiles` among them), one level of leaf directories when the root would not fit in the
///   first 16 KiB.
///
/// **Threads.** The writer is `Sendable`; ``add(_:at:)`` may be called from any thread, the
/// calls taking turns on a `Mutex`.
public final class PMTilesWriter: Sendable {
    /// The archive to write.
    public let url: URL
    private let state: Mutex<PMTilesWriterState>

    /// Starts an archive: creates the spool file beside `url` (and `url`'s folder when missing).
    ///
    /// - Parameters:
    ///   - url: The archive to write; an existing file there is replaced by ``finish(metadata:)``.
    ///   - metadata: The JSON metadata; ``finish(metadata:)`` may replace it. The writer fills in
    ///     `format`, `minzoom`, `maxzoom`, `bounds` and `center` from the tiles when they are nil.
    ///     The default is empty metadata.
    ///   - tileType: The header's tile type. The default, nil, takes it from `metadata.format`
    ///     (``PMTilesHeader/TileType/init(format:)``).
    ///   - tileCompression: How the tiles' bytes are compressed. The default, nil, is gzip when
    ///     the first tile added starts as gzip does (`1F 8B`, as MBTiles vector tiles do) and
    ///     none otherwise.
    /// - Throws: ``PMTilesError/unwritableFile(path:reason:)`` when the folder cannot be made or
    ///   written.
    public init(
        url: URL,
        metadata: TileMetadata = TileMetadata(),
        tileType: PMTilesHeader.TileType? = nil,
        tileCompression: PMTilesHeader.Compression? = nil
    ) throws(PMTilesError) {
        self.url = url
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .unwritableFile(path: url.path, reason: "cannot create the folder \(folder.path)")
        }
        let spool = try TileSpool(besideArchiveAt: url)
        state = Mutex(
            PMTilesWriterState(spool: spool, metadata: metadata, tileType: tileType, tileCompression: tileCompression))
    }

    /// Adds a tile's bytes (PNG, JPEG, vector tile…), stored as they are.
    ///
    /// - Throws: ``PMTilesError/invalidTileSize(path:tile:byteCount:)`` for empty bytes or more
    ///   than 4 GiB − 1 of them, ``PMTilesError/writerClosed(path:)`` after ``finish(metadata:)``
    ///   or ``cancel()``, ``PMTilesError/unwritableFile(path:reason:)`` when the spool cannot be
    ///   written (a full disk).
    public func add(_ data: Data, at tile: TileID) throws(PMTilesError) {
        guard (1...Int(UInt32.max)).contains(data.count) else {
            throw .invalidTileSize(path: url.path, tile: tile.description, byteCount: data.count)
        }
        let result = state.withLock { state in
            Result { () throws(PMTilesError) in try state.add(data, at: tile, path: url.path) }
        }
        try result.get()
    }

    /// The number of tiles added so far, a tile added twice counted twice.
    public var addedTileCount: Int {
        state.withLock { $0.records.count }
    }

    /// Writes the archive and renames it to ``url``; the writer is closed afterwards.
    ///
    /// - Parameter metadata: Metadata to write in place of the one given to ``init(url:metadata:tileType:tileCompression:)``;
    ///   the default, nil, keeps that one.
    /// - Returns: The archive's header.
    /// - Throws: ``PMTilesError/noTiles(path:)`` when no tile was added,
    ///   ``PMTilesError/writerClosed(path:)`` when already finished or cancelled,
    ///   ``PMTilesError/unwritableFile(path:reason:)`` when the archive cannot be written. Nothing
    ///   is left at, or changed at, ``url`` when it throws, and the writer is closed.
    @discardableResult
    public func finish(metadata: TileMetadata? = nil) throws(PMTilesError) -> PMTilesHeader {
        let result = state.withLock { state in
            Result { () throws(PMTilesError) in
                defer { state.close() }
                if let metadata { state.metadata = metadata }
                return try state.finish(url: url)
            }
        }
        return try result.get()
    }

    /// Drops the tiles added and closes the writer; nothing is written at ``url``.
    public func cancel() {
        state.withLock { $0.close() }
    }
}
