import Dispatch
public import Foundation
import Hummingbird
public import Logging
public import MapServer
import MapUtilities
import ServiceLifecycle
import UnixSignals

extension ServeInputs {
    /// What a running server has to say to the person who started it, in order.
    public enum ServeReport: Sendable {
        /// Something to know that does not stop the server (a style's ignored property, photos
        /// without a location, a cache folder that cannot be written).
        case warning(String)
        /// Listening and loaded: every route answers (`/health` says 503 until then).
        case serving(host: String, port: Int)
        /// The background warming of `zooms` is done.
        case warmed(zooms: ClosedRange<Int>, metatileCount: Int, seconds: Double)
        /// Everything served was loaded again and is served from now on: `reason` says why (the
        /// files that changed, or SIGHUP).
        case reloaded(reason: String)
    }

    /// Runs a tile server of these inputs until SIGINT or SIGTERM, as `mapwright serve` does: the
    /// styles are loaded and checked first (a wrong name fails before listening), then the server
    /// listens and answers while the content (photos, the cluster index, tilesets) loads; a load
    /// that fails shuts the server down gracefully and is thrown. Then `warmZooms` are rendered
    /// into the cache in the background, requests first. On a signal the server stops accepting,
    /// finishes the responses in flight, and returns.
    ///
    /// While it serves, the files it read at start-up (``inputFiles()``, the sprite sheets) are
    /// compared every ``MapServer/ServerConfiguration/tilesetCheckIntervalSeconds`` with what they
    /// were when read: when one was replaced or written (a style saved, a photo added to a
    /// folder, an overlay exported again), everything is loaded again and served in its place
    /// (``reload(into:)``); SIGHUP does the same at once, as TileServer GL's does. A load that
    /// fails leaves the old content served, with a warning, until the files change again.
    ///
    /// - Parameters:
    ///   - configuration: Address, threads, queue, timeouts, metatiles, memory cache. Without a
    ///     ``MapServer/ServerConfiguration/maplibreDirectory``, the data folders' `Tiles/maplibre-gl/`
    ///     is served (``DataLocations/Item/maplibre``), when one holds it.
    ///   - cacheFile: The tile cache (``MapServer/TileCache``): `FILE.mbtiles` keeps its files
    ///     beside it; a folder that cannot be written is read from and never written (with a
    ///     warning). Nil (the default) uses a temporary folder removed on exit.
    ///   - warmZooms: Zooms rendered in the background once serving; nil (the default) for none.
    ///   - logger: The server's request and problem log.
    ///   - report: Told what a person should know, as it happens.
    /// - Throws: ``AssemblyError`` naming the input at fault, `--host` or `--port` when the
    ///   server cannot listen (``AssemblyError/listen(_:host:port:)``).
    public func run(
        configuration: ServerConfiguration, cacheFile: URL? = nil, warmZooms: ClosedRange<Int>? = nil, logger: Logger,
        report: @escaping @Sendable (ServeReport) -> Void
    ) async throws {
        let filesBeforeLoading = inputFiles()
        let loaded = try loadStyles()
        for warning in loaded.warnings { report(.warning(warning)) }
        let servedStyles = loaded.styles
        let tileCache: TileCache
        if let cacheFile {
            let problem = Self.cacheFolderProblem(cacheFile)
            if let problem {
                report(
                    .warning(
                        "--cache: \(problem): tiles are served from the cache files there and rendered for every other request, not kept"
                    ))
            }
            tileCache = TileCache(file: cacheFile, readOnly: problem != nil)
        } else {
            tileCache = try TileCache.temporary()
        }
        var found = configuration
        if found.maplibreDirectory == nil { found.maplibreDirectory = map.locations.existingDirectory(for: .maplibre) }
        let configuration = found
        let server = MapTileServer(configuration: configuration, cache: tileCache, logger: logger)
        let (listening, listened) = AsyncStream.makeStream(of: Int.self)
        let application = buildApplication(server: server) { port in
            listened.yield(port)
            listened.finish()
        }
        defer { server.shutdown() }
        var groupLogger = logger
        groupLogger.logLevel = max(.warning, logger.logLevel)
        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: groupLogger))
        let host = configuration.host
        let port = configuration.port
        try await withThrowingTaskGroup(of: ServeTask.self) { group in
            group.addTask {
                defer { listened.finish() }
                do { try await services.run() } catch {
                    guard let problem = ListenProblem(error) else { throw error }
                    throw AssemblyError.listen(problem, host: host, port: port)
                }
                return .server
            }
            var ports = listening.makeAsyncIterator()
            guard let port = await ports.next() else { return try await group.waitForAll() }
            do {
                // Loading reads files and clusters photos for seconds: off the event loops, which
                // answer /health (503) and everything else meanwhile.
                let content = try await withCheckedThrowingContinuation { continuation in
                    DispatchQueue.global().async {
                        continuation.resume(
                            with: Result { try load(styles: (servedStyles, []), files: filesBeforeLoading) })
                    }
                }
                for warning in content.warnings { report(.warning(warning)) }
                server.finishStarting(with: content.content)
                let reloader = ServeReloader(inputs: self, server: server, files: content.files, report: report)
                group.addTask {
                    await reloader.watch(
                        everySeconds: max(0.01, configuration.tilesetCheckIntervalSeconds))
                    return .reloading
                }
                group.addTask {
                    for await _ in await UnixSignalsSequence(trapping: .sighup) {
                        await reloader.reload(reason: "SIGHUP")
                    }
                    return .reloading
                }
            } catch {
                await services.triggerGracefulShutdown()
                try? await group.waitForAll()
                throw error
            }
            report(.serving(host: host, port: port))
            if let warmZooms {
                group.addTask {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let count = await server.warmCache(zooms: warmZooms)
                    report(
                        .warmed(
                            zooms: warmZooms, metatileCount: count,
                            seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
                    return .warming
                }
            }
            // Until SIGINT or SIGTERM stops the server; warming stops with it.
            while let finished = try await group.next() {
                if finished == .server { group.cancelAll() }
            }
        }
    }

    /// What ends in ``run(configuration:cacheFile:warmZooms:logger:report:)``'s task group.
    private enum ServeTask: Sendable { case server, warming, reloading }

    /// Loads a running server's content again when its files change or on SIGHUP, one load at a
    /// time, off the event loops.
    private actor ServeReloader {
        let inputs: ServeInputs
        let server: MapTileServer
        /// The files the content served was read from, as they were when read.
        var files: ServeInputFiles
        let report: @Sendable (ServeReport) -> Void

        init(
            inputs: ServeInputs, server: MapTileServer, files: ServeInputFiles,
            report: @escaping @Sendable (ServeReport) -> Void
        ) {
            self.inputs = inputs
            self.server = server
            self.files = files
            self.report = report
        }

        /// Compares the files with what they were every `interval` seconds, and loads again when
        /// one changed; until the task is cancelled.
        func watch(everySeconds interval: Double) async {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                let files = self.files
                let changes = await Self.offTheEventLoops { files.changes() }
                guard !changes.isEmpty else { continue }
                let shown =
                    changes.prefix(3).joined(separator: ", ")
                    + (changes.count > 3 ? " and \(changes.count - 3) more" : "")
                await reload(reason: "\(shown) changed")
            }
        }

        /// Loads everything again and serves it; on failure the old content stays, with a warning.
        func reload(reason: String) async {
            let inputs = inputs
            let server = server
            let files = self.files
            let outcome = await Self.offTheEventLoops {
                // The files as they are before this load reads them: a load that fails (a file
                // caught half written) is tried again once any of them changes after this.
                let before = files.takenAgain()
                return (before, Result { () throws(AssemblyError) in try inputs.reload(into: server) })
            }
            switch outcome.1 {
            case .success(let loaded):
                self.files = loaded.files
                for warning in loaded.warnings { report(.warning(warning)) }
                report(.reloaded(reason: reason))
            case .failure(let error):
                self.files = outcome.0
                report(
                    .warning(
                        "\(reason); loading again failed, the content loaded before is still served: \(error.description)"
                    ))
            }
        }

        /// `body`'s result, worked out on a thread of its own (it reads files).
        private static func offTheEventLoops<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: body()) }
            }
        }
    }

    /// Why the folder of `cacheFile`, which exists, cannot be written (a read-only disk or
    /// folder); nil when it can be, or when it does not exist.
    public static func cacheFolderProblem(_ cacheFile: URL) -> String? {
        let folder = cacheFile.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            return nil
        }
        guard access(folder.path, W_OK | X_OK) != 0 else {
            // Root passes access() on a read-only file system's folders; statvfs says it is read-only.
            var status = statvfs()
            guard statvfs(folder.path, &status) == 0, status.f_flag & UInt(ST_RDONLY) != 0 else { return nil }
            return "the folder \(folder.displayPath) is on a read-only file system"
        }
        return "the folder \(folder.displayPath) is not writable (\(String(cString: strerror(errno))))"
    }
}
