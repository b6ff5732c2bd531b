import Dispatch
import NIOCore

/// Answers GETs of tiles kept in memory (``MemoryTileCache``) from the request's bytes, first in
/// the connection's pipeline, on its event loop: no HTTP decoder, no HTTP types, no task, no
/// middleware. On cached tiles this is most of the server's work, so it sets its requests per
/// second. The answer is ``KeptTileAnswers``'s: the tile routes' status, headers and bytes,
/// counted and logged as the router's.
///
/// Each complete request head in the bytes read is looked at in turn:
///
/// - a `GET` in HTTP/1.1 of a kept tile, without a body, a `Connection` header other than
///   `keep-alive` or `Expect`, while no request passed on is being answered, is
///   answered here (its answer written at once, flushed when the read is done; an answer asked
///   for often is written from the loop's ``AnswerFile`` with `sendfile`, and kept in the file
///   until that write is done);
/// - any other request without a body is passed on whole to the HTTP decoder, and to the router
///   (which answers in order; the requests after it are passed on until its answer is written);
/// - a request with a body (`Content-Length` or `Transfer-Encoding`) or asking for an `Upgrade`, a head longer than
///   `maximumHeadBytes`, or bytes that are not a request head pass the connection to the HTTP
///   decoder for good, with every byte not yet answered.
///
/// A head not read whole yet waits for the rest of it here. Requests answered here count as the
/// connection's activity (``ConnectionActivity``), for its idle time and graceful shutdown.
final class KeptTileByteHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let answers: KeptTileAnswers
    private let activity: ConnectionActivity
    private let maximumHeadBytes: Int
    /// The start of a request head not read whole yet.
    private var partial: ByteBuffer?
    /// Whether every byte goes to the HTTP decoder from now on.
    private var passesEverything = false
    private var needsFlush = false
    /// Whether bytes were passed on since the last read was complete.
    private var hasPassedOn = false
    /// The answers of the connection's event loop, once it has read a request.
    private var answersOnLoop: KeptTileAnswers.OnLoop?
    /// How long a head may take from its first byte to its blank line; nil for ever.
    private let headTimeout: TimeAmount?
    /// Ends a head begun and not read whole in time (see ``timeHead(_:)``).
    private var headTimer: Scheduled<Void>?

    /// - Parameters:
    ///   - maximumHeadBytes: The longest request head looked at (the server's header limit).
    ///   - headTimeout: How long a head may take from its first byte to its blank line before the
    ///     connection gets 408 and is closed; nil (the default) for ever.
    init(answers: KeptTileAnswers, activity: ConnectionActivity, maximumHeadBytes: Int, headTimeout: TimeAmount? = nil)
    {
        self.answers = answers
        self.activity = activity
        self.maximumHeadBytes = maximumHeadBytes
        self.headTimeout = headTimeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !passesEverything else { return context.fireChannelRead(data) }
        var bytes = unwrapInboundIn(data)
        if var before = partial {
            partial = nil
            before.writeBuffer(&bytes)
            bytes = before
        }
        defer { timeHead(context) }
        while bytes.readableBytes > 0 {
            guard let headBytes = Self.headLength(bytes) else {
                guard bytes.readableBytes <= maximumHeadBytes, !Self.hasBareLineFeed(bytes) else {
                    return passEverything(bytes, context: context)
                }
                partial = bytes
                return
            }
            let start = DispatchTime.now().uptimeNanoseconds
            let head = bytes.withUnsafeReadableBytes {
                RequestHead(UnsafeRawBufferPointer(rebasing: $0.prefix(headBytes)))
            }
            guard let head, !head.passesConnection else { return passEverything(bytes, context: context) }
            if head.isPlainGet, activity.requestsInProgress == 0, !activity.closesAfterAnswers,
                let answer = onLoop(context).answer(
                    target: head.target, ifNoneMatch: head.ifNoneMatch, origin: head.origin, start: start,
                    allocator: context.channel.allocator)
            {
                bytes.moveReaderIndex(forwardBy: headBytes)
                activity.lastActive = context.eventLoop.now
                if let region = answer.inFile {
                    // The region stays in the file until this write is done.
                    region.willWrite()
                    let written = context.eventLoop.makePromise(of: Void.self)
                    written.futureResult.assumeIsolated().whenComplete { _ in region.didWrite() }
                    context.write(NIOAny(IOData.fileRegion(region.fileRegion)), promise: written)
                } else {
                    context.write(wrapOutboundOut(answer.head), promise: nil)
                    if let body = answer.body { context.write(wrapOutboundOut(body), promise: nil) }
                }
                needsFlush = true
            } else {
                hasPassedOn = true
                context.fireChannelRead(wrapInboundOut(bytes.readSlice(length: headBytes)!))
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        // The handlers after this one are told only of reads that reached them.
        if passesEverything || hasPassedOn {
            hasPassedOn = false
            context.fireChannelReadComplete()
        }
    }

    private func onLoop(_ context: ChannelHandlerContext) -> KeptTileAnswers.OnLoop {
        if let answersOnLoop { return answersOnLoop }
        let answers = answers.onLoop(context.eventLoop)
        answersOnLoop = answers
        return answers
    }

    private func passEverything(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        passesEverything = true
        context.fireChannelRead(wrapInboundOut(bytes))
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headTimer?.cancel()
        headTimer = nil
    }

    /// Starts the head's clock when a head is begun and not read whole, and stops it when none
    /// is: a client that sends part of a head and no more (or one byte at a time) gets 408 and
    /// the connection closed ``headTimeout`` after the head began, as nginx's
    /// `client_header_timeout` does.
    private func timeHead(_ context: ChannelHandlerContext) {
        guard partial != nil, !passesEverything else {
            headTimer?.cancel()
            headTimer = nil
            return
        }
        guard headTimer == nil, let headTimeout else { return }
        headTimer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: headTimeout) { [self] in
            headTimer = nil
            guard partial != nil, !passesEverything, context.channel.isActive else { return }
            partial = nil
            passesEverything = true
            var answer = context.channel.allocator.buffer(capacity: 96)
            answer.writeString("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
            context.writeAndFlush(wrapOutboundOut(answer)).assumeIsolatedUnsafeUnchecked().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    /// Whether `bytes` hold a line feed not preceded by a carriage return: a head whose lines
    /// end in bare LF (which RFC 9112 lets a server accept) is the HTTP decoder's to answer or
    /// refuse, never waited for here (its blank line is never "\r\n\r\n").
    static func hasBareLineFeed(_ bytes: ByteBuffer) -> Bool {
        bytes.withUnsafeReadableBytes { raw in
            var previous: UInt8 = 0
            for byte in raw {
                if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") { return true }
                previous = byte
            }
            return false
        }
    }

    /// The length of the request head at the start of `bytes` up to and with its blank line, or
    /// `nil` when it has not come whole.
    static func headLength(_ bytes: ByteBuffer) -> Int? {
        bytes.withUnsafeReadableBytes { raw -> Int? in
            guard raw.count >= 4 else { return nil }
            var index = 3
            while index < raw.count {
                // Steps of up to 4 bytes: the byte at `index` ends "\r\n\r\n" only if it is "\n".
                switch raw[index] {
                case UInt8(ascii: "\n"):
                    if raw[index - 1] == UInt8(ascii: "\r"), raw[index - 2] == UInt8(ascii: "\n"),
                        raw[index - 3] == UInt8(ascii: "\r")
                    {
                        return index + 1
                    }
                    index += 2
                case UInt8(ascii: "\r"):
                    index += 1
                default:
                    index += 4
                }
            }
            return nil
        }
    }

    /// What the handler reads of a request head: its request line and the few headers that
    /// decide whether it may be answered here.
    struct RequestHead {
        /// Whether it is a `GET` in HTTP/1.1 that may be answered here: no `Connection` other
        /// than `keep-alive`, no `Expect`, header lines of `name: value` only.
        var isPlainGet = true
        /// Whether the HTTP decoder must read the rest of the connection: a body follows
        /// (`Content-Length` or `Transfer-Encoding` is given) or it asks for an `Upgrade`.
        var passesConnection = false
        var target = ""
        var ifNoneMatch: String?
        var origin: String?

        /// Reads the head's bytes (ending in a blank line); `nil` when its request line is not
        /// `METHOD SP TARGET SP HTTP/x.y`.
        init?(_ head: UnsafeRawBufferPointer) {
            var previous: UInt8 = 0
            for byte in head {
                // A line ending in a bare LF: the HTTP decoder's to read.
                if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") { return nil }
                previous = byte
            }
            var lines = Lines(head)
            guard let requestLine = lines.next(),
                let first = requestLine.firstIndex(of: UInt8(ascii: " ")),
                let last = requestLine.lastIndex(of: UInt8(ascii: " ")),
                first > requestLine.startIndex, last > first + 1,
                !requestLine[(first + 1)..<last].contains(UInt8(ascii: " "))
            else { return nil }
            let method = requestLine[..<first]
            let version = requestLine[(last + 1)...]
            guard version.starts(with: "HTTP/".utf8) else { return nil }
            isPlainGet = method.elementsEqual("GET".utf8) && version.elementsEqual("HTTP/1.1".utf8)
            target = String(decoding: requestLine[(first + 1)..<last], as: UTF8.self)
            while let line = lines.next(), !line.isEmpty {
                guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                    line[line.startIndex] != UInt8(ascii: " "), line[line.startIndex] != UInt8(ascii: "\t"),
                    !line.contains(UInt8(ascii: "\n"))
                else {
                    isPlainGet = false
                    continue
                }
                let name = line[..<colon]
                let value = { String(decoding: Self.trimmed(line[(colon + 1)...]), as: UTF8.self) }
                if Self.named(name, "content-length") || Self.named(name, "transfer-encoding")
                    || Self.named(name, "upgrade")
                {
                    passesConnection = true
                } else if Self.named(name, "connection") {
                    if value().lowercased() != "keep-alive" { isPlainGet = false }
                } else if Self.named(name, "expect") {
                    isPlainGet = false
                } else if Self.named(name, "if-none-match") {
                    ifNoneMatch = ifNoneMatch.map { $0 + ", " + value() } ?? value()
                } else if Self.named(name, "origin") {
                    if origin != nil { isPlainGet = false }
                    origin = value()
                }
            }
        }

        /// Whether a header's name is `lowercased`, in any case.
        private static func named(_ name: Slice<UnsafeRawBufferPointer>, _ lowercased: StaticString) -> Bool {
            guard name.count == lowercased.utf8CodeUnitCount else { return false }
            let wanted = UnsafeRawBufferPointer(start: lowercased.utf8Start, count: lowercased.utf8CodeUnitCount)
            return zip(name, wanted).allSatisfy { byte, lower in byte | 0x20 == lower }
        }

        private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
            var bytes = bytes
            while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                bytes = bytes.dropFirst()
            }
            while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                bytes = bytes.dropLast()
            }
            return bytes
        }

        /// A head's lines, split at each "\r\n".
        private struct Lines {
            let bytes: UnsafeRawBufferPointer
            var start = 0

            init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

            mutating func next() -> Slice<UnsafeRawBufferPointer>? {
                var index = start
                while index + 1 < bytes.count {
                    if bytes[index] == UInt8(ascii: "\r"), bytes[index + 1] == UInt8(ascii: "\n") {
                        defer { start = index + 2 }
                        return bytes[start..<index]
                    }
                    index += 1
                }
                return nil
            }
        }
    }
}
