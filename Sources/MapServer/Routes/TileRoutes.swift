import Foundation
import Hummingbird
import MapCore
import MapRenderer
import TileStore

/// `/styles/NAME/{z}/{x}/{y}[@2x].png`, `/styles/NAME/512/{z}/{x}/{y}[@2x].png`,
/// `/overlays/photos/…` in the same forms, `/tilesets/NAME/{z}/{x}/{y}.EXT`, and each one's
/// TileJSON at `/styles/NAME.json`, `/overlays/photos.json` and `/tilesets/NAME.json`.
///
/// The paths are parsed here rather than by route patterns, so each malformed part gets its own
/// one-line 400. Names are looked up among what is served, never used as file paths: `..`,
/// encoded or not, is just a name that is not served (404).
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
            if let overlay = content.overlay { list.append(TileJSON.overlay(overlay, photos: content.photos, base: base, configuration: server.configuration)) }
            list += content.tilesets.map { TileJSON.tileset($0, base: base) }
            return try HTTPCaching.json(list, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
    }

    private func styles(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let parts = context.parameters.getCatchAll()
        let content = try server.servedContent()
        if parts.count == 1, parts[0].hasSuffix(".json") {
            let name = String(parts[0].dropLast(5))
            guard let style = content.style(named: name) else { throw ServeError.notFound("no style named '\(name)'") }
            let json = TileJSON.style(style, base: TileJSON.baseURL(request, server.configuration), configuration: server.configuration)
            return try HTTPCaching.json(json, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        guard let first = parts.first else { throw ServeError.notFound("no such path") }
        guard let style = content.style(named: String(first)) else { throw ServeError.notFound("no style named '\(first)'") }
        if parts.count > 1, parts[1] == "static" {
            return try await StaticMapRoutes(server: server).staticMap(style, parts: Array(parts.dropFirst(2)), request: request, context: context)
        }
        let (address, size) = try tileAddress(Array(parts.dropFirst()))
        let (key, make) = server.styleTiles(style, tileSizePoints: size, scale: address.scale)
        return try await renderedResponse(address, key: key, make: make, request: request, context: context)
    }

    private func overlays(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let parts = context.parameters.getCatchAll()
        let content = try server.servedContent()
        guard let overlay = content.overlay else { throw ServeError.notFound("no photos or overlays are served") }
        if parts == ["photos.json"] {
            let json = TileJSON.overlay(overlay, photos: content.photos, base: TileJSON.baseURL(request, server.configuration), configuration: server.configuration)
            return try HTTPCaching.json(json, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        if parts == ["tracks.json"] { return try await ViewerRoutes(server: server).tracks(request) }
        guard parts.first == "photos" else { throw ServeError.notFound("no overlay named '\(parts.first ?? "")'") }
        let (address, size) = try tileAddress(Array(parts.dropFirst()))
        let (key, make) = server.overlayTiles(overlay, tileSizePoints: size, scale: address.scale)
        return try await renderedResponse(address, key: key, make: make, request: request, context: context)
    }

    private func tilesets(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let parts = context.parameters.getCatchAll()
        let content = try server.servedContent()
        if parts.count == 1, parts[0].hasSuffix(".json") {
            let name = String(parts[0].dropLast(5))
            guard let tileset = content.tileset(named: name) else { throw ServeError.notFound("no tileset named '\(name)'") }
            let json = TileJSON.tileset(tileset, base: TileJSON.baseURL(request, server.configuration))
            return try HTTPCaching.json(json, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        guard parts.count == 4 else { throw ServeError.notFound("tileset tiles are /tilesets/NAME/{z}/{x}/{y}.EXT") }
        guard let tileset = content.tileset(named: String(parts[0])) else { throw ServeError.notFound("no tileset named '\(parts[0])'") }
        let address = try TileAddress(z: parts[1], x: parts[2], y: parts[3])
        guard address.scale == 1 else { throw ServeError.badRequest("tileset tiles have one scale: drop '@\(address.scale)x'") }
        guard address.fileExtension == tileset.fileExtension else {
            throw ServeError.badRequest("tileset '\(tileset.name)' holds .\(tileset.fileExtension) tiles, not .\(address.fileExtension)")
        }
        guard tileset.covers(address.tile) else { throw ServeError.notFound("tile \(address.tile) is outside tileset '\(tileset.name)'") }
        let data: Data?
        do { data = try tileset.reader.tile(at: address.tile) } catch {
            server.logger.error("tileset \(tileset.name): \(error.description)")
            throw ServeError(.internalServerError, "tileset '\(tileset.name)' could not be read")
        }
        guard let data else { throw ServeError.notFound("tileset '\(tileset.name)' has no tile \(address.tile)") }
        let type = (TileFormat(sniffing: data) ?? tileset.metadata.format ?? .png).mimeType
        var response = HTTPCaching.response(data, contentType: type, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        if data.starts(with: [0x1F, 0x8B]), response.status == .ok { response.headers[.contentEncoding] = "gzip" }
        return response
    }

    /// `{z}/{x}/{y}[@2x].png` (256-point tiles) or `512/{z}/{x}/{y}[@2x].png`.
    private func tileAddress(_ parts: [Substring]) throws(ServeError) -> (TileAddress, tileSizePoints: Int) {
        let address: TileAddress, size: Int
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
        guard address.fileExtension == "png" else { throw ServeError.badRequest("tiles are .png, not .\(address.fileExtension)") }
        return (address, size)
    }

    private func renderedResponse(
        _ address: TileAddress, key: TileCacheKey, make: @escaping @Sendable () throws -> MapRenderer.MapTileRenderer,
        request: Request, context: ServeRequestContext
    ) async throws -> Response {
        let data = try await server.renderedTile(address.tile, cacheKey: key, makeRenderer: make, disconnected: context.onClose)
        return HTTPCaching.response(data, contentType: "image/png", request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
    }
}
