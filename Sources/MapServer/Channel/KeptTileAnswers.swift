import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The answers ``KeptTileByteHandler`` gives: a kept tile's response, exactly as the tile routes
/// give it (the same ``TileRequest`` parses the path and makes the headers; the same CORS
/// headers, `Date` and `Server`), counted in the metrics and logged as the router's middleware
/// counts and logs it.
///
/// A 200 answer is made once per request target and `Origin` and kept (``PreparedAnswer``, at
/// most ``preparedLimit``), so that asking again for the same tile costs a dictionary lookup and
/// the memory cache's: it is used while the served content is the same
/// (``MapTileServer/answersGeneration``) and the memory cache still keeps the tile with the same
/// tag; requests with `If-None-Match` are answered the long way.
struct KeptTileAnswers: Sendable {
    let server: MapTileServer
    let cors: CORSHeadersMiddleware<ServeRequestContext>
    let serverName: String
    private let prepared = PreparedAnswers()

    /// The most answers kept ready; more forget them all, to be made again as asked.
    static let preparedLimit = 8_192

    /// The server's log when it is a ``ServerLog`` without metadata: request lines go to it as
    /// their parts (``ServerLog/RequestLine``), written as the router's lines are.
    private let requestLog: ServerLog.Handler?

    init(server: MapTileServer, serverName: String) {
        self.server = server
        self.serverName = serverName
        cors = CORSHeadersMiddleware(origins: server.configuration.corsOrigins)
        requestLog = (server.logger.handler as? ServerLog.Handler).flatMap { $0.metadata.isEmpty ? $0 : nil }
    }

    /// The counters a connection's answers count in (requests by route and status, cache hits by
    /// source), held by its handler so that counting looks nothing up in the registry.
    struct Counters {
        var requests: [Int: ServerMetrics.Counter] = [:]
        var hits: [String: ServerMetrics.Counter] = [:]
    }

    /// An answer as HTTP/1.1 writes it: the status line, the header lines and the blank line
    /// after them; the body bytes.
    struct Bytes {
        var head: ByteBuffer
        var body: ByteBuffer?
    }

    /// A 200 answer kept ready for a target and origin.
    struct PreparedAnswer: Sendable {
        var generation: UInt64
        var key: MemoryTileKey
        var entityTag: String
        /// The status line and the header lines but `Date` and `Server`.
        var head: ByteBuffer
        /// `head` with the `Date` of `second`, `Server` and the blank line.
        var wholeHead: ByteBuffer
        var second: Int
        var path: String
        var kind: TileRequest.Kind
    }

    final class PreparedAnswers: Sendable {
        let answers = Mutex<[String: PreparedAnswer]>([:])
        /// The `Date` and `Server` lines and the blank line, of a second.
        let lastLines = Mutex<(second: Int, lines: ByteBuffer)>((-1, ByteBuffer()))
    }

    /// The answer to a GET of `target` (`/kind/…[?query]`) when it is a kept tile, counted in
    /// the metrics and logged; `nil` for any other target (the router's to answer).
    ///
    /// - Parameters:
    ///   - ifNoneMatch: The request's `If-None-Match`, if any.
    ///   - origin: The request's `Origin`, if any.
    ///   - start: When the request was read (`DispatchTime`'s uptime nanoseconds), for the log line.
    func answer(target: String, ifNoneMatch: String?, origin: String?, start: UInt64, allocator: ByteBufferAllocator, counters: inout Counters) -> Bytes? {
        let preparedKey = origin.map { target + "\n" + $0 } ?? target
        let second = time(nil)
        if ifNoneMatch == nil, var ready = prepared.answers.withLock({ $0[preparedKey] }),
           ready.generation == server.answersGeneration.load(ordering: .acquiring),
           let kept = server.memory.tile(ready.key), kept.entityTag == ready.entityTag {
            count(ready.key, kind: ready.kind, status: .ok, counters: &counters)
            log(path: ready.path, status: .ok, start: start)
            if ready.second != second {
                ready.wholeHead = whole(ready.head, second: second)
                ready.second = second
                prepared.answers.withLock { $0[preparedKey] = ready }
            }
            return Bytes(head: ready.wholeHead, body: kept.bytes)
        }
        let generation = server.answersGeneration.load(ordering: .acquiring)
        guard target.utf8.first == UInt8(ascii: "/"), target.utf8.count <= server.configuration.maximumURLBytes else { return nil }
        let path = target.prefix { $0 != "?" && $0 != "#" }
        guard let slash = path.dropFirst().firstIndex(of: "/"),
              let kind = TileRequest.Kind(rawValue: String(path[path.index(after: path.startIndex)..<slash])),
              let content = try? server.servedContent(),
              let tileRequest = try? TileRequest(kind, parts: path[path.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false), content: content),
              let key = try? tileRequest.memoryKey(server), let kept = server.memory.tile(key)
        else { return nil }
        var answer = tileRequest.answer(kept, ifNoneMatch: ifNoneMatch, server: server)
        CORSHeadersMiddleware<ServeRequestContext>.decorate(
            &answer.headers, allowed: cors.allowedOrigin(forOrigin: origin), namedOrigins: cors.namesOrigins)
        let pathText = String(path)
        count(key, kind: kind, status: answer.status, counters: &counters)
        log(path: pathText, status: answer.status, start: start)
        let head = answer.http1Head(allocator: allocator)
        let wholeHead = whole(head, second: second)
        if ifNoneMatch == nil, answer.status == .ok {
            let ready = PreparedAnswer(
                generation: generation, key: key, entityTag: kept.entityTag, head: head, wholeHead: wholeHead, second: second,
                path: pathText, kind: kind)
            prepared.answers.withLock { answers in
                if answers.count >= Self.preparedLimit { answers.removeAll(keepingCapacity: true) }
                answers[preparedKey] = ready
            }
        }
        return Bytes(head: wholeHead, body: answer.body)
    }

    /// `head` with `Date: …` (of `second`) and `Server: …`, the lines every answer ends with, and the blank line.
    private func whole(_ head: ByteBuffer, second: Int) -> ByteBuffer {
        let lines = prepared.lastLines.withLock { last in
            if last.second != second {
                var buffer = ByteBuffer()
                buffer.reserveCapacity(64)
                buffer.writeStaticString("Date: ")
                buffer.writeString(HTTPDateHeader.format(second))
                buffer.writeStaticString("\r\nServer: ")
                buffer.writeString(serverName)
                buffer.writeStaticString("\r\n\r\n")
                last = (second, buffer)
            }
            return last.lines
        }
        var whole = head
        whole.writeImmutableBuffer(lines)
        return whole
    }

    /// Logs a GET's line, as ``RequestLogMiddleware/logLine(method:path:status:start:logger:)`` does.
    private func log(path: String, status: HTTPResponse.Status, start: UInt64) {
        guard let requestLog, server.logger.logLevel <= .info else {
            return RequestLogMiddleware<ServeRequestContext>.logLine(method: .get, path: path, status: status, start: start, logger: server.logger)
        }
        requestLog.log.append(ServerLog.RequestLine(
            seconds: time(nil), label: requestLog.label, method: "GET", path: path, status: status.code,
            tenthsOfMilliseconds: (DispatchTime.now().uptimeNanoseconds - start + 50_000) / 100_000))
    }

    private func count(_ key: MemoryTileKey, kind: TileRequest.Kind, status: HTTPResponse.Status, counters: inout Counters) {
        if case .rendered(let cacheKey) = key.source {
            if counters.hits[cacheKey.source] == nil {
                counters.hits[cacheKey.source] = server.metrics.counter("mapwright_tile_cache_hits_total", [("source", cacheKey.source)])
            }
            counters.hits[cacheKey.source]!.increment()
        }
        let counterID = TileRequest.Kind.allCases.firstIndex(of: kind)! * 1_000 + status.code
        if counters.requests[counterID] == nil {
            counters.requests[counterID] = server.metrics.counter(
                "mapwright_http_requests_total", [("route", "/\(kind.rawValue)/**"), ("status", String(status.code))])
        }
        counters.requests[counterID]!.increment()
    }
}

extension HTTPCaching.Answer {
    /// The status line and header lines as NIO's response encoder writes the router's (names as
    /// given), without the blank line that ends them.
    func http1Head(allocator: ByteBufferAllocator) -> ByteBuffer {
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
        return head
    }
}

/// HTTP's `Date` header (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`).
enum HTTPDateHeader {
    /// The header of `second` (seconds since 1970).
    static func format(_ second: Int) -> String {
        var seconds = time_t(second)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"], months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
