import Foundation
import Hummingbird
import HummingbirdTesting
import MapServer
import MapTestSupport
import Testing

/// Every refusal: 400 for malformed addresses with a one-line plain-text reason, 404 for what is
/// not served (including traversal attempts), 503 while starting.
@Suite struct RequestErrorTests {
    private func server(_ folder: TemporaryDirectory) throws -> MapTileServer {
        ServerFixtures.server(ServerContent(styles: [try ServerFixtures.colourStyle("#ff0000")]), folder: folder)
    }

    @Test(arguments: [
        ("/styles/plain/a/0/0.png", "z 'a' is not a whole number"),
        ("/styles/plain/1/x/0.png", "x 'x' is not a whole number"),
        ("/styles/plain/1/0/0x.png", "y '0x' is not a whole number"),
        ("/styles/plain/-1/0/0.png", "z -1 is negative"),
        ("/styles/plain/2/-1/0.png", "x -1 is negative"),
        ("/styles/plain/2/4/0.png", "x 4 is outside the 4 columns of zoom 2"),
        ("/styles/plain/2/0/4.png", "y 4 is outside the 4 rows of zoom 2"),
        ("/styles/plain/25/0/0.png", "zoom 25 is above 24"),
        ("/styles/plain/1/0/0@4x.png", "the scale '@4x' is not @2x or @3x"),
        ("/styles/plain/1/0/0.jpg", "tiles are .png, not .jpg"),
        ("/styles/plain/1/0/0", "the tile '0' has no extension (as in 3.png)"),
        ("/styles/plain/1/0/1.5.png", "tiles are .png, not .5.png"),
    ])
    func malformedAddressesAre400WithTheirReasonInOneLine(uri: String, reason: String) async throws {
        let folder = try TemporaryDirectory()
        try await ServerFixtures.test(try server(folder)) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
                #expect(response.text == reason + "\n", "\(response.text)")
            }
        }
    }

    @Test(arguments: [
        "/styles/other/0/0/0.png", "/styles/plain/21/0/0.png", "/styles/plain/1/0/0/0/0.png", "/styles/", "/tilesets/",
        "/tilesets/..%2F..%2Fetc%2Fpasswd/0/0/0.png", "/tilesets/../../etc/passwd", "/styles/..%2F..%2FPackage.swift",
        "/styles/%2Fetc%2Fpasswd.json", "/etc/passwd", "/Sources/", "/overlays/photos/0/0/0.png", "/nothing",
    ])
    func whatIsNotServedIs404WithoutListingsOrFiles(uri: String) async throws {
        let folder = try TemporaryDirectory()
        try await ServerFixtures.test(try server(folder)) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .notFound, "\(uri)")
                #expect(!response.text.contains("root:"), "no file content")
                #expect(
                    !response.text.contains("swift-tools-version") && !response.text.contains("MapCore"),
                    "no file or listing")
                #expect(response.text.split(separator: "\n").count <= 1, "one line at most")
            }
        }
    }

    @Test func whileStartingHealthAndTilesAre503AndThen200() async throws {
        let folder = try TemporaryDirectory()
        let server = MapTileServer(
            configuration: ServerFixtures.configuration(),
            cache: TileCache(file: folder.url.appendingPathComponent("c.mbtiles")),
            logger: ServerFixtures.logger)
        let style = try ServerFixtures.colourStyle("#00ff00")
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .serviceUnavailable) }
            try await client.execute(uri: "/styles/plain/0/0/0.png", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "2")
            }
            server.finishStarting(with: ServerContent(styles: [style]))
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/styles/plain/0/0/0.png", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func corsAllowsTheConfiguredOriginsAndAnswersPreflight() async throws {
        let folder = try TemporaryDirectory()
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#ff0000")]), folder: folder,
            configuration: ServerFixtures.configuration(corsOrigins: ["https://maps.example.org"]))
        try await ServerFixtures.test(server) { client in
            try await client.execute(
                uri: "/styles/plain/0/0/0.png", method: .get, headers: [.origin: "https://maps.example.org"]
            ) { response in
                #expect(response.headers[.accessControlAllowOrigin] == "https://maps.example.org")
                #expect(response.headers[.vary] == "Origin")
            }
            // Answers differ by Origin, so every one says so, allowed or not, with an Origin or
            // without: a shared cache in front keys them apart.
            for headers: HTTPFields in [[.origin: "https://evil.example"], [:]] {
                try await client.execute(uri: "/styles/plain/0/0/0.png", method: .get, headers: headers) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.accessControlAllowOrigin] == nil)
                    #expect(response.headers[.vary] == "Origin")
                }
            }
            try await client.execute(
                uri: "/styles/plain.json", method: .options, headers: [.origin: "https://maps.example.org"]
            ) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowMethods] == "GET, HEAD, OPTIONS")
            }
        }
        let open = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#ff0000")]), folder: try TemporaryDirectory())
        try await ServerFixtures.test(open) { client in
            try await client.execute(uri: "/index.json", method: .get) { response in
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                #expect(response.headers[.vary] == nil, "the same answer for every origin")
            }
        }
    }

    /// HEAD, which preflight advertises, answers as GET does without the body, on every GET
    /// route and for refusals too: a tile rendered, then kept in memory; JSON; the viewer; /health.
    @Test func headIsAnsweredAsGetWithoutABody() async throws {
        let folder = try TemporaryDirectory()
        try await ServerFixtures.test(try server(folder)) { client in
            for uri in [
                "/styles/plain/0/0/0.png", "/styles/plain/1/0/0@2x.png", "/styles/plain/0/0/0.png", "/index.json",
                "/styles/plain.json", "/health", "/",
            ] {
                let head = try await client.execute(uri: uri, method: .head) { $0 }
                let get = try await client.execute(uri: uri, method: .get) { $0 }
                #expect(head.status == .ok, "\(uri)")
                #expect(head.body.readableBytes == 0, "\(uri): no body")
                #expect(head.headers[.contentLength] == "\(get.body.readableBytes)", "\(uri): GET's length")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(uri)")
                #expect(head.headers[.eTag] == get.headers[.eTag], "\(uri)")
                #expect(head.headers[.accessControlAllowOrigin] == "*", "\(uri)")
            }
            for (uri, status) in [
                ("/styles/plain/x/0/0.png", HTTPResponse.Status.badRequest), ("/styles/nope/0/0/0.png", .notFound),
                ("/nothing", .notFound),
            ] {
                try await client.execute(uri: uri, method: .head) { response in
                    #expect(response.status == status, "\(uri)")
                    #expect(response.body.readableBytes == 0, "\(uri): no body")
                }
            }
        }
    }
}
