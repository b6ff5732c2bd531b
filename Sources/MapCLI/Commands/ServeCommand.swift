import ArgumentParser
import Foundation
import Logging
import MapAssembly
import MapCore
import MapServer
import Tilesets

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
            transparent tiles under /overlays/photos. GL clients (MapLibre, QGIS) read each style at \
            /styles/NAME/style.json and the tileset files under /data, as TileServer GL serves them. \
            Listens on 127.0.0.1 unless --host says otherwise; Ctrl-C or SIGTERM stops after the \
            responses in flight.
            """
    )

    @Option(
        name: .customLong("style"), parsing: .unconditionalSingleValue,
        help:
            "A style to serve, by name from the styles folder or as a style JSON file; repeat for several. The default is standard."
    )
    var styles: [String] = []

    @Option(
        parsing: .unconditional,
        help:
            "Imagery for the satellite and hybrid styles: a tile URL template with {z}, {x} and {y} (also {s}, {r}) or an .mbtiles or .pmtiles file."
    )
    var rasterSource: String?

    @Option(
        parsing: .unconditional,
        help: "Vector tiles for the styles that draw them (streets): an OpenMapTiles-schema .mbtiles or .pmtiles file.")
    var vectorSource: String?

    @Option(
        parsing: .unconditional,
        help:
            "The folder of named styles; by default $MAPWRIGHT_DATA/Styles, then the installed, user and checkout data."
    )
    var stylesDirectory: String?

    @Option(
        parsing: .unconditional,
        help:
            "The folder holding the bundled basemap; by default $MAPWRIGHT_DATA/Tiles/basemap, then the installed, user and checkout data."
    )
    var basemapDirectory: String?

    @OptionGroup var photoSources: PhotoSourceOptions

    @OptionGroup var overlayOptions: OverlayOptions

    @OptionGroup var drawing: TileDrawingOptions

    @Option(
        name: .customLong("tiles"), parsing: .unconditionalSingleValue,
        help: "An MBTiles or PMTiles file served as it is under /tilesets/NAME; repeat for several.")
    var tilesets: [String] = []

    @Option(
        parsing: .unconditional,
        help:
            "A folder of SDF glyph fonts served to GL clients under /fonts, laid out as TileServer GL's (FOLDER/Open Sans Regular/0-255.pbf); the styles' style.json then take their glyphs from it."
    )
    var fonts: String?

    @Option(
        parsing: .unconditional,
        help:
            "The tile cache: FILE.mbtiles keeps FILE.<style, size, content>.mbtiles beside it. By default a temporary folder, removed on exit."
    )
    var cache: String?

    @Option(
        parsing: .unconditional,
        help: "The address to listen on. The default is 127.0.0.1 (this machine only); 0.0.0.0 exposes the server.")
    var host: String = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port. The default is 8080.")
    var port: Int = 8080

    @Option(parsing: .unconditional, help: "Rendering threads. The default is the number of cores.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(
        parsing: .unconditional,
        help: "Metatiles that may wait for a rendering thread before requests get 503. The default is 64.")
    var renderQueue: Int = 64

    @Option(
        parsing: .unconditional,
        help:
            "Seconds a request waits for its render before it gets 503; when the renders queued ahead would take longer, it gets 503 at once. The default is 30."
    )
    var renderTimeout: Double = 30

    @Option(parsing: .unconditional, help: "Tiles per metatile side, 1 to 16. The default is 8.")
    var metatile: Int = MetatileID.defaultSize

    @Option(parsing: .unconditional, help: "The deepest zoom of style and overlay tiles, 0 to 24. The default is 20.")
    var maxZoom: Int = 20

    @Option(
        parsing: .unconditional, help: "Cache-Control max-age of tiles and TileJSON, in seconds. The default is 3600.")
    var maxAge: Int = 3_600

    @Option(
        parsing: .unconditional,
        help:
            "Zooms whose style tiles (256 px @1x) are rendered into the cache in the background at start-up, as MINZOOM-MAXZOOM or ZOOM (e.g. 0-6); requests always go first. The default is none."
    )
    var warm: String?

    @Option(
        parsing: .unconditional,
        help:
            "Megabytes of tiles kept in memory (the most recently answered), answered without reading a file; 0 keeps none. The default is 128."
    )
    var memoryCache: Int = 128

    @Option(
        parsing: .unconditional,
        help:
            "Megabytes of resident memory the server keeps under: near it, caches are let go and then new renders refused (503) until it falls; 0 sets no limit. The default is 512."
    )
    var memoryLimit: Int = 512

    @Option(
        parsing: .unconditional,
        help: "What the server logs: info (a line per request, the default), warning or error (problems only).")
    var logLevel: ServeLogLevel = .info

    @Option(
        name: .customLong("cors-origin"), parsing: .unconditionalSingleValue,
        help:
            "An origin allowed to fetch tiles from a page (CORS), such as https://example.org; repeat for several. The default is * (any)."
    )
    var corsOrigins: [String] = []

    @Option(
        name: .customLong("public-url"), parsing: .unconditional,
        help: ArgumentHelp(
            "The address clients reach the server at through a proxy, such as https://example.org/maps/ or /maps/: every URL the server writes starts with it.",
            discussion: "The proxy strips the path before passing requests on; see docs/serve.md."))
    var publicURL: String?

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port: \(port) is not a port from 0 to 65535")
        }
        guard jobs >= 1 else { throw ValidationError("--jobs: \(jobs) is not a number of threads (1 or more)") }
        guard renderQueue >= 1 else {
            throw ValidationError("--render-queue: \(renderQueue) is not a number of metatiles (1 or more)")
        }
        guard renderTimeout > 0 else {
            throw ValidationError("--render-timeout: \(renderTimeout) is not a number of seconds above 0")
        }
        guard MetatileID.sizeRange.contains(metatile) else {
            throw ValidationError(
                "--metatile: \(metatile) is not a size from \(MetatileID.sizeRange.lowerBound) to \(MetatileID.sizeRange.upperBound) tiles a side"
            )
        }
        guard (0...ServerConfiguration.maximumRequestZoom).contains(maxZoom) else {
            throw ValidationError("--max-zoom: \(maxZoom) is not a zoom from 0 to 24")
        }
        guard maxAge >= 0 else { throw ValidationError("--max-age: \(maxAge) is negative") }
        guard (0...1_048_576).contains(memoryCache) else {
            throw ValidationError("--memory-cache: \(memoryCache) is not a number of megabytes from 0 to 1048576")
        }
        guard memoryLimit == 0 || (64...1_048_576).contains(memoryLimit) else {
            throw ValidationError(
                "--memory-limit: \(memoryLimit) is not 0 (no limit) or a number of megabytes from 64 to 1048576")
        }
        if let warm {
            let zooms = try ArgumentValues.zoomRange(warm, option: "--warm")
            guard zooms.upperBound <= maxZoom else {
                throw ValidationError("--warm: zoom \(zooms.upperBound) is beyond --max-zoom \(maxZoom)")
            }
        }
        guard !host.isEmpty, !host.contains("/") else { throw ValidationError("--host: '\(host)' is not an address") }
        if let publicURL, PublicURL(publicURL) == nil {
            throw ValidationError(
                "--public-url: '\(publicURL)' is not an http(s) address (https://example.org/maps/) or a path starting with / (/maps/)"
            )
        }
        for path in tilesets {
            try OutputPath.checkReadableFile(path, option: "--tiles")
            do throws(TilesetsError) { _ = try TilesetFormat(path: path) } catch {
                throw ValidationError("--tiles: '\(path)' must end in .mbtiles or .pmtiles")
            }
        }
        if let fonts, let reason = AssemblyError.unreadableFolderReason(fonts) {
            throw ValidationError("--fonts: \(reason)")
        }
        if let cache {
            guard cache.hasSuffix(".mbtiles") else { throw ValidationError("--cache: '\(cache)' must end in .mbtiles") }
            // A folder that cannot be written is served from, not refused (see run()).
            if ServeInputs.cacheFolderProblem(URL(fileURLWithPath: cache)) == nil {
                try OutputPath.checkWritable(cache, option: "--cache")
            }
        }
        let names = tilesets.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
        if let repeated = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw ValidationError("--tiles: two files are named '\(repeated)'; tilesets are served by file name")
        }
    }

    func run() async throws {
        // The log's lines are written by a thread of their own (see ServerLog), flushed on the way out.
        let log = ServerLog()
        defer { log.close() }
        let logger = log.logger(label: "mapwright.serve", level: logLevel.level)
        var configuration = ServerConfiguration(
            host: host, port: port, cacheMaxAgeSeconds: maxAge, corsOrigins: corsOrigins.isEmpty ? ["*"] : corsOrigins,
            renderThreads: jobs, renderQueueLimit: renderQueue, renderTimeoutSeconds: renderTimeout,
            metatileSize: metatile,
            maximumZoom: maxZoom)
        configuration.memoryCacheBytes = memoryCache << 20
        configuration.memoryLimitBytes = memoryLimit == 0 ? nil : memoryLimit << 20
        configuration.publicURL = publicURL.flatMap(PublicURL.init)
        let warmZooms = try warm.map { try ArgumentValues.zoomRange($0, option: "--warm") }
        let reportLogger = logger
        try await serveInputs().run(
            configuration: configuration, cacheFile: cache.map { URL(fileURLWithPath: $0) }, warmZooms: warmZooms,
            logger: logger
        ) { report in
            switch report {
            case .warning(let warning):
                Mapwright.warn(warning)
            case .serving(let host, let port):
                FileHandle.standardError.write(Data("mapwright: serving on http://\(host):\(port)\n".utf8))
            case .reloaded(let reason):
                reportLogger.info("\(reason): everything served was loaded again")
            case .warmed(let zooms, let count, let seconds):
                reportLogger.info(
                    "warmed zooms \(zooms.lowerBound)-\(zooms.upperBound): \(count) metatiles rendered in \(String(format: "%.1f", seconds)) s"
                )
            }
        }
    }

    /// What the options ask to serve, for the assembly.
    func serveInputs() throws -> ServeInputs {
        ServeInputs(
            styles: styles,
            map: MapInputs(
                rasterSource: rasterSource, vectorSource: vectorSource, stylesDirectory: stylesDirectory,
                basemapDirectory: basemapDirectory),
            photos: photoSources.inputs, overlays: try overlayOptions.inputs(), drawing: drawing.drawing,
            tilesets: tilesets, fonts: fonts)
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
