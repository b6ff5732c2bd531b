public import Foundation

/// How the server answers: where it listens, how long clients may keep tiles, who may fetch them
/// from a page, and how renders are bounded.
public struct ServerConfiguration: Sendable {
    /// The address to listen on. The default is loopback, 127.0.0.1; 0.0.0.0 exposes the server.
    public var host: String
    /// The port. The default is 8080; 0 lets the system choose.
    public var port: Int
    /// `Cache-Control: max-age` of tiles and TileJSON, in seconds. The default is 3,600.
    public var cacheMaxAgeSeconds: Int
    /// Origins allowed by CORS: `*` for any (the default), or exact origins such as `https://example.org`.
    public var corsOrigins: [String]
    /// Render threads. The default is the number of cores.
    public var renderThreads: Int
    /// Metatiles that may wait for a render thread before requests get 503. The default is 64.
    public var renderQueueLimit: Int
    /// How long a request waits for its render before it gets 503, in seconds; a request that the
    /// renders queued ahead of it would keep waiting longer (estimated from recent renders) gets
    /// its 503 at once. The default is 30.
    public var renderTimeoutSeconds: Double
    /// `Retry-After` of a 503, in seconds. The default is 2.
    public var retryAfterSeconds: Int
    /// Tiles per metatile side for renders on demand. The default is 8.
    public var metatileSize: Int
    /// The deepest zoom of style and overlay tiles; deeper tiles are 404. The default is 20.
    public var maximumZoom: Int
    /// The most bytes of tiles kept in memory (the most recently answered, of styles, the
    /// overlay and tilesets), answered without reading a file. The default is 128 MiB; 0 keeps none.
    public var memoryCacheBytes: Int = 128 << 20
    /// The resident memory the server keeps under, in bytes; nil (the default) sets no limit.
    /// Read ten times a second: from 65% of it one render runs at a time, and at most every 2 s
    /// the server lets go of what it
    /// keeps for speed (the least recently used half of the memory cache and of the replaced
    /// tiles; from 75%, the renderers' label placements and the geometry prepared per zoom too) and returns the freed heap to the
    /// system (glibc's `malloc_trim`, which acts for the whole process: set a limit in a server's
    /// own process); from 75% of it, until it falls back, renders are refused as if the queue were full (a tile gets its stand-in or
    /// 503, other renders 503 with `Retry-After`). `mapwright serve` sets 512 MiB.
    public var memoryLimitBytes: Int?
    /// The most bytes of label placements each renderer keeps (see
    /// `TileRenderOptions.keptPlacementBytes`). The default is 32 MiB.
    public var keptPlacementBytes: Int = 32 << 20
    /// How long a request for a style or overlay tile waits for its render to *start* when a
    /// render is needed, in seconds. A request whose render the jobs queued ahead would delay
    /// longer, or that is still queued after this long, is answered at once from what exists: an
    /// older version of the tile, else (for a style's tiles) the nearest cached parent tile
    /// enlarged, with `Cache-Control: max-age=`\ ``standInMaxAgeSeconds``; else 503 with
    /// `Retry-After`. Its render goes on in the background lane, so the tile is there for the
    /// next request. A render that has started is waited for, up to ``renderTimeoutSeconds``.
    /// The default is 0.4.
    public var tileWaitSeconds: Double = 0.4
    /// How long a request for a style or overlay tile waits for a render that has started while
    /// other renders of its lane wait (the server is overloaded), in seconds; then it is answered
    /// as ``tileWaitSeconds`` says, and the render goes on. An idle server waits for its renders
    /// however long they take, up to ``renderTimeoutSeconds``. Counted from the request, the wait
    /// to start included. The default is 0.45: a person panning a map under overload has every
    /// tile's answer within half a second.
    public var tileAnswerSeconds: Double = 0.45
    /// The longest a static map or thumbnail may expect to wait for its render, in seconds
    /// (estimated from the images lane's recent renders and its queue): beyond it the request gets
    /// 503 with `Retry-After` at once (nothing stands in for an image). The default is 5.
    public var imageWaitSeconds: Double = 5
    /// `Cache-Control: max-age` of a stand-in tile (see ``tileWaitSeconds``), in seconds: clients
    /// ask again soon for the tile itself. The default is 10.
    public var standInMaxAgeSeconds: Int = 10
    /// The most bytes of replaced overlay tiles kept to stand in for their new versions (see
    /// ``tileWaitSeconds``). The default is 16 MiB.
    public var replacedTileBytes: Int = 16 << 20
    /// How often served tileset files are checked for changes (another process writing them),
    /// in seconds: a change drops their tiles from memory. The default is 1.
    public var tilesetCheckIntervalSeconds: Double = 1
    /// How often a served photo library is checked for changes (``PhotoFeed/version``), in
    /// seconds: a change shows this long after it at most, plus the time to read it (a library
    /// of 10,000 photos takes about 0.3 s on an idle core). The default is 0.5.
    public var photoCheckIntervalSeconds: Double = 0.5
    /// Seconds a connection may send nothing (between requests, or inside one) before it is
    /// closed. The default is 30.
    public var idleTimeoutSeconds: Double = 30
    /// How long a request head may take from its first byte to its blank line, in seconds: a
    /// client that sends part of one and stops (or trickles it) gets 408 and the connection is
    /// closed. The default is 10.
    public var headerTimeoutSeconds: Double = 10
    /// The most bytes of all request headers together, and of one header; more closes the
    /// connection. The default is 16 KiB.
    public var maximumHeaderBytes: Int = 16 * 1_024
    /// The longest request target (path and query) answered; longer gets 414. The default is
    /// 12 KiB, room for a static map's long `path=enc:…` (the header limit counts the request
    /// line too, so this stays below ``maximumHeaderBytes``).
    public var maximumURLBytes: Int = 12 * 1_024
    /// The largest request body accepted: every route is a GET, so the default is 0; a request
    /// that declares or sends more gets 413.
    public var maximumBodyBytes: Int = 0
    /// Where clients reach the server through a proxy, for the URLs it writes (``PublicURL``).
    /// The default is nil: each request's own `SCHEME://HOST`.
    public var publicURL: PublicURL?
    /// The folder of Leaflet's files the viewer at `/` loads (`leaflet.js`, `leaflet.css`,
    /// `images/`). The default is Debian's libjs-leaflet, `/usr/share/javascript/leaflet`.
    public var leafletDirectory = URL(fileURLWithPath: "/usr/share/javascript/leaflet", isDirectory: true)
    /// The folder of MapLibre GL JS's files the viewer's GL mode loads (`maplibre-gl.js`,
    /// `maplibre-gl.css`, `LICENSE.txt`), served under `/maplibre-gl/`; nil (the default) when
    /// none was found: the GL mode then says so. `mapwright serve` takes the data folders'
    /// `Tiles/maplibre-gl/` (scripts/setup.sh puts it in the checkout, scripts/install.sh installs it).
    public var maplibreDirectory: URL?

    /// Creates a configuration; see each property for its default.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, cacheMaxAgeSeconds: Int = 3_600, corsOrigins: [String] = ["*"],
        renderThreads: Int = ProcessInfo.processInfo.activeProcessorCount, renderQueueLimit: Int = 64,
        renderTimeoutSeconds: Double = 30, retryAfterSeconds: Int = 2, metatileSize: Int = 8, maximumZoom: Int = 20
    ) {
        self.host = host
        self.port = port
        self.cacheMaxAgeSeconds = cacheMaxAgeSeconds
        self.corsOrigins = corsOrigins
        self.renderThreads = renderThreads
        self.renderQueueLimit = renderQueueLimit
        self.renderTimeoutSeconds = renderTimeoutSeconds
        self.retryAfterSeconds = retryAfterSeconds
        self.metatileSize = metatileSize
        self.maximumZoom = maximumZoom
    }

    /// The deepest zoom any tile address may have: deeper is a malformed request (400).
    public static let maximumRequestZoom = 24
}
