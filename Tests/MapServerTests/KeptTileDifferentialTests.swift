import Foundation
import Hummingbird
import HummingbirdTesting
import MBTiles
import MapCore
import MapTestSupport
import Testing
import TileSources

@testable import MapServer

#if canImport(Glibc)
    import Glibc
#endif

/// The kept-tile fast path (``KeptTileByteHandler``) against the router, over real HTTP on
/// loopback: two servers of the same content and the same kept tile, one answering kept tiles
/// from the request's bytes as `serve` does, one passing every request to the router. For valid,
/// odd and hostile requests (pipelined, split across packets, long headers, absolute-form
/// targets, `Connection` variants, `HEAD`, HTTP/1.0, percent-encoding, `..`, CRLF and bare CR in
/// paths, bare LF, duplicate `Content-Length`, `Transfer-Encoding` with a GET) both send the same
/// bytes but for their `Date` headers: the fast path answers exactly as the router would, or
/// hands the request on.
@Suite struct KeptTileDifferentialTests {
    /// The kept tile's bytes: large enough that an answer asked for often goes to the loop's file.
    private static let tile = Data(
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<4_000).map { UInt8($0 % 251) })

    /// A server of one tileset file `iberia.mbtiles` (zooms 1-2) with its tile 1/0/0 kept in memory.
    private static func server(_ folder: TemporaryDirectory) throws -> MapTileServer {
        let url = folder.url.appendingPathComponent("iberia.mbtiles")
        // Written and closed before it is served: a writer still open when the server opens the
        // file would change it after (its last checkpoint), and the server would read it again.
        do {
            let store = try MBTilesStore(url: url, mode: .create)
            try store.write([try TileID(z: 1, x: 0, y: 0): Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1])])
            try store.writeMetadata(TileMetadata(name: "Iberia", format: .png, minZoom: 1, maxZoom: 2))
        }
        var configuration = ServerFixtures.configuration(corsOrigins: ["https://example.org"])
        configuration.port = 0
        let server = ServerFixtures.server(
            ServerContent(tilesets: [try ServedTileset(url: url)]), folder: folder, configuration: configuration)
        server.memory.insert(
            CachedTile(tile),
            for: MemoryTileKey(source: .tileset("iberia", generation: 0), tile: try TileID(z: 1, x: 0, y: 0)))
        return server
    }

    /// A request's bytes, sent in `parts` (a pause between them: packets split), named for messages.
    struct Exchange: Sendable, CustomTestStringConvertible {
        var name: String
        var parts: [String]
        /// How long to wait for more bytes: 30 s for an exchange the server ends by closing the
        /// connection, 2 s for one it leaves open (after an `Upgrade`, NIO's decoder reads no more).
        var quietSeconds = 30
        var testDescription: String { name }

        init(_ name: String, _ parts: String...) {
            self.name = name
            self.parts = parts
        }

        /// This exchange, ended by the server falling quiet rather than closing.
        func leftOpen() -> Exchange {
            var exchange = self
            exchange.quietSeconds = 2
            return exchange
        }
    }

    private static let kept = "/tilesets/iberia/1/0/0.png"
    private static let health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

    static let exchanges: [Exchange] = [
        Exchange("a kept tile", "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + health),
        Exchange("HEAD", "HEAD \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + health),
        Exchange("HTTP/1.0", "GET \(kept) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n" + health),
        Exchange("pipelined", String(repeating: "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 5) + health),
        Exchange(
            "pipelined behind the router",
            "GET /tilesets/iberia.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                + health),
        Exchange("split in the head", "GET \(kept) HTTP/1.1\r\nHo", "st: 127.0.0.1\r\n\r\n" + health),
        Exchange("split at the blank line", "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r", "\n" + health),
        Exchange(
            "a long header",
            "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: \(String(repeating: "p", count: 8_000))\r\n\r\n"
                + health),
        Exchange(
            "headers past the limit", "GET \(kept) HTTP/1.1\r\nX-Pad: \(String(repeating: "p", count: 20_000))\r\n\r\n"),
        Exchange(
            "100 headers",
            "GET \(kept) HTTP/1.1\r\n" + (1...100).map { "X-\($0): 1\r\n" }.joined() + "\r\n" + health),
        Exchange("101 headers", "GET \(kept) HTTP/1.1\r\n" + (1...101).map { "X-\($0): 1\r\n" }.joined() + "\r\n"),
        Exchange("absolute form", "GET http://127.0.0.1\(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + health),
        Exchange("Connection: close", "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
        Exchange(
            "Connection: keep-alive",
            "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Keep-Alive\r\n\r\n" + health),
        Exchange(
            "Connection: upgrade",
            "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"
        ).leftOpen(),
        Exchange("percent-encoded", "GET /tilesets/%69beria/1/0/%30.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + health),
        Exchange("dots", "GET /tilesets/iberia/../iberia/1/0/0.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + health),
        Exchange("dots out", "GET /tilesets/../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + health),
        Exchange("encoded dots", "GET /tilesets/%2e%2e/iberia/1/0/0.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + health),
        Exchange("a query and a fragment", "GET \(kept)?v=2#top HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + health),
        Exchange(
            "a CORS origin", "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://example.org\r\n\r\n" + health),
        Exchange(
            "another origin", "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://evil.example\r\n\r\n" + health
        ),
        Exchange(
            "two origins",
            "GET \(kept) HTTP/1.1\r\nOrigin: https://example.org\r\nOrigin: https://evil.example\r\n\r\n" + health),
        Exchange("If-None-Match: *", "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: *\r\n\r\n" + health),
        Exchange("a tile not kept", "GET /tilesets/iberia/2/0/0.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + health),
        Exchange("CRLF in the path", "GET \(kept)\r\nX-Injected: 1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        Exchange("a bare CR in the path", "GET \(kept)\rX: 1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        Exchange("a bare CR in a header", "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: 1\rX-B: 2\r\n\r\n"),
        Exchange("a tab in the path", "GET \(kept)\tHTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        Exchange("bare LF", "GET \(kept) HTTP/1.1\nHost: 127.0.0.1\n\n"),
        Exchange("NUL in a header", "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nX: a\u{0}b\r\n\r\n"),
        Exchange(
            "two Content-Lengths",
            "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello"),
        Exchange(
            "Transfer-Encoding with a GET",
            "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + health),
        Exchange("a folded header", "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: one\r\n two\r\n\r\n"),
        Exchange("Expect", "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n\r\n" + health),
        Exchange("lowercase method", "get \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        Exchange("two spaces", "GET  \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + health),
        Exchange("two Hosts", "GET \(kept) HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: example.org\r\n\r\n" + health),
        Exchange("no Host", "GET \(kept) HTTP/1.1\r\n\r\n" + health),
        Exchange("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
    ]

    /// What `exchange` gets from the server at `port`: every byte until the server closes the
    /// connection (each exchange but one ends in a request or an error that closes it), or its
    /// ``Exchange/quietSeconds`` pass without a byte (30 s: the whole suite's load can hold the
    /// servers' threads for seconds).
    private static func answer(port: Int, _ exchange: Exchange) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let socket = try LoopbackSocket(port: port, receiveTimeoutSeconds: exchange.quietSeconds)
                    for (index, part) in exchange.parts.enumerated() {
                        if index > 0 { Thread.sleep(forTimeInterval: 0.1) }
                        try socket.send(part)
                    }
                    var received = Data()
                    while let chunk = socket.receive(), !chunk.isEmpty { received.append(chunk) }
                    continuation.resume(returning: received)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    /// The answer as text without its `Date` headers.
    private static func comparable(_ answer: Data) -> String {
        String(decoding: answer, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
            .filter { !$0.lowercased().hasPrefix("date:") }.joined(separator: "\r\n")
    }

    @Test(arguments: exchanges)
    func theFastPathAnswersAsTheRouterDoes(_ exchange: Exchange) async throws {
        let fastFolder = try TemporaryDirectory()
        let routerFolder = try TemporaryDirectory()
        let fast = try Self.server(fastFolder)
        let router = try Self.server(routerFolder)
        defer {
            fast.shutdown()
            router.shutdown()
        }
        try await ServerFixtures.application(fast).test(.live) { fastClient in
            try await ServerFixtures.application(router, keptTiles: false).test(.live) { routerClient in
                let fastAnswer = try await Self.answer(port: try #require(fastClient.port), exchange)
                let routerAnswer = try await Self.answer(port: try #require(routerClient.port), exchange)
                #expect(!routerAnswer.isEmpty || exchange.name == "HTTP/2 preface", "the router answered")
                if exchange.name == "a kept tile" {
                    #expect(routerAnswer.range(of: Self.tile) != nil, "the kept tile is answered, not the file's")
                }
                #expect(
                    Self.comparable(fastAnswer) == Self.comparable(routerAnswer),
                    "fast path:\n\(Self.comparable(fastAnswer).prefix(1500))\nrouter:\n\(Self.comparable(routerAnswer).prefix(1500))"
                )
            }
        }
    }
}
