import Hummingbird
import Logging

/// The request context: Hummingbird's core storage, and a way to hear that the client went away
/// (its connection closed), so a render nobody waits for any more is dropped.
public struct ServeRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Registers a handler run when the request's connection closes.
    let onClose: @Sendable (@escaping @Sendable () -> Void) -> Void

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        let closeFuture = source.channel.closeFuture
        onClose = { handler in closeFuture.whenComplete { _ in handler() } }
    }
}
