import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// A connection of `serve`: HTTP/1.1 as Hummingbird's own `HTTP1Channel` sets it up (NIO's
/// parser with the configured header limits, HTTP types, idle time and graceful-shutdown
/// bookkeeping), plus a ``ClientConnectionHandler`` (a client that leaves drops its queued renders)
/// and, last before Hummingbird reads the requests, a ``KeptTileHandler`` that answers kept tiles
/// on the event loop. The kept-tile handler sits after Hummingbird's connection-state handler,
/// so the requests it answers count as the connection's activity and graceful shutdown waits
/// for their answers too.
struct ServeHTTPChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let configuration: ServerConfiguration
    /// The answers of kept tiles; `nil` passes every request to Hummingbird.
    let keptTiles: KeptTileAnswers?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = configuration.maximumHeaderBytes
            limits.maxHeaderListSize = configuration.maximumHeaderBytes
            limits.maxHeaderFieldCount = 100
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(ClientConnectionHandler())
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: .nanoseconds(Int64(configuration.idleTimeoutSeconds * 1e9)), logger: logger))
            if let keptTiles { try pipeline.addHandler(KeptTileHandler(answers: keptTiles)) }
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// `serve`'s connections (``ServeHTTPChannel``) answering kept tiles of `server`, or none
    /// (`keptTiles: false`).
    static func mapwright(server: MapTileServer, serverName: String, keptTiles: Bool = true) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            ServeHTTPChannel(
                responder: responder, configuration: server.configuration,
                keptTiles: keptTiles ? KeptTileAnswers(server: server, serverName: serverName) : nil)
        }
    }
}
