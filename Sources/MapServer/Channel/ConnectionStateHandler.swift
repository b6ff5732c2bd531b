import Logging
import NIOCore
import NIOHTTPTypes

/// What a connection is doing, as its idle time and graceful shutdown need to know it: requests
/// read and not yet answered, and when it was last active. Shared by the connection's
/// ``ConnectionStateHandler`` (requests the router answers) and ``KeptTileByteHandler``
/// (requests answered from their bytes, which no later handler sees). Only ever used on the
/// connection's event loop.
final class ConnectionActivity {
    /// Requests whose head has been read and whose answer has not ended.
    var requestsInProgress = 0
    /// Whether a request's head has been read and its end not yet.
    var isRequestBeingRead = false
    /// When the connection last read a request's part or ended an answer, by its event loop's clock.
    var lastActive = NIODeadline.uptimeNanoseconds(0)
    /// Whether the connection closes once the answers in progress are written (graceful shutdown).
    var closesAfterAnswers = false
}

/// A connection's idle time and graceful shutdown, as Hummingbird's `HTTPConnectionStateHandler`
/// keeps them, over a ``ConnectionActivity`` that requests answered before the HTTP decoder
/// (``KeptTileByteHandler``) count in too:
///
/// - a connection with no request in progress and no activity for `idleTimeout` is closed;
/// - on `ChannelShouldQuiesceEvent` (the server stops) a connection with no request in progress
///   is closed at once, one with requests in progress after their answers.
final class ConnectionStateHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let activity: ConnectionActivity
    private let idleTimeout: TimeAmount?
    private var idleTask: Scheduled<Void>?
    private var isActive = false

    /// - Parameter idleTimeout: How long a connection may do nothing; `nil` for ever.
    init(activity: ConnectionActivity, idleTimeout: TimeAmount?) {
        self.activity = activity
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { becomeActive(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleTask?.cancel()
        idleTask = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        becomeActive(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        isActive = false
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        activity.lastActive = context.eventLoop.now
        switch unwrapInboundIn(data) {
        case .head:
            activity.isRequestBeingRead = true
            activity.requestsInProgress += 1
        case .body:
            break
        case .end:
            activity.isRequestBeingRead = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        activity.requestsInProgress -= 1
        activity.lastActive = context.eventLoop.now
        if activity.requestsInProgress == 0, activity.closesAfterAnswers {
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
            return
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        if activity.requestsInProgress > 0 {
            activity.closesAfterAnswers = true
        } else {
            context.close(promise: nil)
        }
    }

    private func becomeActive(_ context: ChannelHandlerContext) {
        guard !isActive else { return }
        isActive = true
        activity.lastActive = context.eventLoop.now
        if let idleTimeout { scheduleIdleCheck(context, at: activity.lastActive + idleTimeout) }
    }

    /// Checks at `deadline` whether the connection has been idle for the whole timeout: closes it
    /// if so, else checks again a timeout after its last activity. A connection answering a
    /// request it has read whole is never idle.
    private func scheduleIdleCheck(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        idleTask = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) { [self] in
            idleTask = nil
            guard isActive, let idleTimeout else { return }
            let now = context.eventLoop.now
            if activity.requestsInProgress > 0, !activity.isRequestBeingRead {
                scheduleIdleCheck(context, at: now + idleTimeout)
            } else if now >= activity.lastActive + idleTimeout {
                context.close(promise: nil)
            } else {
                scheduleIdleCheck(context, at: activity.lastActive + idleTimeout)
            }
        }
    }
}
