import Dispatch
import Hummingbird

/// Answers requests for tiles kept in memory (``MemoryTileCache``) before the router sees them:
/// the response, its CORS headers, its count in the metrics and its log line are the ones the
/// router's tile routes and middleware give (the same ``TileRequest`` parses the path), at about
/// two thirds of their cost, which on cached tiles is most of the server's. Everything else, and
/// any tile request that is not plainly a kept tile (a body, a URL over the limit, an address
/// that does not parse), goes to the router unchanged.
struct KeptTileResponder<Next: HTTPResponder>: HTTPResponder where Next.Context == ServeRequestContext {
    let server: MapTileServer
    let next: Next
    let cors: CORSHeadersMiddleware<ServeRequestContext>

    init(server: MapTileServer, next: Next) {
        self.server = server
        self.next = next
        cors = CORSHeadersMiddleware(origins: server.configuration.corsOrigins)
    }

    func respond(to request: Request, context: ServeRequestContext) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        guard let (response, route) = keptTileResponse(request) else {
            return try await next.respond(to: request, context: context)
        }
        RequestLogMiddleware<ServeRequestContext>.record(
            request, route: route, status: response.status, start: start, metrics: server.metrics, logger: server.logger)
        return response
    }

    /// The response to a GET of a kept tile, with the route pattern it is counted under; `nil`
    /// for any other request.
    private func keptTileResponse(_ request: Request) -> (Response, route: String)? {
        guard request.method == .get, request.headers[.contentLength] == nil, request.headers[.transferEncoding] == nil,
              request.uri.description.utf8.count <= server.configuration.maximumURLBytes
        else { return nil }
        let path = request.uri.path
        guard path.hasPrefix("/"), let slash = path.dropFirst().firstIndex(of: "/"),
              let kind = TileRequest.Kind(rawValue: String(path[path.index(after: path.startIndex)..<slash])),
              let content = try? server.servedContent(),
              let tileRequest = try? TileRequest(kind, parts: path[path.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false), content: content)
        else { return nil }
        guard let key = try? tileRequest.memoryKey(server), let kept = server.memory.tile(key) else { return nil }
        if case .rendered(let cacheKey) = key.source {
            server.metrics.increment("mapwright_tile_cache_hits_total", [("source", cacheKey.source)])
        }
        var response = tileRequest.response(kept, request: request, server: server)
        CORSHeadersMiddleware<ServeRequestContext>.decorate(&response.headers, allowed: cors.allowedOrigin(for: request))
        return (response, "/\(kind.rawValue)/**")
    }
}
