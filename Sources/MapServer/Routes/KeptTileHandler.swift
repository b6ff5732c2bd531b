import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Answers GETs of tiles kept in memory (``MemoryTileCache``) in the connection's channel
/// pipeline, on its event loop, before Hummingbird sees them: no task, no `Request`, no
/// middleware. The answer is the one the tile routes give (the same ``TileRequest`` parses the
/// path and makes the headers; the same CORS headers, `Date` and `Server`), counted in the metrics
/// and logged as the router's middleware counts and logs it. On cached tiles this is most of the
/// server's work, so it is what sets its requests per second.
///
/// Everything else goes on to Hummingbird unchanged: other methods, a request with a body or a
/// `Connection` header other than `keep-alive`, a URL over the limit or that is not plainly a
/// kept tile's, and every request that arrives while one passed on is still being answered
/// (pipelined requests are answered in order).
final class KeptTileHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let answers: KeptTileAnswers
    /// Requests passed on to Hummingbird whose responses have not ended.
    private var passedOn = 0
    /// The answer of the request being read, written when its end arrives; its parts are not passed on.
    private var answering: HTTPCaching.Answer?
    private var needsFlush = false
    /// The counters this connection's answers count in, looked up once.
    private var counters = KeptTileAnswers.Counters()

    init(answers: KeptTileAnswers) {
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if passedOn == 0, let answer = answers.answer(head, counters: &counters) {
                answering = answer
                return
            }
            passedOn += 1
            context.fireChannelRead(data)
        case .body:
            // A request answered here has no body (see KeptTileAnswers.answer).
            if answering == nil { context.fireChannelRead(data) }
        case .end:
            guard let answer = answering else { return context.fireChannelRead(data) }
            answering = nil
            context.write(wrapOutboundOut(.head(HTTPResponse(status: answer.status, headerFields: answer.headers))), promise: nil)
            if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
            needsFlush = true
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }
}

/// The answers ``KeptTileHandler`` gives: a kept tile's response, counted and logged.
struct KeptTileAnswers: Sendable {
    let server: MapTileServer
    let cors: CORSHeadersMiddleware<ServeRequestContext>
    let serverName: String
    let date = HTTPDateHeader()

    init(server: MapTileServer, serverName: String) {
        self.server = server
        self.serverName = serverName
        cors = CORSHeadersMiddleware(origins: server.configuration.corsOrigins)
    }

    /// The counters a connection's answers count in (requests by route and status, cache hits by
    /// source), held by its handler so that counting looks nothing up in the registry.
    struct Counters {
        var requests: [Int: ServerMetrics.Counter] = [:]
        var hits: [String: ServerMetrics.Counter] = [:]
    }

    /// The answer to a GET of a kept tile, counted in the metrics and logged; `nil` for any other
    /// request (the router's to answer).
    func answer(_ head: HTTPRequest, counters: inout Counters) -> HTTPCaching.Answer? {
        let start = DispatchTime.now().uptimeNanoseconds
        let fields = head.headerFields
        guard head.method == .get, let target = head.path, target.utf8.first == UInt8(ascii: "/"),
              target.utf8.count <= server.configuration.maximumURLBytes,
              fields[.contentLength] == nil, fields[.transferEncoding] == nil,
              fields[.connection].map({ $0.lowercased() == "keep-alive" }) ?? true
        else { return nil }
        let path = target.prefix { $0 != "?" && $0 != "#" }
        guard let slash = path.dropFirst().firstIndex(of: "/"),
              let kind = TileRequest.Kind(rawValue: String(path[path.index(after: path.startIndex)..<slash])),
              let content = try? server.servedContent(),
              let tileRequest = try? TileRequest(kind, parts: path[path.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false), content: content),
              let key = try? tileRequest.memoryKey(server), let kept = server.memory.tile(key)
        else { return nil }
        if case .rendered(let cacheKey) = key.source {
            if counters.hits[cacheKey.source] == nil {
                counters.hits[cacheKey.source] = server.metrics.counter("mapwright_tile_cache_hits_total", [("source", cacheKey.source)])
            }
            counters.hits[cacheKey.source]!.increment()
        }
        var answer = tileRequest.answer(kept, ifNoneMatch: fields[.ifNoneMatch], server: server)
        CORSHeadersMiddleware<ServeRequestContext>.decorate(
            &answer.headers, allowed: cors.allowedOrigin(forOrigin: fields[.origin]), namedOrigins: cors.namesOrigins)
        answer.headers[.date] = date.now
        answer.headers[.server] = serverName
        let counterID = TileRequest.Kind.allCases.firstIndex(of: kind)! * 1_000 + answer.status.code
        if counters.requests[counterID] == nil {
            counters.requests[counterID] = server.metrics.counter(
                "mapwright_http_requests_total", [("route", "/\(kind.rawValue)/**"), ("status", String(answer.status.code))])
        }
        counters.requests[counterID]!.increment()
        RequestLogMiddleware<ServeRequestContext>.logLine(method: head.method, path: path, status: answer.status, start: start, logger: server.logger)
        return answer
    }
}

/// HTTP's `Date` header (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`), made again
/// only when the second changes, as Hummingbird's own date cache makes it.
final class HTTPDateHeader: Sendable {
    private let kept = Mutex<(second: Int, text: String)>((-1, ""))

    /// The header of now.
    var now: String {
        let second = time(nil)
        return kept.withLock { kept in
            if kept.second != second { kept = (second, Self.format(second)) }
            return kept.text
        }
    }

    static func format(_ second: Int) -> String {
        var seconds = time_t(second)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"], months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
