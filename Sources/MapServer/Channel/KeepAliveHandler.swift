import NIOCore
import NIOHTTP1

/// Closes a connection after the answer to a request that does not keep it alive, as RFC 9112
/// §9.3 says: an HTTP/1.0 request without `Connection: keep-alive` (ApacheBench without `-k`,
/// old proxies and scripts read until the server closes), or any request with `Connection:
/// close`; and tells an HTTP/1.0 client that keeps it alive so (`Connection: keep-alive`), which
/// it needs to reuse the connection. Sits between NIO's HTTP/1 codec and the conversion to HTTP
/// types, which drops the version. Pipelined requests are answered in order, so their choices
/// are kept in order too.
final class KeepAliveHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// For each request read and not yet answered, in order: its version and whether it keeps
    /// the connection alive.
    private var requests: [(version: HTTPVersion, keepsAlive: Bool)] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            requests.append((head.version, head.isKeepAlive))
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            guard let request = requests.first else { return context.write(data, promise: promise) }
            if !request.keepsAlive {
                head.headers.replaceOrAdd(name: "Connection", value: "close")
            } else if request.version.major == 1, request.version.minor == 0 {
                head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            let keepsAlive = requests.isEmpty ? true : requests.removeFirst().keepsAlive
            guard !keepsAlive else { return context.write(data, promise: promise) }
            let written = promise ?? context.eventLoop.makePromise()
            context.writeAndFlush(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
