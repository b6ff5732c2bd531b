import ArgumentParser
import Foundation
import Hummingbird
import Logging
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
        let servedStyles = try loadStyles()
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
                server.finishStarting(with: try loadContent(styles: servedStyles))
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

    /// The styles, checked and loaded before the server listens, so a wrong name is one line.
    ///
    /// - Throws: `CommandFailure` naming the style that could not be loaded.
    func loadStyles() throws -> [ServedStyle] {
        var servedStyles: [ServedStyle] = []
        for name in styles.isEmpty ? ["standard"] : styles {
            var arguments = ["--style", name]
            if let rasterSource { arguments += ["--raster-source", rasterSource] }
            if let stylesDirectory { arguments += ["--styles-directory", stylesDirectory] }
            if let basemapDirectory { arguments += ["--basemap-directory", basemapDirectory] }
            if let vectorSource { arguments += ["--vector-source", vectorSource] }
            let options = try StyleOptions.parse(arguments)
            let style = try options.loadStyle(named: name, vectorSourceOnlyIfDrawn: true)
            let data = try options.mapData(for: style, needsPlaces: false)
            let bytes = (try? Data(contentsOf: options.styleFileURL())) ?? Data(name.utf8)
            let urlName = name.hasSuffix(".json") || name.contains("/") ? URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent : name
            guard !servedStyles.contains(where: { $0.name == urlName }) else { throw CommandFailure("--style: '\(urlName)' is given twice") }
            servedStyles.append(ServedStyle(
                name: urlName, style: style, data: data, fileBytes: bytes, extra: (rasterSource ?? "") + (style.drawsVectorTiles ? "|" + options.vectorSourceIdentity : "")))
        }
        if vectorSource != nil, !servedStyles.contains(where: { $0.style.drawsVectorTiles }) {
            let names = servedStyles.map { "'\($0.name)'" }.joined(separator: ", ")
            throw CommandFailure("--vector-source: no served style draws vector tiles (\(names)); add --style streets (or streets-dark, streets-muted)")
        }
        return servedStyles
    }

    /// The photo overlay, the photos and the tilesets, with the styles loaded already.
    ///
    /// - Throws: `CommandFailure` naming what could not be loaded.
    func loadContent(styles servedStyles: [ServedStyle]) throws -> ServerContent {
        var overlay: ServedOverlay?
        var servedPhotos: ServedPhotos?
        var photoFeed: PhotoFeed?
        // A library is watched: read its version before its photos, so a change made meanwhile is seen.
        let library = try photoSources.library.map { path in
            try libraryFailure { () throws(PhotoLibraryError) in try PhotoLibrary(file: URL(fileURLWithPath: path), create: false) }
        }
        let loadedVersion = try library.map { library in try libraryFailure { () throws(PhotoLibraryError) in try library.dataVersion() } }
        let photos = try photoSources.load()
        if !photoSources.sources.isEmpty, photos.isEmpty { throw CommandFailure(PhotoMapError.noLocatedPhotos.description, status: 1) }
        if !photos.isEmpty || !overlayOptions.isEmpty || library != nil, let first = servedStyles.first {
            var request = PhotoMapRequest(
                photos: photos, style: first.style, overlays: try overlayOptions.mapOverlays(look: first.style.mapwright.overlay),
                size: ViewSize(width: 256, height: 256), scale: 1, showsAccuracy: drawing.showAccuracy)
            try drawing.apply(to: &request)
            let builder = PhotoMapBuilder(data: first.data)
            // Checked now, so a selection that matches nothing fails at start-up, not on a tile.
            do throws(PhotoMapError) { _ = try builder.tileContent(for: request) } catch { throw CommandFailure(error.description) }
            let drawn = drawing.fingerprint
            let photosFingerprint = ContentFingerprint.photos(photos)
            let fingerprint = ContentFingerprint.text(
                styleOptions: try StyleOptions.parse(["--style", styles.first ?? "standard"] + (stylesDirectory.map { ["--styles-directory", $0] } ?? [])),
                style: styles.first ?? "standard", photosFingerprint: photosFingerprint, overlayOptions: overlayOptions, drawn: drawn)
            let contentHash = FNV1a(Array(fingerprint.utf8)).hexDigits
            let template = request
            let style = first.style, data = first.data
            // The served overlay and photos for a set of photos; the hash stays the start-up one,
            // so a changed library keeps its cache file and loses only the tiles that changed. The
            // file records which photos its tiles are drawn for: a later start-up with other photos
            // drops them.
            let watched = library != nil
            // `known`: the photos' fingerprint when worked out already.
            let makeContent: @Sendable ([Photo], _ known: String?) -> (overlay: ServedOverlay, photos: ServedPhotos) = { photos, known in
                var request = template
                request.photos = photos
                let finalRequest = request
                let drawnFor = watched ? known ?? ContentFingerprint.photos(photos) : nil
                let overlay = ServedOverlay(style: style, data: data, contentHash: contentHash, drawnFor: drawnFor) { scale in
                    var scaled = finalRequest
                    scaled.scale = Double(scale)
                    return try builder.tileContent(for: scaled)
                }
                return (overlay, ServedPhotos(request: request))
            }
            (overlay, servedPhotos) = makeContent(photos, photosFingerprint)
            if let library, let loadedVersion {
                let photographer = photoSources.photographer
                // The other sources' photos stay as loaded; the library's come from the library.
                var sourcesOnly = photoSources
                sourcesOnly.library = nil
                let extra = sourcesOnly.sources.isEmpty ? [] : try sourcesOnly.load()
                photoFeed = PhotoFeed(
                    version: { try library.dataVersion() },
                    photos: { try library.photos(byPhotographer: photographer) + extra },
                    content: { makeContent($0, nil) }, loadedVersion: loadedVersion)
            }
        }

        var servedTilesets: [ServedTileset] = []
        for path in tilesets {
            do throws(TilesetsError) { servedTilesets.append(try ServedTileset(url: URL(fileURLWithPath: path))) } catch {
                throw CommandFailure(error.description)
            }
        }
        return ServerContent(styles: servedStyles, overlay: overlay, tilesets: servedTilesets, photos: servedPhotos, photoFeed: photoFeed)
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
