import Dispatch
public import Foundation
public import MapCore
public import MapRenderer
import MapUtilities
import Synchronization
public import TileSources
import TilesetTools

/// A batch export: the tiles of a ``MapCore/MetatileCover`` rendered by a ``MapRenderer/MapTileRenderer``
/// on every core, encoded as PNG on the rendering threads, and written by one ``TilesetWriter``
/// into an MBTiles or PMTiles file. What `mapwright tiles export` runs.
///
/// ```swift
/// let cover = try MetatileCover(region: alps, zoomLevels: 0...10, metatileSize: renderer.options.metatileSize)
/// let export = TileExport(renderer: renderer, cover: cover, output: URL(fileURLWithPath: "alps.mbtiles"),
///                         metadata: TileMetadata(name: "Alps"))
/// let summary = try export.run { progress in print(progress.tilesDone, "/", progress.tilesTotal) }
/// ```
///
/// - **Metatiles**: each worker takes the next metatile in the cover's order, renders the
///   cover's tiles in it at once, and hands them to the writer in one call, so a metatile is
///   committed whole or not at all. Tiles are committed every 1,000 tiles and at least every
///   ``commitIntervalSeconds``: a kill loses at most that much work.
/// - **Resuming**: with ``Options/resume``, the work file an interrupted run left
///   (`NAME.partial`, see ``TilesetWriter``) is opened again; metatiles whose tiles are all in
///   it are skipped, so the finished file has every tile once. The run must ask for the same
///   tiles: ``Options/fingerprint`` and the cover, tile options and shard are recorded in the
///   work file and compared.
/// - **Shards**: ``Options/shard`` takes shard K of N (``MapCore/MetatileCover/metatiles(inShard:of:)``:
///   whole metatiles dealt round-robin), so N machines each write their own file, and
///   `tiles merge` joins them into the file one export would have written.
/// - **Memory** stays flat: metatiles are made one at a time from the cover, a worker holds one
///   metatile's tiles, the writer one batch.
public struct TileExport: Sendable {
    /// Shard `index` (from 0) of `count`.
    public struct Shard: Hashable, Sendable, CustomStringConvertible {
        /// Which shard, from 0.
        public var index: Int
        /// How many shards.
        public var count: Int

        /// Shard `index` of `count`.
        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }

        /// `K/N`, as `--shard` takes it.
        public var description: String { "\(index)/\(count)" }
    }

    /// How an export runs.
    public struct Options: Sendable {
        /// Rendering threads. The default is the number of cores.
        public var jobs: Int
        /// Whether to go on with the work file of an interrupted run. The default is false.
        public var resume: Bool
        /// The shard to export; nil (the default) exports the whole cover.
        public var shard: Shard?
        /// PNG encoding of every tile. The default is zlib level 6, RGBA.
        public var encoding: TilePNGEncoding
        /// What the tiles are made from besides the cover and tile options (the style, photos,
        /// overlays…), as text; a resumed run must give the same. The default is empty.
        public var fingerprint: String
        /// Tiles per committed transaction. The default is 1,000.
        public var tilesPerBatch: Int

        /// Creates options; see each property for its default.
        public init(
            jobs: Int = ProcessInfo.processInfo.activeProcessorCount, resume: Bool = false, shard: Shard? = nil,
            encoding: TilePNGEncoding = TilePNGEncoding(), fingerprint: String = "", tilesPerBatch: Int = 1_000
        ) {
            self.jobs = jobs
            self.resume = resume
            self.shard = shard
            self.encoding = encoding
            self.fingerprint = fingerprint
            self.tilesPerBatch = tilesPerBatch
        }
    }

    /// Where an export is, as handed to the progress handler after each metatile.
    public struct Progress: Sendable {
        /// Tiles in the export (the shard's, when sharded).
        public var tilesTotal: Int
        /// Tiles done: rendered this run, or found done by a resumed run.
        public var tilesDone: Int
        /// Tiles a resumed run found already done.
        public var tilesResumed: Int
        /// Seconds since the run started.
        public var elapsedSeconds: Double

        /// Tiles rendered per second this run.
        public var tilesPerSecond: Double {
            elapsedSeconds > 0 ? Double(tilesDone - tilesResumed) / elapsedSeconds : 0
        }

        /// Seconds left at the rate so far; nil before any tile is rendered.
        public var secondsRemaining: Double? {
            let rate = tilesPerSecond
            return rate > 0 ? Double(tilesTotal - tilesDone) / rate : nil
        }
    }

    /// What an export did.
    public struct Summary: Sendable {
        /// The file written.
        public var output: URL
        /// Tiles in the file.
        public var tileCount: Int
        /// Tiles rendered by this run.
        public var renderedTileCount: Int
        /// Tiles a resumed run found done.
        public var resumedTileCount: Int
        /// Seconds the run took.
        public var seconds: Double
        /// Tiles rendered per second.
        public var tilesPerSecond: Double { seconds > 0 ? Double(renderedTileCount) / seconds : 0 }
    }

    /// The longest time rendered tiles wait before they are committed, in seconds: 2. Batches
    /// also commit whenever ``Options/tilesPerBatch`` tiles have gathered.
    public static let commitIntervalSeconds = 2.0

    /// The metadata key under which the work file records what it is an export of.
    public static let exportMetadataKey = "mapwright_export"

    /// The renderer: style, content and tile options.
    public let renderer: MapTileRenderer
    /// The tiles to export; its metatile size must be the renderer's.
    public let cover: MetatileCover
    /// The file to write, `.mbtiles` or `.pmtiles`.
    public let output: URL
    /// The output's metadata; `minzoom`, `maxzoom`, `bounds`, `center` and `format` are filled
    /// in from the cover when nil.
    public let metadata: TileMetadata
    /// How the export runs.
    public let options: Options

    /// An export; nothing happens until ``run(isCancelled:progress:)``.
    public init(
        renderer: MapTileRenderer, cover: MetatileCover, output: URL, metadata: TileMetadata,
        options: Options = Options()
    ) {
        self.renderer = renderer
        self.cover = cover
        self.output = output
        self.metadata = metadata
        self.options = options
    }

    /// The metatiles to render, in order: the cover's, or the shard's.
    public var metatiles: AnySequence<MetatileID> {
        guard let shard = options.shard else { return AnySequence(cover.metatiles) }
        let all = cover.metatiles
        return AnySequence(all.enumerated().lazy.filter { $0.offset % shard.count == shard.index }.map(\.element))
    }

    /// The number of tiles to write: the cover's, or the shard's.
    public var tileCount: Int {
        guard let shard = options.shard else { return cover.tileCount }
        return (try? cover.tileCount(inShard: shard.index, of: shard.count)) ?? 0
    }

    /// The work file's record of what it exports: the cover, tile options, shard and fingerprint.
    var exportRecord: String {
        let rect = cover.mapRect
        let tile = renderer.options
        return [
            "zoom=\(cover.zoomLevels.lowerBound)-\(cover.zoomLevels.upperBound)",
            "rect=\(rect.origin.x),\(rect.origin.y),\(rect.size.width),\(rect.size.height)",
            "tile-size=\(tile.tileSizePoints)", "scale=\(tile.scale)", "metatile=\(cover.metatileSize)",
            "layers=\(tile.layers.rawValue)", "shard=\(options.shard?.description ?? "none")",
            "palette=\(options.encoding.palette)", "compression=\(options.encoding.compressionLevel)",
            "content=\(options.fingerprint)",
        ].joined(separator: "; ")
    }

    /// Renders and writes every tile, then makes the output.
    ///
    /// - Parameters:
    ///   - isCancelled: Asked before each metatile; when it answers true, the workers stop, what
    ///     was rendered is committed to the work file, and ``TileExportError/cancelled(path:committedTileCount:)`` is thrown.
    ///   - progress: Called after each metatile, from the rendering threads.
    /// - Returns: What was done.
    /// - Throws: ``TileExportError``: the work file's problems, a render that fails, a resume of a
    ///   different export, cancellation. The work file is kept for `--resume` in every case but a
    ///   refusal before any tile.
    @discardableResult
    public func run(
        isCancelled: @escaping @Sendable () -> Bool = { false },
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) throws(TileExportError) -> Summary {
        guard cover.metatileSize == renderer.options.metatileSize else {
            throw .invalidExport(
                reason:
                    "the cover's metatiles are \(cover.metatileSize) tiles a side, the renderer's \(renderer.options.metatileSize)"
            )
        }
        let total = tileCount
        guard total > 0 else { throw .invalidExport(reason: "the area and zoom levels hold no tiles") }
        let start = DispatchTime.now().uptimeNanoseconds
        let writer = try Self.tileset { () throws(TilesetToolsError) in
            try TilesetWriter(output: output, resuming: options.resume, tilesPerBatch: options.tilesPerBatch)
        }
        let record = exportRecord
        if writer.isResuming,
            let earlier = try Self.tileset({ () throws(TilesetToolsError) in
                try writer.workFileMetadataValue(forKey: Self.exportMetadataKey)
            }),
            earlier != record
        {
            throw .tileset(
                .unfinishedExport(
                    path: writer.workFile.displayPath,
                    reason:
                        "--resume: this file is an export of other tiles or options (\(Self.difference(earlier, record))); "
                        + "run the command that started it, or delete the file to start again"))
        }
        try Self.tileset { () throws(TilesetToolsError) in
            try writer.setWorkFileMetadataValues([Self.exportMetadataKey: record])
        }

        renderer.preparePlacements(forTileZooms: cover.zoomLevels)
        let state = Mutex(WorkState(iterator: metatiles.makeIterator()))
        let workers = max(1, options.jobs)
        let renderer = renderer
        let cover = cover
        let encoding = options.encoding
        let resuming = writer.isResuming
        let elapsed: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                if isCancelled() {
                    state.withLock { $0.cancelled = true }
                    return
                }
                guard let metatile = state.withLock({ $0.failure == nil && !$0.cancelled ? $0.iterator.next() : nil })
                else { return }
                var wanted = cover.tiles(in: metatile)
                var resumed = 0
                do throws(TileExportError) {
                    if resuming {
                        let done = try Self.tileset { () throws(TilesetToolsError) in
                            try writer.existingTiles(
                                zoom: metatile.z, columns: metatile.tileColumns, rows: metatile.tileRows)
                        }
                        let before = wanted.count
                        wanted.removeAll { done.contains($0) }
                        resumed = before - wanted.count
                    }
                    if !wanted.isEmpty {
                        let tiles: [EncodedTile]
                        do throws(RendererError) {
                            tiles = try renderer.encodedTiles(of: metatile, only: wanted, encoding: encoding)
                        } catch {
                            throw TileExportError.render(tile: "\(metatile)", reason: error.description)
                        }
                        try Self.tileset { () throws(TilesetToolsError) in
                            try writer.add(Dictionary(uniqueKeysWithValues: tiles.map { ($0.tile, $0.data) }))
                        }
                    }
                } catch {
                    state.withLock { if $0.failure == nil { $0.failure = error } }
                    return
                }
                let now = elapsed()
                let (snapshot, commitNow) = state.withLock { state in
                    state.done += wanted.count + resumed
                    state.resumed += resumed
                    // A commit at least every `commitIntervalSeconds`, so a kill loses little
                    // even when batches fill slowly (large tiles, deep zooms).
                    let due = now - state.lastCommitSeconds >= Self.commitIntervalSeconds
                    if due { state.lastCommitSeconds = now }
                    return (
                        Progress(
                            tilesTotal: total, tilesDone: state.done, tilesResumed: state.resumed, elapsedSeconds: now),
                        due
                    )
                }
                if commitNow {
                    do throws(TilesetToolsError) { try writer.flush() } catch {
                        state.withLock { if $0.failure == nil { $0.failure = .tileset(error) } }
                        return
                    }
                }
                progress(snapshot)
            }
        }
        let final = state.withLock { $0 }
        if let failure = final.failure {
            try? writer.flush()
            throw failure
        }
        if final.cancelled {
            try Self.tileset { () throws(TilesetToolsError) in try writer.flush() }
            throw .cancelled(
                path: writer.workFile.displayPath, committedTileCount: (try? writer.committedTileCount()) ?? 0)
        }
        let metadata = completedMetadata()
        let count = try Self.tileset { () throws(TilesetToolsError) in try writer.finish(metadata: metadata) }
        return Summary(
            output: output, tileCount: count, renderedTileCount: final.done - final.resumed,
            resumedTileCount: final.resumed,
            seconds: elapsed())
    }

    /// ``metadata`` with the zooms, bounds, centre and format filled in from the cover.
    func completedMetadata() -> TileMetadata {
        var metadata = metadata
        metadata.format = metadata.format ?? .png
        metadata.minZoom = metadata.minZoom ?? cover.zoomLevels.lowerBound
        metadata.maxZoom = metadata.maxZoom ?? cover.zoomLevels.upperBound
        if metadata.bounds == nil {
            // The cover's edges, clamped to the Mercator square (±85.0511°); a cover across the
            // antimeridian has the whole width, as MBTiles bounds cannot cross it.
            let rect = cover.mapRect
            let size = WebMercator.worldSize
            let crosses = rect.minX < 0 || rect.maxX > size
            let west = crosses ? -180 : rect.minX / size * 360 - 180
            let east = crosses ? 180 : rect.maxX / size * 360 - 180
            let north = MapPoint(x: 0, y: min(size, max(0, rect.minY))).coordinate.latitude
            let south = MapPoint(x: 0, y: min(size, max(0, rect.maxY))).coordinate.latitude
            metadata.bounds = BoundingBox(
                west: Self.rounded(west), south: Self.rounded(south), east: Self.rounded(east),
                north: Self.rounded(north))
        }
        if metadata.center == nil, let bounds = metadata.bounds {
            let zoom = min(
                cover.zoomLevels.upperBound,
                max(cover.zoomLevels.lowerBound, (cover.zoomLevels.lowerBound + cover.zoomLevels.upperBound) / 2))
            // The longitude from the cover itself, not the bounds: a cover across the antimeridian
            // has whole-world bounds, whose middle (0°) is the other side of the Earth.
            let rect = cover.mapRect
            let longitude = Coordinate.wrappedLongitude((rect.minX + rect.maxX) / 2 / WebMercator.worldSize * 360 - 180)
            metadata.center = .init(
                longitude: Self.rounded(longitude), latitude: Self.rounded((bounds.south + bounds.north) / 2),
                zoom: zoom)
        }
        return metadata
    }

    /// Runs `body`, its tileset error wrapped as the export's.
    private static func tileset<T>(_ body: () throws(TilesetToolsError) -> T) throws(TileExportError) -> T {
        do { return try body() } catch { throw .tileset(error) }
    }

    /// Degrees to 7 decimals (about a centimetre), without binary noise.
    static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }

    /// The first part of two export records that differs, for the refusal's message.
    static func difference(_ earlier: String, _ now: String) -> String {
        let old = earlier.components(separatedBy: "; ")
        let new = now.components(separatedBy: "; ")
        for (a, b) in zip(old, new) where a != b {
            let key = a.split(separator: "=").first.map(String.init) ?? a
            return "\(key): \(a.dropFirst(key.count + 1)) then, \(b.dropFirst(key.count + 1)) now"
        }
        return "its record differs"
    }

    private struct WorkState {
        var iterator: AnySequence<MetatileID>.Iterator
        var done = 0
        var resumed = 0
        var failure: TileExportError?
        var cancelled = false
        var lastCommitSeconds = 0.0
    }
}
