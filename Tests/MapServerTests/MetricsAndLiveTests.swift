import Foundation
import HTTPTypes
import HummingbirdTesting
import ImageCodec
import MapServer
import MapTestSupport
import Testing

/// `/metrics` in Prometheus' text format, and the server over real HTTP on loopback.
@Suite struct MetricsAndLiveTests {
    @Test func metricsCountRequestsByRouteAndStatusCacheHitsRendersAndQueueDepth() async throws {
        let folder = try TemporaryDirectory()
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#ff0000")]), folder: folder)
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/styles/plain/0/0/0.png", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/styles/plain/0/0/0.png", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/styles/plain/x/0/0.png", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
                let text = response.text
                #expect(text.contains(#"mapwright_http_requests_total{route="/styles/**",status="200"} 2"#), "\(text)")
                #expect(text.contains(#"mapwright_http_requests_total{route="/styles/**",status="400"} 1"#))
                #expect(text.contains(#"mapwright_tile_cache_misses_total{source="style-plain"} 1"#))
                #expect(text.contains(#"mapwright_tile_cache_hits_total{source="style-plain"} 1"#))
                #expect(text.contains(#"mapwright_renders_total{source="style-plain"} 1"#))
                #expect(text.contains("mapwright_render_seconds_bucket"))
                #expect(text.contains("mapwright_render_seconds_count 1"))
                #expect(text.contains("mapwright_render_queue_depth{lane=\"tiles\"} 0"))
            }
        }
    }

    @Test func theServerAnswersOverRealHTTPOnLoopback() async throws {
        let folder = try TemporaryDirectory()
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#00ff00")]), folder: folder)
        // Requests through plain sockets on threads of their own (`LoopbackSocket.get`), so the
        // whole suite's load cannot time them out as it can the testing client's.
        try await ServerFixtures.test(server, .live) { client in
            let port = try #require(client.port)
            #expect(try await LoopbackSocket.get(port: port, path: "/health").status == 200)
            let tile = try await LoopbackSocket.get(port: port, path: "/styles/plain/1/1/1@2x.png")
            #expect(tile.status == 200)
            let image = try RGBAImage(pngData: tile.body)
            #expect(image.width == 512)
            #expect(image[x: 10, y: 10].green == 255)
            #expect(try await LoopbackSocket.get(port: port, path: "/styles/plain/1/2/1.png").status == 400)
        }
    }
}
