import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MBTiles
import MapCore
import MapTestSupport
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Synchronization
import Testing
import TileSources

@testable import MapServer

/// Tiles kept in memory are answered from the request's bytes (``KeptTileByteHandler``), over
/// real HTTP on loopback, exactly as the router answers them: same status, headers (but `Date`)
/// and bytes, counted under the same route; anything else goes on to the router, in order.
/// The connection's idle time and graceful shutdown count both (``ConnectionStateHandler``),
/// checked on an embedded channel whose clock the test moves.
@Suite struct KeptTileByteHandlerTests {
    /// A responder standing in for the router: counts what reaches it and answers 418.
    private struct Router: HTTPResponder {
        let calls: Calls
        func respond(to request: Request, context: ServeRequestContext) async throws -> Response {
            calls.list.withLock { $0.append(request.uri.description) }
            return Response(status: HTTPResponse.Status(code: 418))
        }
    }

    private final class Calls: Sendable {
        let list = Mutex<[String]>([])
    }

    private func tilesetFile(_ folder: TemporaryDirectory, byte: UInt8) throws -> URL {
        let url = folder.url.appendingPathComponent("iberia.mbtiles")
        let store = try MBTilesStore(url: url, mode: .create)
        try store.write([try TileID(z: 1, x: 0, y: 0): Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, byte])])
        try store.writeMetadata(TileMetadata(name: "Iberia", format: .png, minZoom: 1, maxZoom: 2))
        return url
    }

    private func server(_ folder: TemporaryDirectory, corsOrigins: [String] = ["*"]) throws -> MapTileServer {
        let style = try ServerFixtures.colourStyle("#3366cc")
        var configuration = ServerFixtures.configuration(corsOrigins: corsOrigins)
        configuration.tilesetCheckIntervalSeconds = 0.05
        return ServerFixtures.server(
            ServerContent(
                styles: [style], overlay: try ServerFixtures.overlay(style: style.style),
                tilesets: [try ServedTileset(url: try tilesetFile(folder, byte: 1))]),
            folder: folder, configuration: configuration)
    }

    /// Headers as name: value lines, without `Date`, in order.
    private func headerLines(_ answer: LoopbackSocket.Answer) -> [String] {
        answer.headers.filter { $0.name.lowercased() != "date" }.map { "\($0.name.lowercased()): \($0.value)" }
    }

    @Test func aKeptTileIsAnsweredAsTheRouterAnswersIt() async throws {
        let folder = try TemporaryDirectory()
        let server = try server(folder, corsOrigins: ["https://maps.example.org"])
        let uris = [
            "/styles/plain/2/1/1.png", "/styles/plain/2/1/1@2x.png", "/styles/plain/512/1/0/0.png",
            "/overlays/photos/3/4/2.png", "/tilesets/iberia/1/0/0.png", "/tilesets/iberia/1/0/0.png?v=2",
            "/data/iberia/1/0/0.png",
        ]
        // Over raw sockets with long timeouts: under the whole suite's load the testing client's
        // fixed 20 s has not been enough.
        try await ServerFixtures.test(server, .live) { client in
            let port = try #require(client.port)
            for uri in uris {
                for headers: [(String, String)] in [
                    [], [("Origin", "https://maps.example.org")], [("Origin", "https://elsewhere.example")],
                ] {
                    // The first answer comes through the router (from the cache file or the tileset,
                    // or rendered); the second from memory.
                    server.memory.removeAll()
                    let first = try await LoopbackSocket.request(port: port, path: uri, headers: headers)
                    let kept = try #require(
                        server.memory.tile(try tileRequest(uri, server).memoryKey(server)), "\(uri) is kept")
                    let second = try await LoopbackSocket.request(port: port, path: uri, headers: headers)
                    #expect(first.status == 200 && second.status == 200, "\(uri)")
                    #expect(headerLines(first) == headerLines(second), "\(uri) \(headers)")
                    #expect(first.body == second.body && second.body == kept.data, "\(uri)")
                    let tag = try #require(first.header("ETag"))
                    let notModified = try await LoopbackSocket.request(
                        port: port, path: uri, headers: headers + [("If-None-Match", tag)])
                    #expect(notModified.status == 304 && notModified.body.isEmpty, "\(uri)")
                }
            }
        }
        // Each request counted once, under its route.
        #expect(
            server.metrics.count("mapwright_http_requests_total", [("route", "/styles/**"), ("status", "200")]) == 18)
        #expect(
            server.metrics.count("mapwright_http_requests_total", [("route", "/styles/**"), ("status", "304")]) == 9)
        #expect(
            server.metrics.count("mapwright_http_requests_total", [("route", "/tilesets/**"), ("status", "200")]) == 12)
        #expect(
            server.metrics.count("mapwright_http_requests_total", [("route", "/overlays/**"), ("status", "200")]) == 6)
    }

    @Test func keptTilesNeverReachTheRouterAndEverythingElseDoes() async throws {
        let folder = try TemporaryDirectory()
        let server = try server(folder)
        let tile = try TileID(z: 1, x: 0, y: 0)
        server.memory.insert(
            CachedTile(Data([1, 2, 3])), for: MemoryTileKey(source: .tileset("iberia", generation: 0), tile: tile))
        let calls = Calls()
        let application = Application(
            responder: OnEventLoops(next: Router(calls: calls)),
            server: .mapwright(server: server, serverName: "mapwright"),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)))
        // The servers and this body run on NIO's event loops, as `serve` runs in production, not
        // on the cooperative pool: under the whole suite, synchronous tests hold the pool's two
        // threads for minutes at a time, and with them the servers' request handling and this
        // body. The testing client's one connection, opened when the server starts, was then
        // closed by the server's idle timeout (30 s) before the body's first request ("I/O on
        // closed channel"); and an answer waiting for the pool is waited for past the client's
        // 20 s timeout (its request's future ignores cancellation), for as long as the pool is held.
        // Only the servers' graceful shutdown still waits for the pool (Hummingbird starts it in
        // an unstructured task), which no timeout hangs on.
        try await withTaskExecutorPreference(EventLoopExecutor.shared) {
            try await application.test(.live) { client in
                try await client.execute(uri: "/tilesets/iberia/1/0/0.png", method: .get) { response in
                    #expect(response.status == .ok && response.data == Data([1, 2, 3]))
                }
                for (uri, method, headers) in [
                    ("/tilesets/iberia/1/0/0.png", HTTPRequest.Method.head, HTTPFields()),
                    ("/tilesets/iberia/1/0/0.png?" + String(repeating: "a", count: 13_000), .get, HTTPFields()),
                    ("/tilesets/iberia/2/0/0.png", .get, HTTPFields()),  // not kept
                    ("/tilesets/iberia/1/0/x.png", .get, HTTPFields()),  // malformed: the router says why
                    ("/tilesets/other/1/0/0.png", .get, HTTPFields()),
                    ("/tilesets/iberia.json", .get, HTTPFields()),
                    ("/health", .get, HTTPFields()),
                ] {
                    try await client.execute(uri: uri, method: method, headers: headers) { response in
                        #expect(response.status.code == 418, "\(method) \(uri.prefix(60))")
                    }
                }
            }
            #expect(calls.list.withLock { $0.count } == 7)
            // A body, declared or chunked, and a connection to close, as clients send them.
            try await application.test(.live) { client in
                let port = try #require(client.port)
                for extra in [
                    "Content-Length: 0\r\n", "Transfer-Encoding: chunked\r\n\r\n0\r\n", "Connection: close\r\n",
                ] {
                    let received = try await LoopbackSocket.exchange(
                        port: port, "GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)\r\n"
                    ) {
                        $0.range(of: Data("\r\n\r\n".utf8)) != nil
                    }
                    let answer = String(decoding: received, as: UTF8.self)
                    #expect(answer.hasPrefix("HTTP/1.1 418"), "\(extra): \(answer.prefix(100))")
                }
            }
            #expect(calls.list.withLock { $0.count } == 10)
        }
    }

    /// Pipelined requests are answered in order, though a kept tile's answer is ready before the
    /// router's answer to the request ahead of it.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let folder = try TemporaryDirectory()
        let server = try server(folder)
        let tile = try TileID(z: 1, x: 0, y: 0)
        server.memory.insert(
            CachedTile(Data("kept".utf8)), for: MemoryTileKey(source: .tileset("iberia", generation: 0), tile: tile))
        try await ServerFixtures.application(server).test(.live) { client in
            let get = { (path: String) in "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }
            // /health's "ok" ends the last answer.
            let received = try await LoopbackSocket.exchange(
                port: try #require(client.port),
                get("/tilesets/iberia/1/0/0.png") + get("/tilesets/iberia.json") + get("/tilesets/iberia/1/0/0.png")
                    + get("/health")
            ) { String(decoding: $0, as: UTF8.self).hasSuffix("ok\n") }
            let text = String(decoding: received, as: UTF8.self)
            let kept = try #require(text.range(of: "kept"))
            let json = try #require(text.range(of: "\"tilejson\""))
            let secondKept = try #require(text.range(of: "kept", range: kept.upperBound..<text.endIndex))
            #expect(
                kept.lowerBound < json.lowerBound && json.lowerBound < secondKept.lowerBound, "\(text.prefix(2000))")
            #expect(text.components(separatedBy: "HTTP/1.1 200").count - 1 == 4)
        }
    }

    @Test func aTilesetFileWrittenWhileServedIsReadAgain() async throws {
        let folder = try TemporaryDirectory()
        let server = try server(folder)
        let watcher = TilesetWatcher(server: server)
        watcher.check()
        try await ServerFixtures.test(server) { client in
            let before = try await client.execute(uri: "/tilesets/iberia/1/0/0.png", method: .get) { $0.data }
            #expect(before.last == 1)
            // Another writer (an export) changes the tile in the served file.
            let store = try MBTilesStore(url: folder.url.appendingPathComponent("iberia.mbtiles"), mode: .create)
            try store.write([try TileID(z: 1, x: 0, y: 0): Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 2])])
            #expect(
                try await client.execute(uri: "/tilesets/iberia/1/0/0.png", method: .get) { $0.data }.last == 1,
                "kept until checked")
            #expect(watcher.check() == ["iberia"])
            #expect(try await client.execute(uri: "/tilesets/iberia/1/0/0.png", method: .get) { $0.data }.last == 2)
            #expect(watcher.check() == [], "unchanged since")
        }
    }

    /// A tile of `bytes` bytes (a PNG's signature, then bytes that vary), large enough for the
    /// loops' answer files.
    private func largeTile(bytes: Int) -> Data {
        Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
                + (0..<(bytes - 8)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
    }

    @Test func aTileAskedForOftenIsSentWholeFromTheLoopsFile() async throws {
        let folder = try TemporaryDirectory()
        let server = try server(folder)
        let tile = largeTile(bytes: 40_000)
        server.memory.insert(
            CachedTile(tile),
            for: MemoryTileKey(source: .tileset("iberia", generation: 0), tile: try TileID(z: 1, x: 0, y: 0)))
        try await ServerFixtures.application(server).test(.live) { client in
            let port = try #require(client.port)
            // Over new connections (each loop counts its own asks) and over one kept open.
            var answers: [LoopbackSocket.Answer] = []
            for _ in 0..<8 {
                answers.append(try await LoopbackSocket.request(port: port, path: "/tilesets/iberia/1/0/0.png"))
            }
            #expect(
                answers.allSatisfy { $0.status == 200 && $0.body == tile && $0.header("Content-Length") == "40000" })
            #expect(Set(answers.map(headerLines)).count == 1)
            let get = "GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let received = try await LoopbackSocket.exchange(
                port: port, String(repeating: get, count: 12) + "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            ) {
                String(decoding: $0.suffix(3), as: UTF8.self) == "ok\n"
            }
            let bodies = received.ranges(of: Data("\r\n\r\n".utf8)).prefix(12).map {
                received[$0.upperBound...].prefix(tile.count)
            }
            #expect(bodies.count == 12 && bodies.allSatisfy { $0 == tile })
        }
    }

    // MARK: On an embedded channel

    /// The pipeline a connection of `server` has (``ServeHTTPChannel/addHandlers(to:configuration:keptTiles:)``),
    /// active, with `tile` kept: what it passes on arrives at the channel's end as HTTP parts.
    private func connection(_ server: MapTileServer, idleTimeoutSeconds: Double = 30) throws -> EmbeddedChannel {
        server.memory.insert(
            CachedTile(Data("kept".utf8)),
            for: MemoryTileKey(source: .tileset("iberia", generation: 0), tile: try TileID(z: 1, x: 0, y: 0)))
        var configuration = server.configuration
        configuration.idleTimeoutSeconds = idleTimeoutSeconds
        let channel = EmbeddedChannel()
        try ServeHTTPChannel.addHandlers(
            to: channel, configuration: configuration,
            keptTiles: KeptTileAnswers(server: server, serverName: "mapwright"))
        try channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    /// Writes `text` as read from the client, in one read.
    private func read(_ channel: EmbeddedChannel, _ text: String) throws {
        try channel.writeInbound(channel.allocator.buffer(string: text))
    }

    /// Everything written to the client so far, as text.
    private func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    /// The request heads passed on to the router so far, by path.
    private func passedOn(_ channel: EmbeddedChannel) throws -> [String] {
        var paths: [String] = []
        while let part = try channel.readInbound(as: HTTPRequestPart.self) {
            if case .head(let head) = part { paths.append(head.path ?? "") }
        }
        return paths
    }

    @Test func anAnswerAskedForOftenGoesToTheLoopsFileForTheRestOfTheSecond() throws {
        let folder = try TemporaryDirectory()
        let server = try server(folder)
        let channel = try connection(server)
        let tile = largeTile(bytes: 40_000)
        server.memory.insert(
            CachedTile(tile),
            for: MemoryTileKey(source: .tileset("iberia", generation: 0), tile: try TileID(z: 1, x: 0, y: 0)))
        let request = "GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\nHost: example.org\r\n\r\n"
        // Eight in one read: the second turns at most once among them, so four or more are
        // asked in one second, and from the third on they are written from the file.
        try read(channel, String(repeating: request, count: 8))
        var answers: [Data] = []
        var fromFile = 0
        while let written = try channel.readOutbound(as: IOData.self) {
            switch written {
            case .byteBuffer(let buffer):
                // A head starts an answer; its body follows in a buffer of its own.
                if buffer.readableBytesView.starts(with: "HTTP/1.1 ".utf8) || answers.isEmpty {
                    answers.append(Data(buffer.readableBytesView))
                } else {
                    answers[answers.count - 1] += Data(buffer.readableBytesView)
                }
            case .fileRegion(let region):
                fromFile += 1
                var bytes = Data(count: region.readableBytes)
                let read = try region.fileHandle.withUnsafeFileDescriptor { descriptor in
                    bytes.withUnsafeMutableBytes {
                        pread(descriptor, $0.baseAddress, region.readableBytes, off_t(region.readerIndex))
                    }
                }
                #expect(read == region.readableBytes)
                answers.append(bytes)
            }
        }
        #expect(answers.count == 8 && fromFile >= 2)
        let firstHead = try #require(
            answers.first.flatMap { String(decoding: $0, as: UTF8.self).components(separatedBy: "\r\n\r\n").first })
        for answer in answers {
            #expect(answer.suffix(tile.count) == tile && answer.count == firstHead.utf8.count + 4 + tile.count)
            let head = String(decoding: answer.prefix(answer.count - tile.count), as: UTF8.self)
            #expect(
                head.components(separatedBy: "\r\n").filter { !$0.hasPrefix("Date:") }
                    == firstHead.appending("\r\n\r\n").components(separatedBy: "\r\n").filter { !$0.hasPrefix("Date:") }
            )
        }
        #expect(server.answerFileBytes.load(ordering: .relaxed) > 0)
        // The next second's first answer retires them: written, they leave the file.
        let second = time(nil)
        while time(nil) == second { Thread.sleep(forTimeInterval: 0.02) }
        try read(channel, request)
        #expect(try channel.readOutbound(as: IOData.self) != nil)
        #expect(server.answerFileBytes.load(ordering: .relaxed) == 0)
        _ = try channel.finish()
    }

    @Test func requestsAreAnsweredFromTheirBytesWhereverTheReadsSplitThem() throws {
        let folder = try TemporaryDirectory()
        let channel = try connection(try server(folder))
        let request = "GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\nHost: example.org\r\nuser-agent: x\r\n\r\n"
        // Two requests in one read, then one cut at every byte.
        try read(channel, request + request)
        #expect(try written(channel).components(separatedBy: "HTTP/1.1 200 OK\r\n").count == 3)
        for cut in 1..<request.utf8.count {
            let bytes = Array(request.utf8)
            try read(channel, String(decoding: bytes[..<cut], as: UTF8.self))
            try read(channel, String(decoding: bytes[cut...], as: UTF8.self))
            let answer = try written(channel)
            #expect(
                answer.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.hasSuffix("\r\n\r\nkept"), "cut at \(cut): \(answer)")
        }
        // Header names in any case, a tag matched.
        try read(
            channel,
            "GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\nIF-NONE-MATCH: \"other\", \(CachedTile(Data("kept".utf8)).entityTag)\r\n\r\n"
        )
        #expect(try written(channel).hasPrefix("HTTP/1.1 304 Not Modified\r\n"))
        #expect(try passedOn(channel).isEmpty)
        #expect(try channel.finish().isClean)
    }

    @Test func whatIsNotAPlainGetOfAKeptTileGoesToTheRouterInOrder() throws {
        let folder = try TemporaryDirectory()
        let channel = try connection(try server(folder))
        let kept = "GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\n\r\n"
        for (request, path) in [
            ("HEAD /tilesets/iberia/1/0/0.png HTTP/1.1\r\n\r\n", "/tilesets/iberia/1/0/0.png"),
            ("GET /tilesets/iberia/2/0/0.png HTTP/1.1\r\n\r\n", "/tilesets/iberia/2/0/0.png"),
            ("GET /health HTTP/1.1\r\n\r\n", "/health"),
        ] {
            // Passed on, and the kept tile asked for after it too, until the router has answered.
            try read(channel, request + kept)
            #expect(try passedOn(channel) == [path, "/tilesets/iberia/1/0/0.png"], "\(request)")
            #expect(try written(channel).isEmpty, "\(request)")
            for _ in 0..<2 {
                try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: HTTPResponse.Status(code: 418))))
                try channel.writeOutbound(HTTPResponsePart.end(nil))
            }
            #expect(try written(channel).components(separatedBy: "HTTP/1.1 418").count == 3)
            // Answered here again once the router is done.
            try read(channel, kept)
            #expect(try written(channel).hasPrefix("HTTP/1.1 200 OK\r\n"), "after \(request)")
        }
        // Requests after which the connection closes, each on a connection of its own.
        for request in [
            "GET /tilesets/iberia/1/0/0.png HTTP/1.0\r\n\r\n",
            "GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\nConnection: close\r\n\r\n",
        ] {
            let closing = try connection(try server(folder))
            try read(closing, request)
            #expect(try passedOn(closing) == ["/tilesets/iberia/1/0/0.png"], "\(request)")
            #expect(try written(closing).isEmpty, "\(request)")
            _ = try? closing.finish()
        }
        // A body: everything goes to the router from then on.
        try read(channel, "GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\nContent-Length: 2\r\n\r\nab" + kept)
        try read(channel, kept)
        #expect(try passedOn(channel) == Array(repeating: "/tilesets/iberia/1/0/0.png", count: 3))
        #expect(try written(channel).isEmpty)
        _ = try? channel.finish()
    }

    @Test func anIdleConnectionClosesButOneAnsweredFromBytesIsNotIdle() throws {
        let folder = try TemporaryDirectory()
        let channel = try connection(try server(folder), idleTimeoutSeconds: 30)
        let kept = "GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\n\r\n"
        for _ in 0..<4 {
            channel.embeddedEventLoop.advanceTime(by: .seconds(20))
            try read(channel, kept)
        }
        #expect(channel.isActive, "80 s of requests 20 s apart")
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive, "closed 30 s after the last request")
    }

    @Test func gracefulShutdownWaitsForTheAnswersInProgressOnly() throws {
        let folder = try TemporaryDirectory()
        let server = try server(folder)
        // Idle: closed at once.
        let idle = try connection(server)
        try read(idle, "GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\n\r\n")
        idle.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(!idle.isActive)
        // A request the router is answering: closed once its answer is written.
        let busy = try connection(server)
        try read(busy, "GET /health HTTP/1.1\r\n\r\n")
        busy.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(busy.isActive)
        try busy.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        #expect(busy.isActive)
        try busy.writeOutbound(HTTPResponsePart.end(nil))
        #expect(!busy.isActive)
    }

    private func tileRequest(_ uri: String, _ server: MapTileServer) throws -> TileRequest {
        let path = uri.split(separator: "?")[0]
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        return try TileRequest(
            try #require(TileRequest.Kind(rawValue: String(parts.first!))), parts: Array(parts.dropFirst()),
            content: try server.servedContent())
    }
}
