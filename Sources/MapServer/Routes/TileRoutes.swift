import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MBTiles
import MapCore
import MapRenderer
import TileSources
import Tilesets

/// `/styles/NAME/{z}/{x}/{y}[@2x].png`, `/styles/NAME/512/{z}/{x}/{y}[@2x].png`,
/// `/overlays/photos/…` and `/overlays/heatmap/…` in the same forms, `/tilesets/NAME/{z}/{x}/{y}.EXT`,
/// and each one's TileJSON at `/styles/NAME.json`, `/overlays/photos.json`,
/// `/overlays/heatmap.json` and `/tilesets/NAME.json`.
///
/// The paths are parsed here rather than by route patterns, so each malformed part gets its own
/// one-line 400. Names are percent-decoded (``URLPathComponent``) and looked up among what is
/// served, never used as file paths: `..`, encoded or not, is just a name that is not served (404).
struct TileRoutes {
    let server: MapTileServer

    func add(to router: Router<ServeRequestContext>) {
        router.get("/styles/**") { request, context in try await styles(request, context) }
        router.get("/overlays/**") { request, context in try await overlays(request, context) }
        router.get("/tilesets/**") { request, context in try await tilesets(request, context) }
        router.get("/index.json") { request, _ in
            let content = try server.servedContent()
            let base = TileJSON.baseURL(request, server.configuration)
            var list = content.styles.map { TileJSON.style($0, base: base, configuration: server.configuration) }
            if let overlay = content.overlay {
                list.append(
                    TileJSON.overlay(overlay, photos: content.photos, base: base, configuration: server.configuration))
                if overlay.hasHeatmap {
                    list.append(TileJSON.heatmap(overlay, base: base, configuration: server.configuration))
                }
            }
            list += content.tilesets.map { TileJSON.tileset($0.current, base: base) }
            list += content.dataTilesets.map { TileJSON.tileset($0.current, base: base, folder: "data") }
            return try HTTPCaching.json(list, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
    }

    private func styles(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let parts = context.parameters.getCatchAll()
        let content = try server.servedContent()
        if parts.count == 1, parts[0].hasSuffix(".json") {
            let style = try content.style(inPath: parts[0].dropLast(5))
            let json = TileJSON.style(
                style, base: TileJSON.baseURL(request, server.configuration), configuration: server.configuration)
            return try HTTPCaching.json(json, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        if parts.count > 1, parts[1] == "static", let style = try? content.style(inPath: parts[0]) {
            return try await StaticMapRoutes(server: server).staticMap(
                style, parts: Array(parts.dropFirst(2)), request: request, context: context)
        }
        if parts.count > 1, StyleResourceRoutes.isResource(parts[1]) {
            return try await StyleResourceRoutes(server: server).resource(parts, request: request, content: content)
        }
        return try await tile(
            try TileRequest(.styles, parts: parts, content: content), request: request, context: context)
    }

    private func overlays(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let parts = context.parameters.getCatchAll()
        let content = try server.servedContent()
        guard let overlay = content.overlay else { throw ServeError.notFound("no photos or overlays are served") }
        if parts == ["photos.json"] {
            let json = TileJSON.overlay(
                overlay, photos: content.photos, base: TileJSON.baseURL(request, server.configuration),
                configuration: server.configuration)
            return try HTTPCaching.json(json, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        if parts == ["heatmap.json"] {
            guard overlay.hasHeatmap else { throw ServeError.notFound("no photos are served: there is no heatmap") }
            let json = TileJSON.heatmap(
                overlay, base: TileJSON.baseURL(request, server.configuration), configuration: server.configuration)
            return try HTTPCaching.json(json, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        if parts == ["tracks.json"] { return try await ViewerRoutes(server: server).tracks(request) }
        return try await tile(
            try TileRequest(.overlays, parts: parts, content: content), request: request, context: context)
    }

    private func tilesets(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let parts = context.parameters.getCatchAll()
        let content = try server.servedContent()
        if parts.count == 1, parts[0].hasSuffix(".json") {
            let tileset = try content.tileset(inPath: parts[0].dropLast(5)).current
            let json = TileJSON.tileset(tileset, base: TileJSON.baseURL(request, server.configuration))
            return try HTTPCaching.json(json, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        return try await tile(
            try TileRequest(.tilesets, parts: parts, content: content), request: request, context: context)
    }

    /// A tile: kept in memory, else read from its tileset file or the cache (on NIO's blocking-I/O
    /// threads) or rendered. A data tile outside its file's bounds, or that the file does not
    /// have, is 204 No Content without a body, as martin answers (a tileset's is 404).
    func tile(_ tileRequest: TileRequest, request: Request, context: ServeRequestContext) async throws -> Response {
        let key = try tileRequest.memoryKey(server)
        if let kept = server.memory.tile(key) {
            if case .rendered(let cacheKey) = key.source {
                server.metrics.increment("mapwright_tile_cache_hits_total", [("source", cacheKey.source)])
            }
            return tileRequest.response(kept, request: request, server: server)
        }
        switch tileRequest {
        case .style(let style, let address, let size):
            let (cacheKey, make) = server.styleTiles(style, tileSizePoints: size, scale: address.scale)
            let tile = try await server.renderedTile(
                address.tile, cacheKey: cacheKey, lane: .tiles, makeRenderer: make, disconnected: context.onClose)
            return tileRequest.response(tile, request: request, server: server)
        case .overlay(let overlay, let layer, let address, let size):
            let (cacheKey, make) = try layer.tiles(
                of: overlay, server: server, tileSizePoints: size, scale: address.scale)
            let tile = try await server.renderedTile(
                address.tile, cacheKey: cacheKey, lane: .overlays, makeRenderer: make, disconnected: context.onClose)
            return tileRequest.response(tile, request: request, server: server)
        case .tileset(let tileset, let address), .data(let tileset, let address):
            let isData = if case .data = tileRequest { true } else { false }
            if isData, !tileset.covers(address.tile) { return noContent() }
            let data: Data?
            do { data = try await server.blockingIO { try tileset.source.tile(at: address.tile) } } catch {
                server.logger.error(
                    "\(isData ? "data" : "tileset") \(tileset.name): \((error as? TilesetsError)?.description ?? "\(error)")"
                )
                throw ServeError(
                    .internalServerError, "\(isData ? "data" : "tileset") '\(tileset.name)' could not be read")
            }
            guard let data else {
                if isData { return noContent() }
                throw ServeError.notFound("tileset '\(tileset.name)' has no tile \(address.tile)")
            }
            let tile = CachedTile(data)
            server.memory.insert(tile, for: key)
            return tileRequest.response(tile, request: request, server: server)
        }
    }

    /// 204 for a data tile the file does not have: no body, kept by clients as long as a tile.
    private func noContent() -> Response {
        Response(
            status: .noContent, headers: [.cacheControl: "public, max-age=\(server.configuration.cacheMaxAgeSeconds)"])
    }
}

/// A tile asked for by URL, its parts checked against what is served: a style's or the photo
/// overlay's tile (`{z}/{x}/{y}[@2x].png`, `512/{z}/{x}/{y}[@2x].png`) or a tileset's
/// (`{z}/{x}/{y}.EXT`, under `/tilesets/` or, for GL clients, `/data/`). The routes and
/// ``KeptTileByteHandler`` parse tile URLs with it alike.
enum TileRequest: Sendable {
    case style(ServedStyle, TileAddress, sizePoints: Int)
    case overlay(ServedOverlay, OverlayLayer, TileAddress, sizePoints: Int)
    case tileset(OpenTileset, TileAddress)
    /// A data tile (``DataRoutes``): a tileset's tile as GL clients read it, within the file's
    /// zooms (its bounds are not checked here: outside them the route answers 204).
    case data(OpenTileset, TileAddress)

    /// The overlays served under `/overlays/NAME/…`.
    enum OverlayLayer: String, Sendable {
        /// Pins, clusters, the callout, tracks and shapes.
        case photos
        /// The photos as a density map.
        case heatmap

        /// The cache key and renderer of this overlay's tiles.
        ///
        /// - Throws: 404 for the heatmap when no photos are served.
        func tiles(
            of overlay: ServedOverlay, server: MapTileServer, tileSizePoints: Int, scale: Int
        ) throws(ServeError) -> (TileCacheKey, @Sendable () throws -> MapTileRenderer) {
            switch self {
            case .photos:
                return server.overlayTiles(overlay, tileSizePoints: tileSizePoints, scale: scale)
            case .heatmap:
                guard let tiles = server.heatmapTiles(overlay, tileSizePoints: tileSizePoints, scale: scale) else {
                    throw ServeError.notFound("no photos are served: there is no heatmap")
                }
                return tiles
            }
        }
    }

    /// The top-level folders of tile URLs.
    enum Kind: String, CaseIterable, Sendable {
        case styles, overlays, tilesets, data
    }

    /// Parses the path components after `/styles/`, `/overlays/`, `/tilesets/` or `/data/`.
    ///
    /// - Throws: 404 for a name not served, a zoom beyond the deepest served or a tile outside a
    ///   tileset's zooms (and, under `/tilesets/`, its bounds); 400 for a malformed address.
    init(_ kind: Kind, parts: [Substring], content: ServerContent) throws(ServeError) {
        switch kind {
        case .styles:
            guard let first = parts.first else { throw ServeError.notFound("no such path") }
            let style = try content.style(inPath: first)
            let (address, size) = try Self.renderedAddress(Array(parts.dropFirst()))
            self = .style(style, address, sizePoints: size)
        case .overlays:
            guard let overlay = content.overlay else { throw ServeError.notFound("no photos or overlays are served") }
            guard let layer = parts.first.flatMap({ OverlayLayer(rawValue: String($0)) }) else {
                throw ServeError.notFound(
                    "no overlay named '\(parts.first ?? "")': the overlays are photos and heatmap")
            }
            let (address, size) = try Self.renderedAddress(Array(parts.dropFirst()))
            self = .overlay(overlay, layer, address, sizePoints: size)
        case .tilesets:
            guard parts.count == 4 else {
                throw ServeError.notFound("tileset tiles are /tilesets/NAME/{z}/{x}/{y}.EXT")
            }
            // The file as opened now: this request reads it even if the file is replaced meanwhile.
            let tileset = try content.tileset(inPath: parts[0]).current
            let address = try tileset.address(z: parts[1], x: parts[2], y: parts[3], servedAs: "tileset")
            guard tileset.covers(address.tile) else {
                throw ServeError.notFound("tile \(address.tile) is outside tileset '\(tileset.name)'")
            }
            self = .tileset(tileset, address)
        case .data:
            guard parts.count == 4 else {
                throw ServeError.notFound("data is /data/NAME.json and /data/NAME/{z}/{x}/{y}.EXT")
            }
            // The file as opened now: this request reads it even if the file is replaced meanwhile.
            let tileset = try content.dataTileset(inPath: parts[0]).current
            let address = try tileset.address(z: parts[1], x: parts[2], y: parts[3], servedAs: "data")
            let minZoom = tileset.metadata.minZoom ?? 0
            let maxZoom = tileset.metadata.maxZoom ?? ServerConfiguration.maximumRequestZoom
            guard (minZoom...max(minZoom, maxZoom)).contains(address.tile.z) else {
                throw ServeError.notFound(
                    "zoom \(address.tile.z) is outside the zooms of data '\(tileset.name)', \(minZoom) to \(maxZoom)")
            }
            self = .data(tileset, address)
        }
    }

    /// Where the tile is kept in memory.
    func memoryKey(_ server: MapTileServer) throws(ServeError) -> MemoryTileKey {
        switch self {
        case .style(let style, let address, let size):
            return MemoryTileKey(
                source: .rendered(server.styleTiles(style, tileSizePoints: size, scale: address.scale).0),
                tile: address.tile)
        case .overlay(let overlay, let layer, let address, let size):
            return MemoryTileKey(
                source: .rendered(
                    try layer.tiles(of: overlay, server: server, tileSizePoints: size, scale: address.scale).0),
                tile: address.tile)
        case .tileset(let tileset, let address), .data(let tileset, let address):
            return MemoryTileKey(source: tileset.memorySource, tile: address.tile)
        }
    }

    /// The response of the tile's bytes: its type (a tileset's by sniffing, else its metadata's),
    /// `Content-Encoding: gzip` for gzipped tileset tiles (vector tiles), caching headers.
    func response(_ tile: CachedTile, request: Request, server: MapTileServer) -> Response {
        answer(tile, ifNoneMatch: request.headers[.ifNoneMatch], server: server).response
    }

    /// The response of a rendered tile or of its stand-in: a stand-in is kept by clients for
    /// ``ServerConfiguration/standInMaxAgeSeconds`` only and says what it is in `X-Tile-Stand-In`
    /// (`stale` or `parent`).
    func response(_ served: ServedTile, request: Request, server: MapTileServer) -> Response {
        switch served {
        case .tile(let tile):
            return response(tile, request: request, server: server)
        case .standIn(let tile, let kind):
            var answer = HTTPCaching.answer(
                tile, contentType: "image/png", ifNoneMatch: request.headers[.ifNoneMatch],
                maxAgeSeconds: server.configuration.standInMaxAgeSeconds)
            answer.headers[Self.standInHeader] = kind.rawValue
            return answer.response
        }
    }

    /// `X-Tile-Stand-In`: what answered for a tile not drawn yet.
    static let standInHeader = HTTPField.Name("X-Tile-Stand-In")!

    /// ``response(_:request:server:)``'s parts, to a request whose `If-None-Match` is `ifNoneMatch`.
    /// A data tile of vector tiles is `application/x-protobuf`, as TileServer GL and martin send it.
    func answer(_ tile: CachedTile, ifNoneMatch: String?, server: MapTileServer) -> HTTPCaching.Answer {
        let maxAge = server.configuration.cacheMaxAgeSeconds
        let tileset: OpenTileset
        let isData: Bool
        switch self {
        case .style, .overlay:
            let isOverlay = if case .overlay = self { true } else { false }
            return HTTPCaching.answer(
                tile, contentType: "image/png", ifNoneMatch: ifNoneMatch,
                maxAgeSeconds: isOverlay ? server.photosMaxAgeSeconds : maxAge)
        case .tileset(let opened, _): (tileset, isData) = (opened, false)
        case .data(let opened, _): (tileset, isData) = (opened, true)
        }
        let format = tile.sniffedFormat ?? tileset.metadata.format ?? .png
        let type = isData && format == .pbf ? "application/x-protobuf" : format.mimeType
        var answer = HTTPCaching.answer(tile, contentType: type, ifNoneMatch: ifNoneMatch, maxAgeSeconds: maxAge)
        if tile.isGzipped, answer.status == .ok { answer.headers[.contentEncoding] = "gzip" }
        return answer
    }

    /// `{z}/{x}/{y}[@2x].png` (256-point tiles) or `512/{z}/{x}/{y}[@2x].png`.
    private static func renderedAddress(_ parts: [Substring]) throws(ServeError) -> (TileAddress, sizePoints: Int) {
        let address: TileAddress
        let size: Int
        switch parts.count {
        case 3:
            address = try TileAddress(z: parts[0], x: parts[1], y: parts[2])
            size = 256
        case 4 where parts[0] == "512" || parts[0] == "256":
            address = try TileAddress(z: parts[1], x: parts[2], y: parts[3])
            size = Int(parts[0])!
        default:
            throw ServeError.notFound("tiles are {z}/{x}/{y}.png or 512/{z}/{x}/{y}.png")
        }
        guard address.fileExtension == "png" else {
            throw ServeError.badRequest("tiles are .png, not .\(address.fileExtension)")
        }
        return (address, size)
    }
}
