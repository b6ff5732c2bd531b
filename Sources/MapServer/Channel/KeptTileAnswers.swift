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
/// Each event loop answers with its own ``OnLoop``, which nothing else touches: answering a kept
/// tile takes no lock and writes no memory another loop reads (two loops counting in one counter
/// or appending to one log cost a third of the requests per second on a hot tile).
struct KeptTileAnswers: Sendable {
    let server: MapTileServer
    let cors: CORSHeadersMiddleware<ServeRequestContext>
    let serverName: String
    private let loops = Loops()

    /// The most answers an event loop keeps ready; more forget them all, to be made again as asked.
    static let preparedLimit = 8_192

    /// The server's log when it is a ``ServerLog`` without metadata: request lines go to it as
    /// their parts (``ServerLog/RequestLine``), written as the router's lines are.
    fileprivate let requestLog: ServerLog.Handler?

    init(server: MapTileServer, serverName: String) {
        self.server = server
        self.serverName = serverName
        cors = CORSHeadersMiddleware(origins: server.configuration.corsOrigins)
        requestLog = (server.logger.handler as? ServerLog.Handler).flatMap { $0.metadata.isEmpty ? $0 : nil }
    }

    /// An answer as HTTP/1.1 writes it: the status line, the header lines and the blank line
    /// after them; the body bytes. Or, for an answer asked for often, both in a region of the
    /// loop's answer file (`head` and `body` then unused), written with `sendfile`.
    struct Bytes {
        var head: ByteBuffer
        var body: ByteBuffer?
        var inFile: AnswerFile.Region?
    }

    private final class Loops: Sendable {
        let answers = Mutex<[ObjectIdentifier: NIOLoopBound<OnLoop>]>([:])
    }

    /// The answers of `eventLoop`, made on its first connection; call it on that loop.
    func onLoop(_ eventLoop: any EventLoop) -> OnLoop {
        loops.answers.withLock { loops in
            if let answers = loops[ObjectIdentifier(eventLoop)] { return answers.value }
            let answers = OnLoop(self, eventLoop: eventLoop)
            loops[ObjectIdentifier(eventLoop)] = NIOLoopBound(answers, eventLoop: eventLoop)
            return answers
        }
    }

    /// An event loop's answers, used on that loop only.
    ///
    /// A 200 answer is made once per request target and `Origin` and kept (``PreparedAnswer``, at
    /// most ``preparedLimit``), so that asking again for the same tile costs a dictionary lookup:
    /// it is used while the served content is the same (``MapTileServer/answersGeneration``) and
    /// the memory cache has let no tile go since the answer was checked against it
    /// (``MemoryTileCache/lettingsGoCount``); otherwise, and once a second (which keeps a tile
    /// asked for among the most recently used), it is checked again: the memory cache still
    /// keeps the tile with the same tag. Requests with `If-None-Match` are answered the long way.
    ///
    /// Request lines and counts gather on the loop and go to the log and the metrics once the
    /// loop has answered what it read (a task of its own after the reads), in one append and one
    /// addition per counter.
    final class OnLoop {
        private let shared: KeptTileAnswers
        private let eventLoop: any EventLoop
        private var prepared: [String: PreparedAnswer] = [:]
        /// The `Date` and `Server` lines and the blank line, of `linesSecond`.
        private var lastLines = ByteBuffer()
        private var linesSecond = -1
        private var lines: [ServerLog.RequestLine] = []
        private var counts: [PendingCount] = []
        private var countSlots: [CountKey: Int] = [:]
        private var isFlushScheduled = false
        /// The loop's answer file, made on first use (once: `nil` when the kernel makes none).
        private lazy var file: AnswerFile? = AnswerFile(server: server)
        /// The answers written to the file this second (``PreparedAnswer/inFile``).
        private var answersInFile: [AnswerFile.Region] = []
        private var bytesInFile = 0

        /// How many times in a second an answer is asked for before it is written to the loop's
        /// answer file for the rest of the second (writing it costs about what a copy into a
        /// socket costs).
        static let fileAfterAsks = 3
        /// The smallest answer written to the file: 16 KiB (a smaller one costs less to copy
        /// than to send as pages).
        static let fileMinimumBytes = 16 << 10
        /// The most bytes of answers a loop writes to its file in a second: 16 MiB (let go at
        /// the turn of the second, as their `Date` goes stale).
        static let fileBytesLimit = 16 << 20

        /// A 200 answer kept ready for a target and origin (an object: asking for it again
        /// changes it in place, copying none of its parts).
        private final class PreparedAnswer {
            let generation: UInt64
            /// The memory cache's ``MemoryTileCache/lettingsGoCount`` when the tile was last found kept.
            var lettingsGo: UInt64
            let key: MemoryTileKey
            let entityTag: String
            let body: ByteBuffer
            /// The status line and the header lines but `Date` and `Server`.
            let head: ByteBuffer
            /// `head` with the `Date` of `second`, `Server` and the blank line.
            var wholeHead: ByteBuffer
            var second: Int
            /// How many times it was asked for in `second`.
            var asksThisSecond = 1
            /// `wholeHead` and `body` in the loop's answer file, once asked for ``fileAfterAsks``
            /// times in `second`.
            var inFile: AnswerFile.Region?
            let path: String
            /// Where its request and cache hit are counted (``counts``).
            let requestSlot: Int
            let hitSlot: Int?

            init(
                generation: UInt64, lettingsGo: UInt64, key: MemoryTileKey, entityTag: String, body: ByteBuffer,
                head: ByteBuffer,
                wholeHead: ByteBuffer, second: Int, path: String, requestSlot: Int, hitSlot: Int?
            ) {
                self.generation = generation
                self.lettingsGo = lettingsGo
                self.key = key
                self.entityTag = entityTag
                self.body = body
                self.head = head
                self.wholeHead = wholeHead
                self.second = second
                self.path = path
                self.requestSlot = requestSlot
                self.hitSlot = hitSlot
            }
        }

        private struct PendingCount {
            let counter: ServerMetrics.Counter
            var count = 0
        }

        private enum CountKey: Hashable {
            case request(kindIndex: Int, status: Int)
            case hit(source: String)
        }

        fileprivate init(_ shared: KeptTileAnswers, eventLoop: any EventLoop) {
            self.shared = shared
            self.eventLoop = eventLoop
        }

        private var server: MapTileServer { shared.server }

        /// The answer to a GET of `target` (`/kind/…[?query]`) when it is a kept tile, counted in
        /// the metrics and logged; `nil` for any other target (the router's to answer).
        ///
        /// - Parameters:
        ///   - ifNoneMatch: The request's `If-None-Match`, if any.
        ///   - origin: The request's `Origin`, if any.
        ///   - start: When the request was read (`DispatchTime`'s uptime nanoseconds), for the log line.
        func answer(
            target: String, ifNoneMatch: String?, origin: String?, start: UInt64, allocator: ByteBufferAllocator
        ) -> Bytes? {
            let preparedKey = origin.map { target + "\n" + $0 } ?? target
            let second = time(nil)
            let generation = server.answersGeneration.load(ordering: .acquiring)
            turn(to: second)
            if ifNoneMatch == nil, let ready = prepared[preparedKey] {
                let lettingsGo = server.memory.lettingsGoCount
                if ready.generation != generation || ready.lettingsGo != lettingsGo || ready.second != second {
                    guard ready.generation == generation, let kept = server.memory.tile(ready.key),
                        kept.entityTag == ready.entityTag
                    else {
                        prepared[preparedKey] = nil
                        return answer(
                            target: target, ifNoneMatch: ifNoneMatch, origin: origin, start: start, allocator: allocator
                        )
                    }
                    ready.lettingsGo = lettingsGo
                    if ready.second != second {
                        ready.wholeHead = whole(ready.head)
                        ready.second = second
                        ready.asksThisSecond = 0
                        ready.inFile = nil
                    }
                }
                ready.asksThisSecond += 1
                if ready.asksThisSecond == Self.fileAfterAsks { writeToFile(ready) }
                count(ready.requestSlot, ready.hitSlot)
                log(path: ready.path, status: .ok, start: start)
                return Bytes(head: ready.wholeHead, body: ready.body, inFile: ready.inFile)
            }
            guard target.utf8.first == UInt8(ascii: "/"), target.utf8.count <= server.configuration.maximumURLBytes
            else { return nil }
            let path = target.prefix { $0 != "?" && $0 != "#" }
            let lettingsGo = server.memory.lettingsGoCount
            guard let slash = path.dropFirst().firstIndex(of: "/"),
                let kind = TileRequest.Kind(rawValue: String(path[path.index(after: path.startIndex)..<slash])),
                let content = try? server.servedContent(),
                let tileRequest = try? TileRequest(
                    kind,
                    parts: path[path.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false),
                    content: content),
                let key = try? tileRequest.memoryKey(server), let kept = server.memory.tile(key)
            else { return nil }
            var answer = tileRequest.answer(kept, ifNoneMatch: ifNoneMatch, server: server)
            CORSHeadersMiddleware<ServeRequestContext>.decorate(
                &answer.headers, allowed: shared.cors.allowedOrigin(forOrigin: origin),
                namedOrigins: shared.cors.namesOrigins)
            let pathText = String(path)
            let requestSlot = countSlot(
                .request(kindIndex: TileRequest.Kind.allCases.firstIndex(of: kind)!, status: answer.status.code)
            ) {
                $0.counter(
                    "mapwright_http_requests_total",
                    [("route", "/\(kind.rawValue)/**"), ("status", String(answer.status.code))])
            }
            var hitSlot: Int?
            if case .rendered(let cacheKey) = key.source {
                hitSlot = countSlot(.hit(source: cacheKey.source)) {
                    $0.counter("mapwright_tile_cache_hits_total", [("source", cacheKey.source)])
                }
            }
            count(requestSlot, hitSlot)
            log(path: pathText, status: answer.status, start: start)
            let head = answer.http1Head(allocator: allocator)
            let wholeHead = whole(head)
            if ifNoneMatch == nil, answer.status == .ok, let body = answer.body {
                if prepared.count >= KeptTileAnswers.preparedLimit { prepared.removeAll(keepingCapacity: true) }
                prepared[preparedKey] = PreparedAnswer(
                    generation: generation, lettingsGo: lettingsGo, key: key, entityTag: kept.entityTag, body: body,
                    head: head,
                    wholeHead: wholeHead, second: second, path: pathText, requestSlot: requestSlot, hitSlot: hitSlot)
            }
            return Bytes(head: wholeHead, body: answer.body)
        }

        /// Makes `Date` and `Server` lines of `second` when it is a new one, and retires the
        /// answers written to the file in the second before (their `Date` is stale).
        private func turn(to second: Int) {
            guard linesSecond != second else { return }
            var buffer = ByteBuffer()
            buffer.reserveCapacity(64)
            buffer.writeStaticString("Date: ")
            buffer.writeString(HTTPDateHeader.format(second))
            buffer.writeStaticString("\r\nServer: ")
            buffer.writeString(shared.serverName)
            buffer.writeStaticString("\r\n\r\n")
            lastLines = buffer
            linesSecond = second
            if !answersInFile.isEmpty {
                for ready in prepared.values { ready.inFile = nil }
                for region in answersInFile { region.retire() }
                answersInFile.removeAll(keepingCapacity: true)
                bytesInFile = 0
            }
        }

        /// `head` with `Date: …` (of this second) and `Server: …`, the lines every answer ends
        /// with, and the blank line.
        private func whole(_ head: ByteBuffer) -> ByteBuffer {
            var whole = head
            whole.writeImmutableBuffer(lastLines)
            return whole
        }

        /// Writes the prepared answer `ready` (head and body) to the loop's answer file for
        /// the rest of this second, if it is large enough and the second's ``fileBytesLimit`` has room.
        private func writeToFile(_ ready: PreparedAnswer) {
            let size = ready.wholeHead.readableBytes + ready.body.readableBytes
            guard size >= Self.fileMinimumBytes, bytesInFile + size <= Self.fileBytesLimit else { return }
            guard let file, let region = file.store(ready.wholeHead, ready.body) else { return }
            ready.inFile = region
            answersInFile.append(region)
            bytesInFile += size
        }

        private func countSlot(_ key: CountKey, counter: (ServerMetrics) -> ServerMetrics.Counter) -> Int {
            if let slot = countSlots[key] { return slot }
            counts.append(PendingCount(counter: counter(server.metrics)))
            countSlots[key] = counts.count - 1
            return counts.count - 1
        }

        private func count(_ requestSlot: Int, _ hitSlot: Int?) {
            counts[requestSlot].count += 1
            if let hitSlot { counts[hitSlot].count += 1 }
            scheduleFlush()
        }

        /// Logs a GET's line, as ``RequestLogMiddleware/logLine(method:path:status:start:logger:)`` does.
        private func log(path: String, status: HTTPResponse.Status, start: UInt64) {
            guard let requestLog = shared.requestLog, server.logger.logLevel <= .info else {
                return RequestLogMiddleware<ServeRequestContext>.logLine(
                    method: .get, path: path, status: status, start: start, logger: server.logger)
            }
            lines.append(
                ServerLog.RequestLine(
                    seconds: time(nil), label: requestLog.label, method: "GET", path: path, status: status.code,
                    tenthsOfMilliseconds: (DispatchTime.now().uptimeNanoseconds - start + 50_000) / 100_000))
        }

        private func scheduleFlush() {
            guard !isFlushScheduled else { return }
            isFlushScheduled = true
            eventLoop.assumeIsolated().execute { [self] in flush() }
        }

        /// Hands the lines and counts gathered to the log and the metrics.
        private func flush() {
            isFlushScheduled = false
            if !lines.isEmpty, let requestLog = shared.requestLog {
                requestLog.log.append(contentsOf: lines)
                lines.removeAll(keepingCapacity: true)
            }
            for slot in counts.indices where counts[slot].count > 0 {
                counts[slot].counter.increment(by: counts[slot].count)
                counts[slot].count = 0
            }
        }
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
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
