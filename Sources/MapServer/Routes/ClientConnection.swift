import NIOCore
import Synchronization

/// One client connection as the routes see it: whether the client has gone away, and what to do
/// when it does. A render queued for a client that then leaves is dropped unrun (see
/// ``MapTileServer/render(_:disconnected:work:)``).
///
/// Hummingbird does not read a connection while a request on it is answered, so closing it is
/// not seen by `closeFuture` until the response is written. ``ClientConnectionHandler`` sees it
/// in the pipeline instead: the end of the client's input (the server allows remote
/// half-closure, so a FIN arrives as `ChannelEvent.inputClosed`) or the connection's end (a reset).
/// A client that half-closes on purpose after sending its request (`shutdown(SHUT_WR)`, rare for
/// HTTP/1.1) counts as gone too, as nginx counts it.
final class ClientConnection: Sendable {
    private struct State {
        var isGone = false
        var nextID: UInt64 = 0
        var handlers: [UInt64: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Whether the client has gone away.
    var isGone: Bool { state.withLock { $0.isGone } }

    /// Runs `handler` once when the client goes away, at once if it has already.
    ///
    /// - Returns: A function that forgets `handler` (call it once the request is answered, so a
    ///   long keep-alive connection does not collect handlers).
    func whenGone(_ handler: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let id: UInt64? = state.withLock { state in
            guard !state.isGone else { return nil }
            state.nextID += 1
            state.handlers[state.nextID] = handler
            return state.nextID
        }
        guard let id else {
            handler()
            return {}
        }
        return { [self] in forget(id) }
    }

    private func forget(_ id: UInt64) {
        _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }

    /// Marks the client gone and runs the handlers waiting for it, once.
    func gone() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isGone else { return [] }
            state.isGone = true
            defer { state.handlers.removeAll() }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }
}

/// The channel handler that tells a connection's ``ClientConnection`` that its client went away:
/// added to every connection's pipeline by ``buildApplication(server:onServerRunning:)``, it
/// passes everything through and watches for `ChannelEvent.inputClosed` and `channelInactive`.
/// Never blocks: the handlers it runs only cancel tasks.
final class ClientConnectionHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    let connection = ClientConnection()

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed? = event as? ChannelEvent { connection.gone() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.gone()
        context.fireChannelInactive()
    }

    /// The ``ClientConnection`` of a channel's pipeline; `nil` when it has no such handler (the
    /// testing client's router mode) or has closed.
    static func connection(of channel: any Channel) async -> ClientConnection? {
        try? await channel.pipeline.handler(type: ClientConnectionHandler.self).map(\.connection).get()
    }
}
