public import Foundation
public import MBTiles
public import MapCore
public import MapUtilities
import Synchronization
public import TileSources

/// Tiles fetched over HTTP from URL templates, kept in an MBTiles cache: a ``TileSources/TileSource``
/// of the bytes the server sends, which `RasterTileSource` (MapData) decodes.
///
/// For example, satellite imagery under a vector map:
///
/// ```swift
/// let source = try HTTPTileSource(
///     templates: ["https://{s}.tiles.example.org/satellite/{z}/{x}/{y}{r}.jpg"],
///     attribution: "Imagery © Example",
///     scale: 2
/// )
/// let bytes = try source.tiles(at: tiles) // fetched once, then read from ~/.cache/mapwright/tiles/
/// let images = try RasterTileSource(tiles: source).images(for: tiles)  // MapData
/// ```
///
/// - **Cache.** Each tile fetched is stored in a flat MBTiles file (see ``MBTilesStore``) in
///   ``Configuration/cacheDirectory``, by default the user's `~/.cache/mapwright/tiles/`,
///   named after the host and a hash of the templates (``cacheFileName(templates:scale:)``).
///   A tile in the cache is never requested again: there is no expiry. Only bytes that are a
///   tile (PNG, JPEG, WebP or gzip, by their first bytes) are stored, so an error page served as
///   `200 OK` is not kept but is a ``TilesetsError/notATile(url:reason:)``.
/// - **Requests** carry ``Configuration/userAgent``, at most ``Configuration/maximumConcurrentRequests``
///   are in flight at once, and each gives up after ``Configuration/timeoutSeconds``.
/// - **Answers.** `404 Not Found` (and `204 No Content`) mean the server has no such tile: the
///   tile is absent from the result, and not cached, so it is asked for again next time. Other
///   statuses are ``TilesetsError/httpStatus(url:status:)``. When the host cannot be reached,
///   the source stops starting requests and throws ``TilesetsError/offline(url:reason:)``;
///   tiles already in the cache are still served when the network is back, or by a batch that
///   needs nothing else.
///
/// - **Listing.** The server's tiles cannot be listed: ``forEachTile(_:)`` throws.
///
/// ``tiles(at:)`` blocks the calling thread until the batch is done; call it from a thread
/// that may block (the renderer's), not from a Swift concurrency task.
public final class HTTPTileSource: TileSource {
    /// How tiles are requested and where they are cached.
    public struct Configuration: Hashable, Sendable {
        /// The most requests in flight at once. The default is 6, the limit browsers keep per host.
        public var maximumConcurrentRequests: Int
        /// How long a request may wait for the server, in seconds. The default is 15.
        public var timeoutSeconds: Double
        /// The `User-Agent` header. The default is ``HTTPTileSource/defaultUserAgent``; tile
        /// servers' usage policies (OpenStreetMap's among them) ask for one that names the application.
        public var userAgent: String
        /// The folder of the MBTiles cache files, created when missing; nil keeps nothing. The
        /// default is the user's (`UserDirectories().tileCacheDirectory`):
        /// `$XDG_CACHE_HOME/mapwright/tiles`, by default `~/.cache/mapwright/tiles`.
        public var cacheDirectory: URL?
        /// The most bytes of remote PMTiles archives' ranges (``HTTPRangeSource``) kept on disk,
        /// in `pmtiles/ranges.sqlite` in ``cacheDirectory``; the oldest are dropped first. The
        /// default is 268,435,456 (256 MiB).
        public var archiveCacheLimitBytes: Int
        /// How many times a range request is made before its failure is reported, when the
        /// server answers 5xx or 429 or the connection is lost (never for other 4xx). The default is 3.
        public var maximumAttempts: Int
        /// How long the first retry waits, in seconds; each later one waits twice as long as the
        /// one before. The default is 0.5.
        public var retryDelaySeconds: Double

        /// Creates a configuration; see each property for its default.
        public init(
            maximumConcurrentRequests: Int = 6,
            timeoutSeconds: Double = 15,
            userAgent: String = HTTPTileSource.defaultUserAgent,
            cacheDirectory: URL? = UserDirectories().tileCacheDirectory,
            archiveCacheLimitBytes: Int = 256 << 20,
            maximumAttempts: Int = 3,
            retryDelaySeconds: Double = 0.5
        ) {
            precondition(maximumConcurrentRequests >= 1, "at least one request must be allowed")
            precondition(timeoutSeconds > 0, "the timeout must be positive")
            precondition(maximumAttempts >= 1, "at least one attempt must be made")
            self.maximumConcurrentRequests = maximumConcurrentRequests
            self.timeoutSeconds = timeoutSeconds
            self.userAgent = userAgent
            self.cacheDirectory = cacheDirectory
            self.archiveCacheLimitBytes = archiveCacheLimitBytes
            self.maximumAttempts = maximumAttempts
            self.retryDelaySeconds = retryDelaySeconds
        }

        /// Where remote archives' ranges are kept: `pmtiles/` in ``cacheDirectory``; nil when
        /// that is nil.
        public var archiveCacheDirectory: URL? { cacheDirectory?.appendingPathComponent("pmtiles", isDirectory: true) }
    }

    /// The `User-Agent` sent by default: `Mapwright/0.1.0 (+https://github.com/mapwright)`.
    public static let defaultUserAgent = "Mapwright/0.1.0 (+https://github.com/mapwright)"

    /// The templates; a tile's is picked by `(x + y) mod count`.
    public let templates: [TileURLTemplate]
    /// The render scale; 2 or more makes `{r}` `@2x`.
    public let scale: Double
    /// The lowest zoom with tiles; no tile is requested below it.
    public let minZoom: Int
    /// The highest zoom with tiles; no tile is requested above it.
    public let maxZoom: Int
    /// Who made the tiles; nil when not given.
    public let attribution: String?
    /// How tiles are requested and cached.
    public let configuration: Configuration
    /// The cache of fetched tiles; nil when ``Configuration/cacheDirectory`` is nil.
    public let cache: MBTilesStore?

    private let client: HTTPClient
    /// Whether the cache's `format` metadata has been checked, so it is written once.
    private let cacheFormatRecorded = Mutex(false)

    /// Creates a source and opens (or creates) its cache file.
    ///
    /// - Parameters:
    ///   - templates: One or more tile URL templates (see ``TileURLTemplate``), serving the same tiles.
    ///   - scheme: How `{y}` counts rows. The default is `TileScheme.xyz`.
    ///   - subdomains: The values of `{s}`. The default is `a`, `b`, `c`.
    ///   - minZoom: The lowest zoom with tiles. The default is 0.
    ///   - maxZoom: The highest zoom with tiles; deeper views scale these up. The default is 22.
    ///   - attribution: Who made the imagery. The default is nil.
    ///   - scale: The render scale, for `{r}`. The default is 1.
    ///   - configuration: Requests and cache. The default is ``Configuration/init(maximumConcurrentRequests:timeoutSeconds:userAgent:cacheDirectory:)``'s.
    /// - Throws: ``TilesetsError/invalidTemplate(_:reason:)``, ``TilesetsError/invalidSource(reason:)``
    ///   for no templates or an empty zoom range, ``TilesetsError/mbtiles(_:)`` when the cache cannot be opened.
    public init(
        templates: [String],
        scheme: TileScheme = .xyz,
        subdomains: [String] = ["a", "b", "c"],
        minZoom: Int = 0,
        maxZoom: Int = 22,
        attribution: String? = nil,
        scale: Double = 1,
        configuration: Configuration = Configuration()
    ) throws(TilesetsError) {
        let parsed = try TileURLTemplate.parse(
            templates, scheme: scheme, subdomains: subdomains, minZoom: minZoom, maxZoom: maxZoom)
        self.templates = parsed
        self.scale = scale
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.attribution = attribution
        self.configuration = configuration
        if let directory = configuration.cacheDirectory {
            let url = directory.appendingPathComponent(Self.cacheFileName(templates: parsed, scale: scale))
            do {
                // Flat, not deduplicated: caches made before deduplication are flat, each fetch
                // writes a handful of tiles between renders' reads (one insert, no hashing), and
                // imagery rarely repeats byte for byte. The file is a cache, not a tileset to publish.
                let store = try MBTilesStore(url: url, mode: .create, newFileSchema: .flat)
                if try store.metadataValue(forKey: "name") == nil {
                    try store.writeMetadata(
                        TileMetadata(
                            name: "Cache of \(parsed[0].host)",
                            minZoom: minZoom,
                            maxZoom: maxZoom,
                            attribution: attribution,
                            description: "Tiles fetched by Mapwright from \(templates.joined(separator: " "))"
                        ))
                }
                cache = store
            } catch {
                throw .mbtiles(error)
            }
        } else {
            cache = nil
        }
        client = HTTPClient(
            idleTimeoutSeconds: configuration.timeoutSeconds, userAgent: configuration.userAgent,
            keptConnections: configuration.maximumConcurrentRequests)
    }

    /// The URL a tile is fetched from: its ``TileSources/TileSource/location(of:)``.
    public func location(of tile: TileID) -> String { url(for: tile) }

    /// The URL a tile is fetched from.
    public func url(for tile: TileID) -> String {
        templates[(tile.x + tile.y) % templates.count].url(for: tile, scale: scale)
    }

    /// The name of the cache file for these templates: the first template's host, made safe for a
    /// file name, and a 64-bit FNV-1a hash of the templates, the scheme and, when a template has
    /// `{r}`, the `@2x` choice. For example `tile.example.org-8c1f0e4a2b3d5f60.mbtiles`.
    public static func cacheFileName(templates: [TileURLTemplate], scale: Double) -> String {
        var key = templates.map(\.template).joined(separator: "\n") + "\n" + (templates.first?.scheme.rawValue ?? "")
        if templates.contains(where: { $0.template.contains("{r}") }) { key += scale >= 2 ? "\n@2x" : "\n@1x" }
        let host = templates.first?.host ?? "tiles"
        let safeHost = String(
            host.lowercased().map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "." ? $0 : "-" })
        return "\(safeHost)-\(FNV1a(key.utf8).hexDigits).mbtiles"
    }

    // MARK: - Tile source

    /// The first template.
    public var sourceDescription: String { templates[0].template }

    /// Nil: the tiles are not one local file.
    public var fileURL: URL? { nil }

    /// A tile's bytes: see ``tiles(at:)``.
    public func tile(at id: TileID) throws(TilesetsError) -> Data? {
        try tiles(at: [id])[id]
    }

    /// The bytes of the tiles: from the cache when it has them, fetched otherwise.
    ///
    /// Tiles outside ``minZoom``...``maxZoom`` are not requested, and neither are those the
    /// server has no tile for (404). Tiles fetched before a failure are cached even when the
    /// batch throws.
    ///
    /// - Throws: ``TilesetsError/offline(url:reason:)``, ``TilesetsError/httpStatus(url:status:)``,
    ///   ``TilesetsError/requestFailed(url:reason:)``, ``TilesetsError/notATile(url:reason:)``
    ///   for an answer that is not a tile (the first, in tile order, of the batch), or
    ///   ``TilesetsError/mbtiles(_:)`` when the cache fails.
    public func tiles(at ids: [TileID]) throws(TilesetsError) -> [TileID: Data] {
        let wanted = Set(ids.filter { (minZoom...maxZoom).contains($0.z) }).sorted()
        var found: [TileID: Data] = [:]
        if let cache {
            let cached: [TileID: Data]
            do { cached = try cache.tiles(at: wanted) } catch { throw .mbtiles(error) }
            // A cache entry that is not a tile is fetched again.
            for (tile, data) in cached where TileFormat(sniffing: data)?.isWhole(data) == true { found[tile] = data }
        }
        var failures: [TileID: TilesetsError] = [:]
        var fetched: [TileID: Data] = [:]
        for (tile, outcome) in download(wanted.filter { found[$0] == nil }) {
            switch outcome {
            case .data(let data):
                if let format = TileFormat(sniffing: data) {
                    if format.isWhole(data) {
                        fetched[tile] = data
                    } else {
                        failures[tile] = .notATile(url: url(for: tile), reason: "the \(format.rawValue) is cut short")
                    }
                } else {
                    failures[tile] = .notATile(url: url(for: tile), reason: TileFormat.unrecognisedReason(data))
                }
            case .missing: break
            case .failed(let error): failures[tile] = error
            }
        }
        try store(fetched)
        if let (_, error) = failures.min(by: { $0.key < $1.key }) { throw error }
        return found.merging(fetched) { cached, _ in cached }
    }

    /// The source as metadata: the first template's host as its name, the zooms and attribution
    /// it was given, and the cache's `format` once a tile has been fetched.
    public func metadata() throws(TilesetsError) -> TileMetadata {
        var format: TileFormat?
        if let cache {
            do { format = try cache.metadataValue(forKey: "format").flatMap(TileFormat.init(metadataValue:)) } catch {
                throw .mbtiles(error)
            }
        }
        return TileMetadata(
            name: templates[0].host, format: format, minZoom: minZoom, maxZoom: maxZoom, attribution: attribution)
    }

    /// Throws ``TilesetsError/invalidSource(reason:)``: a server's tiles cannot be listed.
    public func forEachTile(_ body: (TileID, Data) throws -> Void) throws {
        throw TilesetsError.invalidSource(
            reason: "the tiles of \(templates[0].template) cannot be listed; only asked for by address")
    }

    /// Adds fetched tiles to the cache, recording the cache's `format` the first time.
    private func store(_ tiles: [TileID: Data]) throws(TilesetsError) {
        guard let cache, let sample = tiles.first?.value else { return }
        do {
            try cache.write(tiles)
            let recorded = cacheFormatRecorded.withLock { recorded in
                defer { recorded = true }
                return recorded
            }
            if !recorded, try cache.metadataValue(forKey: "format") == nil, let format = TileFormat(sniffing: sample) {
                try cache.setMetadataValue(format.rawValue, forKey: "format")
            }
        } catch {
            throw .mbtiles(error)
        }
    }

    /// What a request came to.
    enum Outcome: Sendable {
        case data(Data)
        case missing
        case failed(TilesetsError)
    }

    /// Fetches tiles, at most ``Configuration/maximumConcurrentRequests`` at a time, and stops
    /// starting new requests once the host proves unreachable. Tiles never requested are absent.
    private func download(_ tiles: [TileID]) -> [TileID: Outcome] {
        guard !tiles.isEmpty else { return [:] }
        let batch = DownloadBatch(count: tiles.count)
        let group = DispatchGroup()
        for _ in 0..<min(configuration.maximumConcurrentRequests, tiles.count) {
            DispatchQueue.global().async(group: group) {
                while let index = batch.nextIndex() {
                    let tile = tiles[index]
                    let address = self.url(for: tile)
                    let outcome: Outcome
                    if URL(string: address) == nil {
                        outcome = .failed(.invalidTemplate(address, reason: "the tile URL is not a valid URL"))
                    } else {
                        outcome = Self.outcome(
                            self.client.get(address), url: address, timeoutSeconds: self.configuration.timeoutSeconds)
                    }
                    batch.record(outcome, for: tile)
                }
            }
        }
        group.wait()
        return batch.outcomes
    }

    /// Classifies an answer: bytes, no such tile, or an error naming the URL.
    static func outcome(_ result: Result<HTTPAnswer, HTTPFailure>, url: String, timeoutSeconds: Double) -> Outcome {
        let answer: HTTPAnswer
        switch result {
        case .success(let got): answer = got
        case .failure(let failure): return .failed(error(failure, url: url, timeoutSeconds: timeoutSeconds))
        }
        switch answer.statusCode {
        case 204, 404: return .missing
        case 200..<300: return .data(answer.body)
        default: return .failed(.httpStatus(url: url, status: answer.statusCode))
        }
    }

    /// A request that got no answer, as an error naming the URL: ``TilesetsError/offline(url:reason:)``
    /// when the host cannot be reached or does not answer in time.
    static func error(_ failure: HTTPFailure, url: String, timeoutSeconds: Double) -> TilesetsError {
        switch failure.kind {
        case .connectionRefused: .offline(url: url, reason: "connection refused")
        case .hostNotFound: .offline(url: url, reason: "host not found")
        case .connectionLost: .offline(url: url, reason: "the connection was lost")
        case .timedOut: .offline(url: url, reason: "no answer within \(timeoutSeconds.formatted()) seconds")
        case .failed: .requestFailed(url: url, reason: failure.reason)
        }
    }
}

/// The outcomes of one batch's requests, which tile the next free worker takes, and whether
/// the host proved unreachable (then no worker takes another).
private final class DownloadBatch: Sendable {
    private let state = Mutex<(next: Int, outcomes: [TileID: HTTPTileSource.Outcome], isOffline: Bool)>((0, [:], false))
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    func nextIndex() -> Int? {
        state.withLock { state in
            guard state.next < count, !state.isOffline else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    func record(_ outcome: HTTPTileSource.Outcome, for tile: TileID) {
        state.withLock { state in
            state.outcomes[tile] = outcome
            if case .failed(.offline) = outcome { state.isOffline = true }
        }
    }

    var outcomes: [TileID: HTTPTileSource.Outcome] { state.withLock { $0.outcomes } }
}
