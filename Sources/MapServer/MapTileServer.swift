import Dispatch
import FontGlyphs
import Foundation
import HTTPTypes
public import Logging
import MBTiles
public import MapCore
import MapData
import MapRenderer
import NIOPosix
import Synchronization

/// What the server serves: styles, the photo overlay, tileset files. Made once at start-up.
public struct ServerContent: Sendable {
    /// Styles by URL name, in the order given.
    public var styles: [ServedStyle]
    /// The photo overlay, when photos or overlays were given.
    public var overlay: ServedOverlay?
    /// Tileset files, in the order given.
    public var tilesets: [ServedTileset]
    /// The photos and overlays static maps draw, and `/photos/ID/…` serves; `nil` draws static
    /// maps of their `marker=` and `path=` alone.
    public var photos: ServedPhotos?
    /// Where changes to the photos come from while the server runs (a photo library); `nil`
    /// when the photos are fixed at start-up.
    public var photoFeed: PhotoFeed?
    /// Tileset files the styles draw from that are not among ``tilesets`` (`--vector-source`, a
    /// style's own MBTiles), served with them as TileServer GL's data, `/data/NAME/…` (see
    /// ``dataTilesets``); their names differ from the tilesets'. The default is none.
    public var styleTilesets: [ServedTileset] = []
    /// The SDF glyph fonts served under `/fonts/…` (`serve --fonts`); nil (the default) for none.
    public var fonts: ServedFonts?

    public init(
        styles: [ServedStyle] = [], overlay: ServedOverlay? = nil, tilesets: [ServedTileset] = [],
        photos: ServedPhotos? = nil,
        photoFeed: PhotoFeed? = nil
    ) {
        self.styles = styles
        self.overlay = overlay
        self.tilesets = tilesets
        self.photos = photos
        self.photoFeed = photoFeed
    }

    func style(named name: String) -> ServedStyle? { styles.first { $0.name == name } }
    func tileset(named name: String) -> ServedTileset? { tilesets.first { $0.name == name } }

    /// The style a URL path component names, percent-encoded or not (see ``URLPathComponent``).
    ///
    /// - Throws: 404 when no style of that name is served.
    func style(inPath component: Substring) throws(ServeError) -> ServedStyle {
        let name = URLPathComponent.decodedName(component)
        guard let style = name.flatMap(style(named:)) else {
            throw .notFound("no style named '\(name ?? String(component))'")
        }
        return style
    }

    /// The tileset a URL path component names, percent-encoded or not (see ``URLPathComponent``).
    ///
    /// - Throws: 404 when no tileset of that name is served.
    func tileset(inPath component: Substring) throws(ServeError) -> ServedTileset {
        let name = URLPathComponent.decodedName(component)
        guard let tileset = name.flatMap(tileset(named:)) else {
            throw .notFound("no tileset named '\(name ?? String(component))'")
        }
        return tileset
    }
}

/// The server's state and its tile pipeline, apart from HTTP: what is served (set once loading is
/// done, see ``finishStarting(with:)``), the cache, the render pool and the metrics. Routes ask it
/// for tiles; ``buildApplication(server:)`` puts it behind Hummingbird.
///
/// A tile not in the cache is rendered with the rest of its metatile on the render pool, once
/// however many requests ask for tiles of that metatile at the same time; the tiles go to the cache.
public final class MapTileServer: Sendable {
    public let configuration: ServerConfiguration
    public let cache: TileCache
    /// The tiles answered most recently, in front of ``cache`` and the tileset files.
    public let memory: MemoryTileCache
    /// Tiles of the photo overlay and density map that a change of photos replaced, kept to
    /// stand in for their new versions under load (see ``standIn(for:cacheKey:)``).
    let replacedTiles: MemoryTileCache
    public let metrics: ServerMetrics
    /// Glyph ranges generated from installed fonts (`/fonts/…`, see ``ServedFonts``), kept in
    /// memory and beside the cache's files, in `<folder>/<base>.glyphs/` (not written when the
    /// cache is read-only).
    let generatedGlyphs: GeneratedGlyphRanges
    let logger: Logger
    let pool: RenderPool<RenderKey, RenderOutput>
    private let content = Mutex<ServerContent?>(nil)
    private let renderers = Mutex<[TileCacheKey: MapTileRenderer]>([:])
    /// The overlay's content at scale 1 (annotations, clusters, tracks), for the annotations API and the viewer.
    private let overlayContentBox = OverlayContentBox()
    /// Called on the render thread before each metatile render: the tests slow renders down with it.
    let beforeRender: @Sendable (MetatileID) -> Void
    /// Counts the photo overlay's changes (see ``refreshPhotosIfChanged()``): an overlay render
    /// begun before a change keeps its tiles out of the caches.
    let overlayGeneration = Atomic<UInt64>(0)
    /// Counts changes of what a tile URL means (the content replaced, a tileset file opened
    /// again or changed): answers made ready for URLs (``KeptTileAnswers``) hold until it moves.
    let answersGeneration = Atomic<UInt64>(0)
    /// The bytes of the event loops' answer files (``AnswerFile``): memory the process holds
    /// that its resident figure leaves out.
    let answerFileBytes = Atomic<Int>(0)
    /// The sources whose left-out data (broken features, unreadable tiles, unreadable GeoJSON) was
    /// logged: each once.
    private let loggedSkippedData = Mutex<Set<String>>([])
    /// The photo feed's version served.
    let appliedPhotoVersion = Mutex<Int64?>(nil)
    /// Whether the memory guard refuses new renders: resident memory is at 75% of
    /// ``ServerConfiguration/memoryLimitBytes`` (see ``checkMemory()``).
    let refusesRendersForMemory = Atomic<Bool>(false)
    /// When the memory guard last trimmed, in `DispatchTime` nanoseconds; 0 before the first trim.
    let lastMemoryTrim = Atomic<UInt64>(0)

    /// The key of one render: a metatile of one cache file's tiles, or an image (a static map, a
    /// thumbnail) by its request in a canonical form.
    enum RenderKey: Hashable, Sendable {
        case metatile(TileCacheKey, MetatileID)
        case image(String)

        /// The `source` label of the render metrics.
        var source: String {
            switch self {
            case .metatile(let key, _): return key.source
            case .image: return "images"
            }
        }
    }

    /// What a render makes: a metatile's tiles, or an image's bytes (PNG, JPEG).
    enum RenderOutput: Sendable {
        case tiles([TileID: Data])
        case image(Data)
    }

    /// A server that answers 503 (but for `/health` and `/metrics`) until ``finishStarting(with:)``.
    ///
    /// - Parameters:
    ///   - beforeRender: Called on the render thread before each metatile render. The default does nothing.
    public init(
        configuration: ServerConfiguration = ServerConfiguration(), cache: TileCache,
        metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "mapwright.serve"),
        beforeRender: @escaping @Sendable (MetatileID) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.cache = cache
        memory = MemoryTileCache(capacityBytes: configuration.memoryCacheBytes)
        replacedTiles = MemoryTileCache(capacityBytes: configuration.replacedTileBytes)
        generatedGlyphs = GeneratedGlyphRanges(
            folder: cache.folder.appendingPathComponent("\(cache.baseName).glyphs", isDirectory: true),
            writesFiles: cache.isWritable)
        self.metrics = metrics
        self.logger = logger
        self.beforeRender = beforeRender
        pool = RenderPool(
            threadCount: max(1, configuration.renderThreads), queueLimit: max(1, configuration.renderQueueLimit),
            maximumWaitSeconds: configuration.renderTimeoutSeconds,
            events: .init(
                queueDepthChanged: { [metrics] lane, depth in metrics.recordQueueDepth(depth, lane: lane) },
                joined: { [metrics] in metrics.increment("mapwright_render_joins_total", [("source", $0.source)]) },
                dropped: { [metrics] in metrics.increment("mapwright_render_dropped_total", [("source", $0.source)]) }))
    }

    /// Makes the server ready: from now on it serves `content` and `/health` answers 200.
    public func finishStarting(with content: ServerContent) {
        if let overlay = content.overlay, let drawnFor = overlay.drawnFor {
            adoptOverlayCache(overlay, drawnFor: drawnFor)
        }
        self.content.withLock { $0 = content }
        urlsChanged()
        if let feed = content.photoFeed { appliedPhotoVersion.withLock { $0 = feed.loadedVersion } }
    }

    /// Serves `content` from now on in place of everything served so far, as when a served file
    /// changed or on SIGHUP (`ServeInputs` loads it again, as at start-up): the renderers and the
    /// tiles kept in memory are let go (renders in flight finish, but their tiles are not kept
    /// for the new content), and a tileset served before under the same name goes on counting
    /// its generations, so that a tile read from the old file is never answered for the new one.
    /// The tile cache files stay: they are keyed by what their tiles are drawn from.
    public func reload(with content: ServerContent) {
        let before = try? servedContent()
        for tileset in content.dataTilesets {
            if let old = before?.dataTilesets.first(where: { $0.name == tileset.name }) {
                tileset.continueGenerations(after: old.current.generation)
            }
        }
        if let overlay = content.overlay, let drawnFor = overlay.drawnFor {
            adoptOverlayCache(overlay, drawnFor: drawnFor)
        }
        overlayGeneration.add(1, ordering: .releasing)
        self.content.withLock { $0 = content }
        renderers.withLock { $0.removeAll() }
        overlayContentBox.reset()
        memory.removeAll()
        replacedTiles.removeAll()
        urlsChanged()
        appliedPhotoVersion.withLock { $0 = content.photoFeed?.loadedVersion }
    }

    /// Replaces what is served, keeping the photo feed's state: a changed library's new overlay.
    func replaceContent(_ change: (inout ServerContent) -> Void) {
        content.withLock { content in
            guard var current = content else { return }
            change(&current)
            content = current
        }
        urlsChanged()
    }

    /// Says that tile URLs may mean other tiles from now on (see ``answersGeneration``).
    func urlsChanged() {
        answersGeneration.add(1, ordering: .releasing)
    }

    /// Forgets the overlay renderers and the annotations' content: made again from the new overlay on first use.
    func forgetOverlayRenderers(keeping kept: [TileCacheKey: MapTileRenderer]) {
        renderers.withLock { renderers in
            for key in renderers.keys where key.isOverlay { renderers[key] = nil }
            renderers.merge(kept) { _, new in new }
        }
        overlayContentBox.reset()
    }

    /// The overlay renderer of a key already made, if any.
    func existingRenderer(for key: TileCacheKey) -> MapTileRenderer? { renderers.withLock { $0[key] } }

    /// Whether loading is done.
    public var isReady: Bool { content.withLock { $0 != nil } }

    /// What is served.
    ///
    /// - Throws: 503 while the server is starting.
    func servedContent() throws(ServeError) -> ServerContent {
        guard let content = content.withLock({ $0 }) else {
            throw .unavailable("the server is starting", retryAfterSeconds: configuration.retryAfterSeconds)
        }
        return content
    }

    /// The overlay's annotations, cluster index and overlays (at scale 1), made at the first call
    /// off the cooperative threads.
    ///
    /// - Throws: 404 when no photos or overlays are served; what making the content throws.
    func overlayContent() async throws -> MapTileContent {
        guard let overlay = try servedContent().overlay else {
            throw ServeError.notFound("no photos or overlays are served")
        }
        return try await overlayContentBox.content { try overlay.content(1) }
    }

    /// Stops the render threads and commits the cache. Call once the HTTP server has stopped.
    public func shutdown() {
        pool.shutdown()
        do { try cache.close() } catch { logger.error("cache: \(error.description)") }
    }

    // MARK: - Tiles on demand

    /// A tile of a style or the overlay: from memory, from the cache file (read on NIO's
    /// blocking-I/O threads, never on an event loop), or rendered with its metatile in `lane`.
    ///
    /// Under load a tile is answered from what exists instead of waiting (see
    /// ``ServerConfiguration/tileWaitSeconds``): when the renders queued ahead would keep it
    /// longer than that, or its render has not started within it, a stand-in answers at once
    /// (``standIn(for:cacheKey:)``) and the render goes on in the background lane; with no
    /// stand-in, 503 with `Retry-After`. The same when its render has started but is not done
    /// within ``ServerConfiguration/tileAnswerSeconds`` while other renders wait: the render goes
    /// on, and its tiles are kept for the next request.
    ///
    /// - Parameter disconnected: Registers a handler called when the requester goes away. The
    ///   default never calls it.
    /// - Throws: ``ServeError``: 404 beyond the zooms served, 503 when the render queue is full or
    ///   the render takes too long, 500 when the render fails.
    func renderedTile(
        _ tile: TileID, cacheKey: TileCacheKey, lane: RenderLane = .tiles,
        makeRenderer: @escaping @Sendable () throws -> MapTileRenderer,
        disconnected: DisconnectHook = { _ in {} }
    ) async throws -> ServedTile {
        guard tile.z <= configuration.maximumZoom else {
            throw ServeError.notFound("zoom \(tile.z) is beyond the deepest zoom served, \(configuration.maximumZoom)")
        }
        let source = MemoryTileSource.rendered(cacheKey)
        let labels = [("source", cacheKey.source)]
        if let kept = memory.tile(MemoryTileKey(source: source, tile: tile)) {
            metrics.increment("mapwright_tile_cache_hits_total", labels)
            return .tile(kept)
        }
        do {
            if let data = try await blockingIO({ [cache] in try cache.tile(tile, key: cacheKey) }) {
                metrics.increment("mapwright_tile_cache_hits_total", labels)
                let kept = CachedTile(data)
                memory.insert(kept, for: MemoryTileKey(source: source, tile: tile))
                return .tile(kept)
            }
        } catch let error as MBTilesError {
            logger.error("cache: \(error.description)")
        }
        metrics.increment("mapwright_tile_cache_misses_total", labels)

        let metatile = MetatileID(containing: tile, size: configuration.metatileSize)
        let generation = overlayGeneration.load(ordering: .acquiring)
        let work = metatileWork(metatile, checking: tile, cacheKey: cacheKey, makeRenderer: makeRenderer)
        let patience = configuration.tileWaitSeconds
        let output: RenderOutput
        do {
            // Overloaded: the renders ahead would keep this one waiting too long. Answered from
            // what exists; the metatile is drawn in the background for later askers.
            if let wait = pool.expectedWaitSeconds(in: lane), wait > patience,
                !pool.isQueuedOrRunning(.metatile(cacheKey, metatile))
            {
                if !refusesRendersForMemory.load(ordering: .relaxed) {
                    pool.keep(.metatile(cacheKey, metatile), work: work)
                }
                throw RenderPoolError.notStarted
            }
            output = try await render(
                .metatile(cacheKey, metatile), lane: lane, patienceSeconds: patience,
                overdueAfterSeconds: configuration.tileAnswerSeconds,
                disconnected: disconnected, work: work)
        } catch RenderPoolError.notStarted {
            return try await standInAnswer(for: tile, cacheKey: cacheKey)
        } catch is RenderOverdue {
            return try await standInAnswer(for: tile, cacheKey: cacheKey)
        } catch let error as ServeError where error.status == .serviceUnavailable {
            // The queue is full: a stand-in, if there is one, is better than a 503.
            guard case .standIn(let standIn, let kind) = try? await standInAnswer(for: tile, cacheKey: cacheKey) else {
                throw error
            }
            return .standIn(standIn, kind)
        }
        guard case .tiles(let tiles) = output else {
            throw ServeError(.internalServerError, "the render did not make tile \(tile)")
        }
        // A request that joined another's work can find it answered from the cache with that
        // request's tile alone (an earlier render of the metatile finished in between): its
        // own tile is in the cache too, then.
        var found = tiles[tile]
        if found == nil { found = try? await blockingIO({ [cache] in try cache.tile(tile, key: cacheKey) }) ?? nil }
        guard let data = found else { throw ServeError(.internalServerError, "the render did not make tile \(tile)") }
        var asked = CachedTile(data)
        guard !cacheKey.isOverlay || overlayGeneration.load(ordering: .acquiring) == generation else {
            return .tile(asked)
        }
        for (other, otherData) in tiles {
            let kept = other == tile ? asked : CachedTile(otherData)
            if other == tile { asked = kept }
            memory.insert(kept, for: MemoryTileKey(source: source, tile: other))
        }
        return .tile(asked)
    }

    /// A stand-in for a tile whose render is not waited for, counted by kind; 503 when there is none.
    private func standInAnswer(for tile: TileID, cacheKey: TileCacheKey) async throws -> ServedTile {
        if let (standIn, kind) = await standIn(for: tile, cacheKey: cacheKey) {
            metrics.increment(
                "mapwright_stand_in_answers_total", [("kind", kind.rawValue), ("source", cacheKey.source)])
            return .standIn(standIn, kind)
        }
        metrics.increment("mapwright_stand_in_answers_total", [("kind", "unavailable"), ("source", cacheKey.source)])
        throw ServeError.unavailable(
            "tile \(tile) is not drawn yet: it is queued behind other renders",
            retryAfterSeconds: configuration.retryAfterSeconds)
    }

    /// Runs blocking file I/O (SQLite, PMTiles reads) on NIO's thread pool for blocking work, off
    /// the event loops and the cooperative threads.
    func blockingIO<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }

    /// Logs, once per source, that its renders left data out (a render never fails on it).
    func logSkippedData(of data: MapData) {
        for skipped in data.skippedData() {
            guard loggedSkippedData.withLock({ $0.insert(skipped.source).inserted }) else { continue }
            logger.warning("\(skipped.warning); later ones in this source are skipped without a log line")
        }
    }

    /// The pool job that renders a metatile into the cache, unless `tile` is found there by the
    /// time it runs (a render that finished just before this job was queued left its tiles).
    private func metatileWork(
        _ metatile: MetatileID, checking tile: TileID, cacheKey: TileCacheKey,
        makeRenderer: @escaping @Sendable () throws -> MapTileRenderer
    ) -> @Sendable () throws -> RenderOutput {
        { [self] in
            if let cached = try? cache.tile(tile, key: cacheKey) { return .tiles([tile: cached]) }
            let generation = overlayGeneration.load(ordering: .acquiring)
            let renderer = try self.renderer(for: cacheKey, make: makeRenderer)
            beforeRender(metatile)
            let start = DispatchTime.now().uptimeNanoseconds
            let tiles = try renderer.encodedTiles(of: metatile)
            metrics.recordRender(nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
            logSkippedData(of: renderer.data)
            metrics.increment("mapwright_renders_total", [("source", cacheKey.source)])
            let byTile = Dictionary(uniqueKeysWithValues: tiles.map { ($0.tile, $0.data) })
            // Photos changed during an overlay render: its tiles answer the request, but are not kept.
            guard !cacheKey.isOverlay || overlayGeneration.load(ordering: .acquiring) == generation else {
                return .tiles(byTile)
            }
            do throws(MBTilesError) { try cache.add(byTile, key: cacheKey) } catch {
                logger.error("cache: \(error.description)")
            }
            return .tiles(byTile)
        }
    }

    /// Renders the 256-point @1x tiles of every style at `zooms` into the cache, as background
    /// work: a render thread takes it only when no request waits, and a request for one of these
    /// metatiles raises its job. Metatiles whose first tile is cached already are skipped. At most
    /// one job per render thread is queued at a time, so requests never find the queue full of it.
    ///
    /// - Returns: The number of metatiles rendered. Ends early, without error, when cancelled or
    ///   when the server stops.
    @discardableResult
    public func warmCache(zooms: ClosedRange<Int>) async -> Int {
        guard let content = try? servedContent() else { return 0 }
        var jobs: [(TileCacheKey, @Sendable () throws -> MapTileRenderer, MetatileID)] = []
        for style in content.styles {
            let (key, make) = styleTiles(style, tileSizePoints: 256, scale: 1)
            for z in zooms where z <= configuration.maximumZoom {
                let side = MetatileID.metatilesPerSide(atZoom: z, size: configuration.metatileSize)
                for y in 0..<side {
                    for x in 0..<side {
                        guard let metatile = try? MetatileID(z: z, x: x, y: y, size: configuration.metatileSize) else {
                            continue
                        }
                        jobs.append((key, make, metatile))
                    }
                }
            }
        }
        let rendered = Mutex(0)
        let warmOne:
            @Sendable (TileCacheKey, @escaping @Sendable () throws -> MapTileRenderer, MetatileID) async -> Void = {
                [self] key, make, metatile in
                guard let first = metatile.tiles.first, (try? cache.tile(first, key: key)) == nil else { return }
                let work = metatileWork(metatile, checking: first, cacheKey: key, makeRenderer: make)
                while !Task.isCancelled {
                    do {
                        _ = try await pool.run(.metatile(key, metatile), lane: .background, work: work)
                        rendered.withLock { $0 += 1 }
                        return
                    } catch RenderPoolError.queueFull {
                        try? await Task.sleep(nanoseconds: 100_000_000)
                    } catch {
                        if case RenderPoolError.shuttingDown = error {
                        } else if !(error is CancellationError) {
                            logger.error("warm \(metatile): \(error)")
                        }
                        return
                    }
                }
            }
        await withTaskGroup(of: Void.self) { group in
            var index = 0
            while index < jobs.count, index < max(1, pool.threadCount) {
                let (key, make, metatile) = jobs[index]
                group.addTask { await warmOne(key, make, metatile) }
                index += 1
            }
            while await group.next() != nil {
                guard !Task.isCancelled else {
                    group.cancelAll()
                    break
                }
                guard index < jobs.count else { continue }
                let (key, make, metatile) = jobs[index]
                group.addTask { await warmOne(key, make, metatile) }
                index += 1
            }
        }
        return rendered.withLock { $0 }
    }

    /// Runs a render on the pool in `lane`, single flight by key, within the time limit.
    ///
    /// - Parameters:
    ///   - patienceSeconds: How long to wait for the render to start; `nil` (the default) waits
    ///     until the time limit.
    ///   - overdueAfterSeconds: How long to wait for the render while other renders of its lane
    ///     wait (then ``RenderOverdue``); `nil` (the default) waits until the time limit.
    /// - Throws: ``ServeError``: 503 when the queue is full, the server stops or the render takes
    ///   longer than ``ServerConfiguration/renderTimeoutSeconds``; what `work` throws as a
    ///   ``ServeError``; 500 for any other failure (logged, not shown); `CancellationError`
    ///   when the requester went away; ``RenderPoolError/notStarted`` when the render had not
    ///   started within `patienceSeconds` (it goes on in the background lane).
    func render(
        _ key: RenderKey, lane: RenderLane = .images, patienceSeconds: Double? = nil,
        overdueAfterSeconds: Double? = nil, disconnected: DisconnectHook,
        work: @escaping @Sendable () throws -> RenderOutput
    ) async throws -> RenderOutput {
        if refusesRendersForMemory.load(ordering: .relaxed), !pool.isQueuedOrRunning(key) {
            metrics.increment("mapwright_memory_refusals_total", [("lane", lane.label)])
            throw ServeError.unavailable(
                "the server is at its memory limit", retryAfterSeconds: configuration.retryAfterSeconds)
        }
        // A static map or thumbnail has nothing to stand in for it: under overload it gets its
        // 503 at once rather than after a long wait.
        if lane == .images, let wait = pool.expectedWaitSeconds(in: .images), wait > configuration.imageWaitSeconds,
            !pool.isQueuedOrRunning(key)
        {
            metrics.increment("mapwright_render_rejected_total", [("lane", lane.label)])
            throw ServeError.unavailable(
                "the renders queued ahead would keep this image waiting about \(Int(wait.rounded())) s",
                retryAfterSeconds: configuration.retryAfterSeconds)
        }
        do {
            return try await withRenderTimeout(
                disconnected: disconnected, overdueAfter: overdueAfterSeconds.map { ($0, lane) }
            ) { [pool] in
                try await pool.run(key, lane: lane, patienceSeconds: patienceSeconds, work: work)
            }
        } catch RenderPoolError.queueFull {
            metrics.increment("mapwright_render_rejected_total", [("lane", lane.label)])
            throw ServeError.unavailable("the render queue is full", retryAfterSeconds: configuration.retryAfterSeconds)
        } catch RenderPoolError.notStarted {
            throw RenderPoolError.notStarted
        } catch is RenderOverdue {
            throw RenderOverdue()
        } catch RenderPoolError.shuttingDown {
            throw ServeError.unavailable("the server is stopping", retryAfterSeconds: configuration.retryAfterSeconds)
        } catch is RenderTimeout {
            metrics.increment("mapwright_render_timeouts_total", [("lane", lane.label)])
            throw ServeError.unavailable(
                "the render took longer than \(configuration.renderTimeoutSeconds) s",
                retryAfterSeconds: configuration.retryAfterSeconds)
        } catch let error as ServeError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as RendererError {
            logger.error("render \(key): \(error.description)")
            throw ServeError(.internalServerError, "the map could not be rendered")
        } catch {
            logger.error("render \(key): \(error)")
            throw ServeError(.internalServerError, "the map could not be rendered")
        }
    }

    private struct RenderTimeout: Error {}

    /// A render given up on past ``ServerConfiguration/tileAnswerSeconds`` under overload.
    struct RenderOverdue: Error {}

    /// Runs `body` in a child task that is cancelled when the requester disconnects (a render
    /// still queued is then dropped), when this task is cancelled, or when the render time limit
    /// passes (then ``RenderTimeout``).
    private func withRenderTimeout<T: Sendable>(
        disconnected: DisconnectHook, overdueAfter: (seconds: Double, lane: RenderLane)? = nil,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let seconds = configuration.renderTimeoutSeconds
        let task = Task<T, any Error> { [pool] in
            try await withThrowingTaskGroup(of: T.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
                    throw RenderTimeout()
                }
                if let overdueAfter {
                    // Past its answer time, a render is given up on while other renders wait (the
                    // server is overloaded); it goes on, and its tiles are kept.
                    group.addTask {
                        try await Task.sleep(nanoseconds: UInt64(max(0, overdueAfter.seconds) * 1e9))
                        while !pool.isOverloaded(overdueAfter.lane) { try await Task.sleep(nanoseconds: 100_000_000) }
                        throw RenderOverdue()
                    }
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw CancellationError() }
                return first
            }
        }
        let forget = await disconnected { task.cancel() }
        defer { forget() }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// The renderer of a cache key's tiles, made on first use.
    /// The renderers made and kept, of every style and overlay.
    func keptRenderers() -> [MapTileRenderer] {
        renderers.withLock { Array($0.values) }
    }

    private func renderer(for key: TileCacheKey, make: () throws -> MapTileRenderer) throws -> MapTileRenderer {
        if let renderer = renderers.withLock({ $0[key] }) { return renderer }
        let renderer = try make()
        return renderers.withLock { renderers in
            if let existing = renderers[key] { return existing }
            renderers[key] = renderer
            return renderer
        }
    }

    // MARK: - Sources

    /// The options of a tileset `serve` renders: the configuration's metatile size and kept
    /// placement bytes, with the tile size, scale and layers of the request.
    private func tileOptions(tileSizePoints: Int, scale: Int, layers: TileRenderOptions.Layers) -> TileRenderOptions {
        TileRenderOptions(
            tileSizePoints: tileSizePoints, scale: scale, metatileSize: configuration.metatileSize, layers: layers,
            keptPlacementBytes: configuration.keptPlacementBytes)
    }

    /// The cache key and renderer of a style's basemap tiles.
    func styleTiles(_ style: ServedStyle, tileSizePoints: Int, scale: Int) -> (
        TileCacheKey, @Sendable () throws -> MapTileRenderer
    ) {
        let key = TileCacheKey(
            source: "style-\(style.name)", contentHash: style.contentHash, tileSizePoints: tileSizePoints, scale: scale,
            isOverlay: false)
        let options = tileOptions(tileSizePoints: tileSizePoints, scale: scale, layers: .basemap)
        return (
            key,
            {
                try MapTileRenderer(
                    data: style.data, style: style.style,
                    options: options)
            }
        )
    }

    /// The cache key and renderer of the photos' density map tiles (`/overlays/heatmap/…`): the
    /// overlay's heatmap style drawn as a basemap on transparent tiles, keyed by the overlay's
    /// hash; a photo change removes them all (``applyPhotoFeed(_:version:)``). Nil when the
    /// overlay has no photos.
    func heatmapTiles(_ overlay: ServedOverlay, tileSizePoints: Int, scale: Int) -> (
        TileCacheKey, @Sendable () throws -> MapTileRenderer
    )? {
        guard overlay.hasHeatmap else { return nil }
        let key = TileCacheKey(
            source: "overlay-heatmap", contentHash: overlay.contentHash, tileSizePoints: tileSizePoints, scale: scale,
            isOverlay: true)
        let options = tileOptions(tileSizePoints: tileSizePoints, scale: scale, layers: .basemap)
        return (
            key,
            {
                try MapTileRenderer(
                    data: overlay.data, style: overlay.heatmapStyle() ?? overlay.style,
                    options: options)
            }
        )
    }

    /// The cache key and renderer of the photo overlay's tiles.
    func overlayTiles(_ overlay: ServedOverlay, tileSizePoints: Int, scale: Int) -> (
        TileCacheKey, @Sendable () throws -> MapTileRenderer
    ) {
        let key = TileCacheKey(
            source: "overlay-photos", contentHash: overlay.contentHash, tileSizePoints: tileSizePoints, scale: scale,
            isOverlay: true)
        let options = tileOptions(tileSizePoints: tileSizePoints, scale: scale, layers: .overlays)
        return (
            key,
            {
                try MapTileRenderer(
                    data: overlay.data, style: overlay.style, content: try overlay.content(scale),
                    options: options)
            }
        )
    }
}

/// The overlay content, made once, off the cooperative threads (clustering a million photos
/// takes a second); requests that come while it is made wait for the same result.
final class OverlayContentBox: Sendable {
    private let made = Mutex<Task<MapTileContent, any Error>?>(nil)

    /// Forgets the content: the next call makes it again.
    func reset() { made.withLock { $0 = nil } }

    func content(_ make: @escaping @Sendable () throws -> MapTileContent) async throws -> MapTileContent {
        let task = made.withLock { task in
            if let task { return task }
            let new = Task<MapTileContent, any Error> {
                try await withCheckedThrowingContinuation { continuation in
                    DispatchQueue.global().async { continuation.resume(with: Result { try make() }) }
                }
            }
            task = new
            return new
        }
        return try await task.value
    }
}
