import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import RequestHeads

/// A connection of `serve`: HTTP/1.1 as Hummingbird's own `HTTP1Channel` sets it up (NIO's
/// parser with the configured header limits, HTTP types, idle time and graceful-shutdown
/// bookkeeping), plus a ``KeepAliveHandler`` (closed after a request that does not keep it
/// alive: HTTP/1.0 without `keep-alive`), a ``ClientConnectionHandler`` (a client that leaves drops its queued
/// renders) and, first of all, next to the socket, a ``KeptTileByteHandler`` that answers kept
/// tiles from the request's bytes. Idle time and graceful shutdown are kept by our
/// ``ConnectionStateHandler`` in place of Hummingbird's, over one ``ConnectionActivity`` with the
/// byte handler, so that the requests it answers count as the connection's activity.
struct ServeHTTPChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let configuration: ServerConfiguration
    /// The answers of kept tiles; `nil` passes every request to Hummingbird.
    let keptTiles: KeptTileAnswers?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try Self.addHandlers(to: channel, configuration: configuration, keptTiles: keptTiles)
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    /// Adds a connection's handlers (all but Hummingbird's own, last) to `channel`'s pipeline, on
    /// its event loop.
    static func addHandlers(to channel: any Channel, configuration: ServerConfiguration, keptTiles: KeptTileAnswers?)
        throws
    {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = configuration.maximumHeaderBytes
        limits.maxHeaderListSize = configuration.maximumHeaderBytes
        limits.maxHeaderFieldCount = RequestHead.maximumHeaderFieldCount
        let pipeline = channel.pipeline.syncOperations
        try pipeline.configureHTTPServerPipeline(
            withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
            withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
        try pipeline.addHandler(KeepAliveHandler())
        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
        try pipeline.addHandler(ClientConnectionHandler())
        let activity = ConnectionActivity()
        try pipeline.addHandler(
            ConnectionStateHandler(
                activity: activity, idleTimeout: .nanoseconds(Int64(configuration.idleTimeoutSeconds * 1e9))))
        if let keptTiles {
            try pipeline.addHandler(
                KeptTileByteHandler(
                    answers: keptTiles, activity: activity, maximumHeadBytes: configuration.maximumHeaderBytes,
                    headTimeout: .nanoseconds(Int64(configuration.headerTimeoutSeconds * 1e9))),
                position: .first)
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
