import Foundation
import Hummingbird
import Logging
import MapCore
import TileSources
import Tilesets

/// TileServer GL's data endpoints, for GL clients (MapLibre GL JS, QGIS, the mobile SDKs): every
/// tileset file served, vector or raster (``ServerContent/dataTilesets``: the `--tiles` files and
/// the local files the styles draw from), by name.
///
/// - `/data/NAME.json`: its TileJSON 3.0.0, tiles under `/data/NAME/…`, with the metadata's
///   `vector_layers`, zooms, bounds, center and format;
/// - `/data/NAME/{z}/{x}/{y}.EXT`: a tile's bytes as the file stores them, EXT the tiles' own
///   (`pbf` for vector tiles, else `png`, `jpg` or `webp`), `Content-Encoding: gzip` when they are
///   gzipped (vector tiles usually are), `application/x-protobuf` for vector tiles as TileServer
///   GL and martin send them. A tile the file does not have, within its zooms, is 204 No Content
///   without a body, as martin answers (also outside the file's bounds, without reading it); a
///   zoom outside the file's zooms, or a name not served, is 404; a malformed address, a scale or
///   another extension is 400;
/// - `/data.json`: every data TileJSON.
///
/// A tile read is kept in memory with the `/tilesets/…` tiles of the same file (one entry for
/// both paths), and a file replaced on disk is served from the new file (``TilesetWatcher``).
struct DataRoutes {
    let server: MapTileServer

    func add(to router: Router<ServeRequestContext>) {
        router.get("/data.json") { request, _ in
            let base = TileJSON.baseURL(request, server.configuration)
            let list = try server.servedContent().dataTilesets.map { TileJSON.tileset($0.current, base: base, folder: "data") }
            return try HTTPCaching.json(list, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        router.get("/data/**") { request, context in try await data(request, context) }
    }

    private func data(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let parts = context.parameters.getCatchAll()
        let content = try server.servedContent()
        if parts.count == 1, parts[0].hasSuffix(".json") {
            let tileset = try content.dataTileset(inPath: parts[0].dropLast(5)).current
            let json = TileJSON.tileset(tileset, base: TileJSON.baseURL(request, server.configuration), folder: "data")
            return try HTTPCaching.json(json, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        guard parts.count == 4 else { throw ServeError.notFound("data is /data/NAME.json and /data/NAME/{z}/{x}/{y}.EXT") }
        // The file as opened now: this request reads it even if the file is replaced meanwhile.
        let tileset = try content.dataTileset(inPath: parts[0]).current
        let address = try tileset.address(z: parts[1], x: parts[2], y: parts[3], servedAs: "data")
        let metadata = tileset.metadata
        let minZoom = metadata.minZoom ?? 0, maxZoom = metadata.maxZoom ?? ServerConfiguration.maximumRequestZoom
        guard (minZoom...max(minZoom, maxZoom)).contains(address.tile.z) else {
            throw ServeError.notFound("zoom \(address.tile.z) is outside the zooms of data '\(tileset.name)', \(minZoom) to \(maxZoom)")
        }
        guard tileset.covers(address.tile) else { return noContent() }
        let key = MemoryTileKey(source: tileset.memorySource, tile: address.tile)
        if let kept = server.memory.tile(key) { return response(kept, of: tileset, request: request) }
        let data: Data?
        do { data = try await server.blockingIO { try tileset.source.tile(at: address.tile) } } catch {
            server.logger.error("data \(tileset.name): \((error as? TilesetsError)?.description ?? "\(error)")")
            throw ServeError(.internalServerError, "data '\(tileset.name)' could not be read")
        }
        guard let data else { return noContent() }
        let tile = CachedTile(data)
        server.memory.insert(tile, for: key)
        return response(tile, of: tileset, request: request)
    }

    /// The tile's bytes as stored, `Content-Encoding: gzip` when they are gzipped, caching headers.
    private func response(_ tile: CachedTile, of tileset: OpenTileset, request: Request) -> Response {
        let format = tile.sniffedFormat ?? tileset.metadata.format ?? .png
        let type = format == .pbf ? "application/x-protobuf" : format.mimeType
        var response = HTTPCaching.response(tile, contentType: type, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        if tile.isGzipped, response.status == .ok { response.headers[.contentEncoding] = "gzip" }
        return response
    }

    /// 204 for a tile the file does not have: no body, kept by clients as long as a tile.
    private func noContent() -> Response {
        Response(status: .noContent, headers: [.cacheControl: "public, max-age=\(server.configuration.cacheMaxAgeSeconds)"])
    }
}
