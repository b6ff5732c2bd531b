import ArgumentParser
import Foundation
import Hummingbird
import Logging
import MapAssembly
import MapComposer
import MapCore
import MapRenderer
import MapServer
import MapStyle
import MapUtilities
import PhotoLibrary
import PhotoSources
import ServiceLifecycle
import Tilesets
import UnixSignals

/// `mapwright serve`: styles as tiles rendered on demand through a cache, the photo overlay,
/// tileset files, TileJSON, health and metrics, over HTTP on Hummingbird.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve map tiles rendered on demand, tileset files and TileJSON over HTTP.",
        usage: """
            mapwright serve [--style <name> ...] [--tiles <file> ...] [--photos <path> ...] [--library <file>]
                            [--cache <file>] [--host <address>] [--port <port>] [<other options>]
                            (every option is optional; see below for defaults)
            """,
        discussion: """
            Tiles of each --style are rendered a metatile at a time on --jobs threads and kept in an \
            MBTiles cache keyed by the style file's content. Photos and overlays are served as \
            transparent tiles under /overlays/photos. Listens on 127.0.0.1 unless --host says \
            otherwise; Ctrl-C or SIGTERM stops after the responses in flight.
            """
    )

    @Option(name: .customLong("style"), parsing: .unconditionalSingleValue, help: "A style to serve, by name from the styles folder or as a style JSON file; repeat for several. The default is standard.")
    var styles: [String] = []

    @Option(parsing: .unconditional, help: "Imagery for the satellite and hybrid styles: a tile URL template with {z}, {x} and {y} (also {s}, {r}) or an .mbtiles or .pmtiles file.")
    var rasterSource: String?

    @Option(parsing: .unconditional, help: "Vector tiles for the styles that draw them (streets): an OpenMapTiles-schema .mbtiles or .pmtiles file.")
    var vectorSource: String?

    @Option(parsing: .unconditional, help: "The folder of named styles; by default $MAPWRIGHT_DATA/Styles, then the installed, user and checkout data.")
    var stylesDirectory: String?

    @Option(parsing: .unconditional, help: "The folder holding the bundled basemap; by default $MAPWRIGHT_DATA/Tiles/basemap, then the installed, user and checkout data.")
    var basemapDirectory: String?

    @OptionGroup var photoSources: PhotoSourceOptions

    @OptionGroup var overlayOptions: OverlayOptions

    @OptionGroup var drawing: TileDrawingOptions

    @Option(name: .customLong("tiles"), parsing: .unconditionalSingleValue, help: "An MBTiles or PMTiles file served as it is under /tilesets/NAME; repeat for several.")
    var tilesets: [String] = []

    @Option(parsing: .unconditional, help: "The tile cache: FILE.mbtiles keeps FILE.<style, size, content>.mbtiles beside it. By default a temporary folder, removed on exit.")
    var cache: String?

    @Option(parsing: .unconditional, help: "The address to listen on. The default is 127.0.0.1 (this machine only); 0.0.0.0 exposes the server.")
    var host: String = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port. The default is 8080.")
    var port: Int = 8080

    @Option(parsing: .unconditional, help: "Rendering threads. The default is the number of cores.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(parsing: .unconditional, help: "Metatiles that may wait for a rendering thread before requests get 503. The default is 64.")
    var renderQueue: Int = 64

    @Option(parsing: .unconditional, help: "Seconds a request waits for its render before it gets 503; when the renders queued ahead would take longer, it gets 503 at once. The default is 30.")
    var renderTimeout: Double = 30

    @Option(parsing: .unconditional, help: "Tiles per metatile side, 1 to 16. The default is 8.")
    var metatile: Int = MetatileID.defaultSize

    @Option(parsing: .unconditional, help: "The deepest zoom of style and overlay tiles, 0 to 24. The default is 20.")
    var maxZoom: Int = 20

    @Option(parsing: .unconditional, help: "Cache-Control max-age of tiles and TileJSON, in seconds. The default is 3600.")
    var maxAge: Int = 3_600

    @Option(parsing: .unconditional, help: "Zooms whose style tiles (256 px @1x) are rendered into the cache in the background at start-up, as MINZOOM-MAXZOOM or ZOOM (e.g. 0-6); requests always go first. The default is none.")
    var warm: String?

    @Option(parsing: .unconditional, help: "Megabytes of tiles kept in memory (the most recently answered), answered without reading a file; 0 keeps none. The default is 256.")
    var memoryCache: Int = 256

    @Option(parsing: .unconditional, help: "What the server logs: info (a line per request, the default), warning or error (problems only).")
    var logLevel: ServeLogLevel = .info

    @Option(name: .customLong("cors-origin"), parsing: .unconditionalSingleValue, help: "An origin allowed to fetch tiles from a page (CORS), such as https://example.org; repeat for several. The default is * (any).")
    var corsOrigins: [String] = []

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port: \(port) is not a port from 0 to 65535") }
        guard jobs >= 1 else { throw ValidationError("--jobs: \(jobs) is not a number of threads (1 or more)") }
        guard renderQueue >= 1 else { throw ValidationError("--render-queue: \(renderQueue) is not a number of metatiles (1 or more)") }
        guard renderTimeout > 0 else { throw ValidationError("--render-timeout: \(renderTimeout) is not a number of seconds above 0") }
        guard MetatileID.sizeRange.contains(metatile) else {
            throw ValidationError("--metatile: \(metatile) is not a size from \(MetatileID.sizeRange.lowerBound) to \(MetatileID.sizeRange.upperBound) tiles a side")
        }
        guard (0...ServerConfiguration.maximumRequestZoom).contains(maxZoom) else { throw ValidationError("--max-zoom: \(maxZoom) is not a zoom from 0 to 24") }
        guard maxAge >= 0 else { throw ValidationError("--max-age: \(maxAge) is negative") }
        guard (0...1_048_576).contains(memoryCache) else { throw ValidationError("--memory-cache: \(memoryCache) is not a number of megabytes from 0 to 1048576") }
        if let warm {
            let zooms = try ArgumentValues.zoomRange(warm, option: "--warm")
            guard zooms.upperBound <= maxZoom else { throw ValidationError("--warm: zoom \(zooms.upperBound) is beyond --max-zoom \(maxZoom)") }
        }
        guard !host.isEmpty, !host.contains("/") else { throw ValidationError("--host: '\(host)' is not an address") }
        for path in tilesets {
            try OutputPath.checkReadableFile(path, option: "--tiles")
            do throws(TilesetsError) { _ = try TilesetFormat(path: path) } catch {
                throw ValidationError("--tiles: '\(path)' must end in .mbtiles or .pmtiles")
            }
        }
        if let cache {
            guard cache.hasSuffix(".mbtiles") else { throw ValidationError("--cache: '\(cache)' must end in .mbtiles") }
            // A folder that cannot be written is served from, not refused (see run()).
            if Self.cacheFolderProblem(cache) == nil { try OutputPath.checkWritable(cache, option: "--cache") }
        }
        let names = tilesets.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
        if let repeated = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw ValidationError("--tiles: two files are named '\(repeated)'; tilesets are served by file name")
        }
    }

    /// Why the cache's folder, which exists, cannot be written (a read-only disk or folder); nil
    /// when it can be, or when it does not exist (``OutputPath/checkWritable(_:option:)`` says so).
    static func cacheFolderProblem(_ cache: String) -> String? {
        let folder = URL(fileURLWithPath: cache).deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        guard access(folder.path, W_OK | X_OK) != 0 else {
            // Root passes access() on a read-only file system's folders; statvfs says it is read-only.
            var status = statvfs()
            guard statvfs(folder.path, &status) == 0, status.f_flag & UInt(ST_RDONLY) != 0 else { return nil }
            return "the folder \(folder.displayPath) is on a read-only file system"
        }
        return "the folder \(folder.displayPath) is not writable (\(String(cString: strerror(errno))))"
    }

    func run() async throws {
        var logger = Logger(label: "mapwright.serve")
        logger.logLevel = logLevel.level
        let inputs = try serveInputs()
        let loaded = try inputs.loadStyles()
        for warning in loaded.warnings { Mapwright.warn(warning) }
        let servedStyles = loaded.styles
        let tileCache: TileCache
        if let cache {
            let problem = Self.cacheFolderProblem(cache)
            if let problem {
                Mapwright.warn("--cache: \(problem): tiles are served from the cache files there and rendered for every other request, not kept")
            }
            tileCache = TileCache(file: URL(fileURLWithPath: cache), readOnly: problem != nil)
        } else {
            tileCache = try TileCache.temporary()
        }
        var settings = ServerConfiguration(
            host: host, port: port, cacheMaxAgeSeconds: maxAge, corsOrigins: corsOrigins.isEmpty ? ["*"] : corsOrigins,
            renderThreads: jobs, renderQueueLimit: renderQueue, renderTimeoutSeconds: renderTimeout, metatileSize: metatile,
            maximumZoom: maxZoom)
        settings.memoryCacheBytes = memoryCache << 20
        let configuration = settings
        let server = MapTileServer(configuration: configuration, cache: tileCache, logger: logger)
        let (listening, listened) = AsyncStream.makeStream(of: Int.self)
        let application = buildApplication(server: server) { port in
            listened.yield(port)
            listened.finish()
        }
        defer { server.shutdown() }
        var groupLogger = logger
        groupLogger.logLevel = max(.warning, logger.logLevel)
        let services = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: groupLogger))
        let warmZooms = try warm.map { try ArgumentValues.zoomRange($0, option: "--warm") }
        let warmLogger = logger
        let host = host, port = port
        // Loading (photos, the cluster index, tilesets) happens once the server listens, which
        // answers meanwhile (/health says 503 until it is done); "serving on" is printed when it
        // is ready. A load that fails shuts the server down gracefully first, so its failure is
        // the one line printed.
        try await withThrowingTaskGroup(of: ServeTask.self) { group in
            group.addTask {
                defer { listened.finish() }
                do { try await services.run() } catch let error where ListenProblem(error) != nil {
                    throw CommandFailure(Self.listenMessage(ListenProblem(error)!, host: host, port: port))
                }
                return .server
            }
            var ports = listening.makeAsyncIterator()
            guard let port = await ports.next() else { return try await group.waitForAll() }
            do {
                let content = try inputs.loadContent(styles: servedStyles)
                for warning in content.warnings { Mapwright.warn(warning) }
                server.finishStarting(with: content.content)
            } catch {
                await services.triggerGracefulShutdown()
                try? await group.waitForAll()
                throw error
            }
            FileHandle.standardError.write(Data("mapwright: serving on http://\(configuration.host):\(port)\n".utf8))
            if let zooms = warmZooms {
                group.addTask {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let count = await server.warmCache(zooms: zooms)
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    warmLogger.info("warmed zooms \(zooms.lowerBound)-\(zooms.upperBound): \(count) metatiles rendered in \(String(format: "%.1f", seconds)) s")
                    return .warming
                }
            }
            // Until SIGINT or SIGTERM stops the server; warming stops with it.
            while let finished = try await group.next() {
                if finished == .server { group.cancelAll() }
            }
        }
    }

    /// What ends in `run()`'s task group.
    private enum ServeTask: Sendable { case server, warming }

    /// The one line of a server that could not listen on `host`:`port`, naming the option to change.
    static func listenMessage(_ problem: ListenProblem, host: String, port: Int) -> String {
        switch problem {
        case .addressInUse: return "--port \(port): the address \(host):\(port) is already in use"
        case .addressNotOnThisMachine: return "--host \(host): \(host) is not an address of this machine"
        case .permissionDenied: return "--port \(port): listening on port \(port) is not permitted (ports below 1024 need privileges)"
        case .unknownHost: return "--host \(host): no address has that name"
        case .other(let reason): return "--host \(host) --port \(port): cannot listen on \(host):\(port): \(reason)"
        }
    }

    /// What the options ask to serve, for the assembly.
    func serveInputs() throws -> ServeInputs {
        ServeInputs(
            styles: styles,
            map: MapInputs(rasterSource: rasterSource, vectorSource: vectorSource, stylesDirectory: stylesDirectory, basemapDirectory: basemapDirectory),
            photos: photoSources.inputs, overlays: try overlayOptions.inputs(), drawing: drawing.drawing, tilesets: tilesets)
    }
}

/// `serve --log-level`.
enum ServeLogLevel: String, ExpressibleByArgument, CaseIterable {
    case info, warning, error

    var level: Logger.Level {
        switch self {
        case .info: return .info
        case .warning: return .warning
        case .error: return .error
        }
    }
}
