import Dispatch
import Foundation
import Hummingbird
import Logging

/// Logs one line per request at info level (method, path, status, duration) and counts the
/// request by route and status in ``ServerMetrics``. A request whose client went away before its
/// answer (its render cancelled, see ``ClientConnection``) is logged and counted as 499, nginx's
/// "client closed request", not as a server error.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The status of a request whose client went away: 499.
    static var clientClosedRequest: HTTPResponse.Status {
        HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")
    }

    let metrics: ServerMetrics
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let response = try await next(request, context)
            record(request, context: context, status: response.status, start: start)
            return response
        } catch {
            let status =
                error is CancellationError
                ? Self.clientClosedRequest : (error as? any HTTPResponseError)?.status ?? .internalServerError
            record(request, context: context, status: status, start: start)
            throw error
        }
    }

    private func record(_ request: Request, context: Context, status: HTTPResponse.Status, start: UInt64) {
        Self.record(
            method: request.method, path: request.uri.path, route: context.endpointPath ?? "unmatched", status: status,
            start: start,
            metrics: metrics, logger: logger)
    }

    /// Counts a request by route and status and logs its line; ``KeptTileByteHandler`` records the
    /// requests it answers with it too. The line is `METHOD PATH STATUS MILLISECONDS ms`.
    static func record(
        method: HTTPRequest.Method, path: String, route: String, status: HTTPResponse.Status, start: UInt64,
        metrics: ServerMetrics, logger: Logger
    ) {
        metrics.recordRequest(route: route, status: status.code)
        logLine(method: method, path: path, status: status, start: start, logger: logger)
    }

    /// Logs a request's line (at info level), `METHOD PATH STATUS MILLISECONDS ms`, without counting it.
    static func logLine(
        method: HTTPRequest.Method, path: some StringProtocol, status: HTTPResponse.Status, start: UInt64,
        logger: Logger
    ) {
        guard logger.logLevel <= .info else { return }
        let tenths = (DispatchTime.now().uptimeNanoseconds - start + 50_000) / 100_000
        logger.info("\(method) \(path) \(status.code) \(tenths / 10).\(tenths % 10) ms")
    }
}

/// CORS for tiles and JSON: `Access-Control-Allow-Origin` for the configured origins (`*`, or
/// the request's `Origin` when it is one of them, with `Vary: Origin`), and preflight `OPTIONS`
/// answered with 204.
struct CORSHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let origins: [String]

    /// The origin a response to `request` allows: `*`, the request's `Origin` when it is one of
    /// ``origins``, or `nil`.
    func allowedOrigin(for request: Request) -> String? { allowedOrigin(forOrigin: request.headers[.origin]) }

    /// The origin a response to a request whose `Origin` is `origin` allows.
    func allowedOrigin(forOrigin origin: String?) -> String? {
        if origins.contains("*") { return "*" }
        if let origin, origins.contains(origin) { return origin }
        return nil
    }

    /// Adds the CORS headers of a response whose request's allowed origin is `allowed`. With
    /// named origins (not `*`) every response says `Vary: Origin`, allowed or not, so that a
    /// shared cache in front never hands one origin's answer to another.
    static func decorate(_ headers: inout HTTPFields, allowed: String?, namedOrigins: Bool) {
        if namedOrigins { headers[.vary] = "Origin" }
        guard let allowed else { return }
        headers[.accessControlAllowOrigin] = allowed
        headers[.accessControlExposeHeaders] = "ETag, Retry-After"
    }

    /// Whether origins are named (no `*`): answers then depend on the request's `Origin`.
    var namesOrigins: Bool { !origins.contains("*") }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let allowed = allowedOrigin(for: request)
        let named = namesOrigins
        func decorate(_ headers: inout HTTPFields) { Self.decorate(&headers, allowed: allowed, namedOrigins: named) }
        if request.method == .options {
            var headers: HTTPFields = [:]
            decorate(&headers)
            if allowed != nil {
                headers[.accessControlAllowMethods] = "GET, HEAD, OPTIONS"
                headers[.accessControlAllowHeaders] = request.headers[.accessControlRequestHeaders] ?? "If-None-Match"
                headers[.accessControlMaxAge] = "86400"
            }
            return Response(status: .noContent, headers: headers)
        }
        do {
            var response = try await next(request, context)
            decorate(&response.headers)
            return response
        } catch let error as ServeError {
            var error = error
            decorate(&error.headers)
            throw error
        }
    }
}

/// The request limits apart from those the HTTP parser applies (header sizes, idle time): a
/// request target longer than ``ServerConfiguration/maximumURLBytes`` gets 414, and a body
/// larger than ``ServerConfiguration/maximumBodyBytes`` (declared, or sent) gets 413, each with
/// a one-line reason, before any route runs.
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    let maximumURLBytes: Int
    let maximumBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let target = request.uri.description.utf8.count
        guard target <= maximumURLBytes else {
            throw ServeError(.uriTooLong, "the URL is \(target) bytes, more than \(maximumURLBytes)")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximumBodyBytes {
            throw ServeError(
                .contentTooLarge, "the request body is \(length) bytes; at most \(maximumBodyBytes) are accepted")
        }
        // HTTP/1.1 requests without Content-Length or Transfer-Encoding have no body (RFC 9112,
        // 6.3): nothing to read, as for nearly every GET.
        guard request.headers[.contentLength] != nil || request.headers[.transferEncoding] != nil else {
            return try await next(request, context)
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: maximumBodyBytes)
        } catch {
            throw ServeError(.contentTooLarge, "the request body is larger than \(maximumBodyBytes) bytes")
        }
        return try await next(request, context)
    }
}
