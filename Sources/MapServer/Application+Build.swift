import Foundation
public import Hummingbird
import Logging
import MBTiles
import ServiceLifecycle

/// The router of every route, behind request logging, metrics and CORS; HEAD is answered on
/// every GET route (``HeadRequestMiddleware``).
public func buildRouter(server: MapTileServer) -> Router<ServeRequestContext> {
    let router = Router(context: ServeRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: HeadRequestMiddleware())
    router.add(middleware: RequestLogMiddleware(metrics: server.metrics, logger: server.logger))
    router.add(middleware: CORSHeadersMiddleware(origins: server.configuration.corsOrigins))
    router.add(
        middleware: RequestLimitsMiddleware(
            maximumURLBytes: server.configuration.maximumURLBytes,
            maximumBodyBytes: server.configuration.maximumBodyBytes))
    StatusRoutes(server: server).add(to: router)
    TileRoutes(server: server).add(to: router)
    AnnotationRoutes(server: server).add(to: router)
    StaticMapRoutes(server: server).add(to: router)
    ViewerRoutes(server: server).add(to: router)
    // TileServer GL's endpoints for GL clients: /data, /fonts, /styles.json (style.json and sprites come through TileRoutes).
    DataRoutes(server: server).add(to: router)
    FontRoutes(server: server).add(to: router)
    StyleResourceRoutes(server: server).add(to: router)
    return router
}

/// What answers requests that are not kept tiles (those ``KeptTileByteHandler`` answers in each
/// connection's pipeline): the router of every route.
public func buildResponder(server: MapTileServer) -> some HTTPResponder<ServeRequestContext> {
    buildRouter(server: server).buildResponder()
}

/// The `Server` header of every answer.
let serverName = "mapwright"

/// The Hummingbird application of a server, listening where its configuration says, its
/// connections ``ServeHTTPChannel``s (the configuration's idle timeout and header limits, a
/// ``ClientConnectionHandler``, kept tiles answered in the pipeline), a service that commits the tile cache every
/// second, one that watches the served tileset files for changes, one the served photo library, and with a memory limit one that
/// keeps under it (``MapTileServer/checkMemory()``). `runService()` stops gracefully on SIGINT
/// and SIGTERM: the server stops accepting, finishes the responses in flight, and returns.
///
/// Hummingbird's own log lines go to the server's logger at warning level and above: its
/// start line is the caller's to print (``onServerRunning``), and a start-up that fails stays one line.
///
/// - Parameter onServerRunning: Called with the port once listening (useful with port 0).
public func buildApplication(
    server: MapTileServer, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    buildApplication(server: server, responder: buildResponder(server: server), onServerRunning: onServerRunning)
}

/// The application of ``buildApplication(server:onServerRunning:)`` answering through
/// `responder`: the tests' way to run the server's responder on NIO's event loops, as
/// production runs it (the executable makes them Swift concurrency's global executor).
///
/// - Parameter keptTiles: Whether kept tiles are answered from the request's bytes
///   (``KeptTileByteHandler``) before the router; false passes every request to the router (the
///   tests compare the two). The default is true.
func buildApplication(
    server: MapTileServer, responder: some HTTPResponder<ServeRequestContext>,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }, keptTiles: Bool = true
) -> some ApplicationProtocol {
    var frameworkLogger = server.logger
    frameworkLogger.logLevel = max(.warning, server.logger.logLevel)
    var application = Application(
        responder: responder,
        server: .mapwright(server: server, serverName: serverName, keptTiles: keptTiles),
        configuration: ApplicationConfiguration(
            address: .hostname(server.configuration.host, port: server.configuration.port), serverName: serverName),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
        logger: frameworkLogger)
    application.addServices(
        CacheFlushService(cache: server.cache, logger: server.logger),
        TilesetWatchService(watcher: TilesetWatcher(server: server)),
        PhotoLibraryWatchService(server: server))
    if server.configuration.memoryLimitBytes != nil { application.addServices(MemoryGuardService(server: server)) }
    return application
}

/// Keeps the server's resident memory under its limit: ``MapTileServer/checkMemory()`` ten
/// times a second, on a queue of its own (trimming the heap may take milliseconds: never on an
/// event loop).
struct MemoryGuardService: Service {
    let server: MapTileServer
    private static let queue = DispatchQueue(label: "mapwright.serve.memory")

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        Self.queue.async { [server] in
                            server.checkMemory()
                            done.resume()
                        }
                    }
                    try await Task.sleep(nanoseconds: 100_000_000)
                }
            }
        } catch is CancellationError {}
    }
}

/// Commits the tile cache's pending tiles every second, and once more on shutdown.
struct CacheFlushService: Service {
    let cache: TileCache
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    try await Task.sleep(nanoseconds: 1_000_000_000)
                    do throws(MBTilesError) { try cache.flush() } catch { logger.error("cache: \(error.description)") }
                }
            }
        } catch is CancellationError {}
        do throws(MBTilesError) { try cache.flush() } catch { logger.error("cache: \(error.description)") }
    }
}
