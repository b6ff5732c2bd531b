import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The answers ``KeptTileByteHandler`` gives: a kept tile's response, exactly as the tile routes
/// give it (the same ``TileRequest`` parses the path and makes the headers; the same CORS
/// headers, `Date` and `Server`), counted in the metrics and logged as the router's middleware
/// counts and logs it.
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

    /// The answer to a GET of `target` (`/kind/…[?query]`) when it is a kept tile, counted in
    /// the metrics and logged; `nil` for any other target (the router's to answer).
    ///
    /// - Parameters:
    ///   - ifNoneMatch: The request's `If-None-Match`, if any.
    ///   - origin: The request's `Origin`, if any.
    ///   - start: When the request was read (`DispatchTime`'s uptime nanoseconds), for the log line.
    func answer(target: Substring, ifNoneMatch: String?, origin: String?, start: UInt64, counters: inout Counters) -> HTTPCaching.Answer? {
        guard target.utf8.first == UInt8(ascii: "/"), target.utf8.count <= server.configuration.maximumURLBytes else { return nil }
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
        var answer = tileRequest.answer(kept, ifNoneMatch: ifNoneMatch, server: server)
        CORSHeadersMiddleware<ServeRequestContext>.decorate(
            &answer.headers, allowed: cors.allowedOrigin(forOrigin: origin), namedOrigins: cors.namesOrigins)
        answer.headers[.date] = date.now
        answer.headers[.server] = serverName
        let counterID = TileRequest.Kind.allCases.firstIndex(of: kind)! * 1_000 + answer.status.code
        if counters.requests[counterID] == nil {
            counters.requests[counterID] = server.metrics.counter(
                "mapwright_http_requests_total", [("route", "/\(kind.rawValue)/**"), ("status", String(answer.status.code))])
        }
        counters.requests[counterID]!.increment()
        RequestLogMiddleware<ServeRequestContext>.logLine(method: .get, path: path, status: answer.status, start: start, logger: server.logger)
        return answer
    }
}

extension HTTPCaching.Answer {
    /// The answer as HTTP/1.1 writes it, as NIO's response encoder writes the router's: the
    /// status line and header lines (names as given) in `head`, the body bytes as they are.
    func http1(allocator: ByteBufferAllocator) -> (head: ByteBuffer, body: ByteBuffer?) {
        var head = allocator.buffer(capacity: 384)
        head.writeStaticString("HTTP/1.1 ")
        head.writeString(String(status.code))
        head.writeStaticString(" ")
        head.writeString(status.reasonPhrase)
        head.writeStaticString("\r\n")
        for field in headers {
            head.writeString(field.name.rawName)
            head.writeStaticString(": ")
            head.writeString(field.value)
            head.writeStaticString("\r\n")
        }
        head.writeStaticString("\r\n")
        return (head, body)
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
