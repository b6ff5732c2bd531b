import Hummingbird

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
/// Tiles are parsed and answered as the `/tilesets/…` tiles are (``TileRequest/data(_:_:)``): a
/// tile read is kept in memory with those of the same file (one entry for both paths) and, kept,
/// answered by ``KeptTileByteHandler``; a file replaced on disk is served from the new file
/// (``TilesetWatcher``).
struct DataRoutes {
    let server: MapTileServer

    func add(to router: Router<ServeRequestContext>) {
        router.get("/data.json") { request, _ in
            let base = TileJSON.baseURL(request, server.configuration)
            let list = try server.servedContent().dataTilesets.map {
                TileJSON.tileset($0.current, base: base, folder: "data")
            }
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
        return try await TileRoutes(server: server).tile(
            try TileRequest(.data, parts: parts, content: content), request: request, context: context)
    }
}
