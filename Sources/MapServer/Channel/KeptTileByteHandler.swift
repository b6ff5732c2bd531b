import Dispatch
import NIOCore
import RequestHeads

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
            let start = DispatchTime.now().uptimeNanoseconds
            let head: RequestHead
            let headBytes: Int
            switch RequestHead.next(in: bytes, maximumHeadBytes: maximumHeadBytes) {
            case .partial:
                partial = bytes
                return
            case .passEverything, .head(nil, _):
                return passEverything(bytes, context: context)
            case .head(let read?, let length):
                guard !read.passesConnection else { return passEverything(bytes, context: context) }
                (head, headBytes) = (read, length)
            }
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
}
