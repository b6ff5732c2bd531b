public import Hummingbird
import Logging

/// Registers a handler run once when a request's client goes away (at once if it has), and
/// returns a function that forgets it.
typealias DisconnectHook = @Sendable (@escaping @Sendable () -> Void) async -> @Sendable () -> Void

/// The request context: Hummingbird's core storage, and a way to hear that the client went away
/// (see ``ClientConnection``), so a render nobody waits for any more is dropped.
public struct ServeRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Registers a handler run when the request's client goes away. The connection is looked up
    /// only when a render is about to wait, never for requests answered without one.
    let onClose: DisconnectHook

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        let channel = source.channel
        onClose = { handler in
            guard let connection = await ClientConnectionHandler.connection(of: channel) else { return {} }
            return connection.whenGone(handler)
        }
    }
}
