import Foundation
import Hummingbird
import HummingbirdTesting
import MapCore
import MapServer
import MapTestSupport
import Testing

/// The limits a server facing the network needs, over real HTTP on loopback through the
/// application `mapwright serve` runs: URL length, bodies, header size, idle connections; and
/// warming the cache in the background.
@Suite struct RequestLimitsTests {
    static func application(_ change: (inout ServerConfiguration) -> Void = { _ in }, folder: TemporaryDirectory) throws
        -> (MapTileServer, some ApplicationProtocol)
    {
        var configuration = ServerFixtures.configuration()
        configuration.port = 0
        change(&configuration)
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#3366cc")]), folder: folder,
            configuration: configuration)
        return (server, ServerFixtures.application(server))
    }

    @Test func longURLsAndHugeHeadersAreRefused() async throws {
        let folder = try TemporaryDirectory()
        let (server, application) = try Self.application(folder: folder)
        defer { server.shutdown() }
        try await application.test(.live) { client in
            let long = "/health?x=" + String(repeating: "a", count: 13_000)
            try await client.execute(uri: long, method: .get) { response in
                #expect(response.status == .uriTooLong)
                #expect(response.text == "the URL is 13010 bytes, more than 12288\n")
            }
            // Headers past 16 KiB: the parser refuses them (400, or the connection closed).
            let huge = String(repeating: "b", count: 20_000)
            do {
                try await client.execute(uri: "/health", method: .get, headers: [.init("X-Huge")!: huge]) { response in
                    #expect(response.status == .badRequest)
                }
            } catch {
                // The connection was closed: refused all the same (the test client has one
                // connection, so nothing is asked after this).
            }
        }
    }

    @Test func aBodyIsRefusedWith413() async throws {
        // The server answers before reading the body and may close the connection while the
        // client still sends it; on a busy machine the client then fails to write. Each try
        // is a connection of its own; one must get the answer.
        var answered = false
        for _ in 0..<5 where !answered {
            let folder = try TemporaryDirectory()
            let (server, application) = try Self.application(folder: folder)
            defer { server.shutdown() }
            answered = try await application.test(.live) { client in
                do {
                    return try await client.execute(uri: "/health", method: .post, body: ByteBuffer(string: "hello")) {
                        response in
                        #expect(response.status == .contentTooLarge)
                        #expect(response.text == "the request body is 5 bytes; at most 0 are accepted\n")
                        return true
                    }
                } catch {
                    return false
                }
            }
        }
        #expect(answered, "a request with a body got its 413")
    }

    @Test func anIdleConnectionIsClosed() async throws {
        let folder = try TemporaryDirectory()
        let (server, application) = try Self.application({ $0.idleTimeoutSeconds = 0.5 }, folder: folder)
        defer { server.shutdown() }
        try await application.test(.live) { client in
            let port = try #require(client.port)
            // A blocking wait on a thread of its own, timed from the connection to its close: off
            // serve's event loops (blocking the loop that owns the connection would keep its idle
            // timer from firing) and off the cooperative pool, which the whole suite's synchronous
            // tests can hold for seconds.
            let (closed, elapsed) = try await withCheckedThrowingContinuation { continuation in
                Thread {
                    let start = Date()
                    do {
                        let closed = try Self.waitForClose(port: port, timeoutSeconds: 10)
                        continuation.resume(returning: (closed, Date().timeIntervalSince(start)))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }.start()
            }
            #expect(closed, "the server closed a connection that sent nothing")
            #expect(elapsed >= 0.4 && elapsed < 8, "closed after \(elapsed) s")
        }
    }

    /// A request whose lines end in bare LF (RFC 9112 lets a server accept it; NIO's parser
    /// refuses it) is answered at once, as the HTTP decoder answers it, and the connection
    /// closed: it waited for a "\r\n\r\n" that never came, without an answer, even `/health`.
    @Test(arguments: [
        "GET /health HTTP/1.1\nHost: 127.0.0.1\n\n", "GET /health HTTP/1.1\r\nHost: 127.0.0.1\n\n",
        "GET /health HTTP/1.1\nHost: 127.0.0.1\r\n\r\n",
    ])
    func aRequestWithBareLineFeedsIsAnsweredAtOnce(request: String) async throws {
        let folder = try TemporaryDirectory()
        let (server, application) = try Self.application(folder: folder)
        defer { server.shutdown() }
        try await application.test(.live) { client in
            let port = try #require(client.port)
            let received = try await LoopbackSocket.exchange(port: port, request, timeoutSeconds: 10) { _ in false }
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400 "), "\(text)")
        }
    }

    /// A head begun and not finished (a client that stops half-way, or trickles it) gets 408
    /// and the connection closed once the header timeout has passed, however its bytes come.
    @Test func aHeadNotFinishedInTimeGets408() async throws {
        let folder = try TemporaryDirectory()
        let (server, application) = try Self.application({ $0.headerTimeoutSeconds = 0.5 }, folder: folder)
        defer { server.shutdown() }
        try await application.test(.live) { client in
            let port = try #require(client.port)
            let (answer, elapsed) = try await withCheckedThrowingContinuation { continuation in
                Thread {
                    do {
                        let socket = try LoopbackSocket(port: port, receiveTimeoutSeconds: 10)
                        let start = Date()
                        try socket.send("GET /health HTTP/1.1\r\n")
                        Thread.sleep(forTimeInterval: 0.2)
                        try socket.send("Host: 127.")
                        var received = Data()
                        while let part = socket.receive(), !part.isEmpty { received += part }
                        continuation.resume(returning: (received, Date().timeIntervalSince(start)))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }.start()
            }
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(text)")
            #expect(elapsed >= 0.45 && elapsed < 8, "answered after \(elapsed) s, from the head's first byte")
        }
    }

    /// An HTTP/1.0 request without `Connection: keep-alive` is answered and its connection closed,
    /// as ApacheBench (without `-k`) and other HTTP/1.0 clients wait for; with `keep-alive` it is
    /// told so and the connection answers the next request too. It stayed open, unannounced.
    @Test func http10ClosesUnlessKeptAlive() async throws {
        let folder = try TemporaryDirectory()
        let (server, application) = try Self.application(folder: folder)
        defer { server.shutdown() }
        try await application.test(.live) { client in
            let port = try #require(client.port)
            let start = Date()
            let closed = try await LoopbackSocket.exchange(
                port: port, "GET /health HTTP/1.0\r\n\r\n", timeoutSeconds: 20
            ) { _ in false }
            let text = String(decoding: closed, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 ") && text.hasSuffix("ok\n"), "\(text)")
            #expect(text.lowercased().contains("connection: close"), "\(text)")
            #expect(Date().timeIntervalSince(start) < 10, "closed after the answer, not by the idle timeout")
            let kept = try await LoopbackSocket.exchange(
                port: port,
                "GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /health HTTP/1.1\r\nConnection: close\r\n\r\n",
                timeoutSeconds: 20
            ) { _ in false }
            let keptText = String(decoding: kept, as: UTF8.self)
            #expect(keptText.components(separatedBy: "HTTP/1.1 200 ").count == 3, "\(keptText)")
            #expect(keptText.lowercased().contains("connection: keep-alive"), "\(keptText)")
        }
    }

    /// Connects, sends nothing, and waits for the server to close the connection.
    static func waitForClose(port: Int, timeoutSeconds: Int) throws -> Bool {
        let socket = try LoopbackSocket(port: port, receiveTimeoutSeconds: timeoutSeconds)
        return socket.receive(maximumBytes: 1)?.isEmpty == true
    }

    @Test func warmingRendersEveryMetatileOfTheZoomsIntoTheCacheOnce() async throws {
        let folder = try TemporaryDirectory()
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#3366cc")]), folder: folder,
            configuration: ServerFixtures.configuration(metatileSize: 2))
        // Metatiles of 2 × 2 tiles: 1 at zoom 0, 1 at zoom 1, 4 at zoom 2, 16 at zoom 3.
        #expect(await server.warmCache(zooms: 0...3) == 22)
        #expect(server.metrics.count("mapwright_renders_total", [("source", "style-plain")]) == 22)
        #expect(await server.warmCache(zooms: 0...3) == 0, "cached metatiles are skipped")
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/styles/plain/3/7/5.png", method: .get) { #expect($0.status == .ok) }
        }
        #expect(server.metrics.count("mapwright_tile_cache_hits_total", [("source", "style-plain")]) == 1)
        #expect(server.metrics.count("mapwright_renders_total", [("source", "style-plain")]) == 22)
    }
}
