import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import ImageCodec
import MapCore
import MapTestSupport
import Synchronization
import Testing

@testable import MapServer

/// Under load a tile is answered from what exists instead of waiting for its render: an older
/// version of it, else the nearest cached parent enlarged, else 503 at once; its render goes on
/// in the background lane.
@Suite struct StandInTests {
    /// Holds the one render thread on the renders of `blocked` metatiles until released.
    final class Gate: Sendable {
        private let blocked = Mutex<Set<MetatileID>>([])
        private let release = DispatchSemaphore(value: 0)
        let held = CallCounter()

        func block(_ metatile: MetatileID) { blocked.withLock { _ = $0.insert(metatile) } }

        func beforeRender(_ metatile: MetatileID) {
            guard blocked.withLock({ $0.contains(metatile) }) else { return }
            held.increment()
            _ = release.wait(timeout: .now() + 120)
        }

        func open() { release.signal() }
    }

    private static func configuration() -> ServerConfiguration {
        var configuration = ServerFixtures.configuration(threads: 1, timeoutSeconds: 600, metatileSize: 1)
        configuration.tileWaitSeconds = 0.2
        return configuration
    }

    /// A server of a one-colour style on one render thread whose render of metatile 5/0/0 waits
    /// for the gate, and the gate.
    private static func heldServer(_ hex: String, folder: TemporaryDirectory) throws -> (MapTileServer, Gate) {
        let gate = Gate()
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle(hex)]), folder: folder,
            configuration: configuration(),
            beforeRender: gate.beforeRender)
        gate.block(MetatileID(containing: try TileID(z: 5, x: 0, y: 0), size: 1))
        return (server, gate)
    }

    /// The render thread is held by a render of `holder`: waits until it is.
    private static func hold(_ client: some TestClientProtocol, _ gate: Gate, holder: String) async throws -> Task<
        Int, any Error
    > {
        let task = Task { try await client.execute(uri: holder, method: .get) { Int($0.status.code) } }
        try await RenderOnDemandTests.waitUntil("the render thread is held") { gate.held.count == 1 }
        return task
    }

    @Test func aTileWhoseRenderCannotStartInTimeIsItsParentEnlarged() async throws {
        let folder = try TemporaryDirectory()
        let (server, gate) = try Self.heldServer("#336699", folder: folder)
        try await ServerFixtures.test(server) { client in
            #expect(try await client.execute(uri: "/styles/plain/1/0/0.png", method: .get) { $0.status } == .ok)
            let holder = try await Self.hold(client, gate, holder: "/styles/plain/5/0/0.png")
            try await client.execute(uri: "/styles/plain/3/1/1.png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[TileRequest.standInHeader] == "parent")
                #expect(response.headers[.cacheControl] == "public, max-age=10")
                let image = try response.image()
                #expect(image.width == 256 && image[x: 128, y: 128] == RGBAPixel(red: 0x33, green: 0x66, blue: 0x99))
            }
            gate.open()
            #expect(try await holder.value == 200)
            // The render went on in the background: the tile itself comes next.
            try await RenderOnDemandTests.waitUntil("the tile is drawn") {
                server.metrics.count("mapwright_renders_total", [("source", "style-plain")]) == 3
            }
            try await client.execute(uri: "/styles/plain/3/1/1.png", method: .get) { response in
                #expect(response.status == .ok && response.headers[TileRequest.standInHeader] == nil)
                #expect(response.headers[.cacheControl] == "public, max-age=600")
            }
        }
        #expect(
            server.metrics.count("mapwright_stand_in_answers_total", [("kind", "parent"), ("source", "style-plain")])
                == 1)
    }

    @Test func withNothingToStandInTheAnswerIs503AtOnce() async throws {
        let folder = try TemporaryDirectory()
        let (server, gate) = try Self.heldServer("#336699", folder: folder)
        try await ServerFixtures.test(server) { client in
            let holder = try await Self.hold(client, gate, holder: "/styles/plain/5/0/0.png")
            try await client.execute(uri: "/styles/plain/0/0/0.png", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "2")
                #expect(response.text == "tile 0/0/0 is not drawn yet: it is queued behind other renders\n")
            }
            #expect(server.pool.queueDepth(.background) == 1, "its render goes on in the background")
            gate.open()
            #expect(try await holder.value == 200)
        }
        #expect(
            server.metrics.count(
                "mapwright_stand_in_answers_total", [("kind", "unavailable"), ("source", "style-plain")]) == 1)
    }

    /// A style edited since the cache was filled: its old tiles stand in for the new ones.
    @Test func anOlderStyleVersionsTileStandsInForTheEditedStyles() async throws {
        let folder = try TemporaryDirectory()
        let red = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#ff0000")]), folder: folder)
        try await ServerFixtures.test(red) { client in
            let status = try await client.execute(uri: "/styles/plain/2/1/1.png", method: .get) { $0.status }
            #expect(status == .ok)
        }
        let (blue, gate) = try Self.heldServer("#0000ff", folder: folder)
        try await ServerFixtures.test(blue) { client in
            let holder = try await Self.hold(client, gate, holder: "/styles/plain/5/0/0.png")
            try await client.execute(uri: "/styles/plain/2/1/1.png", method: .get) { response in
                #expect(response.status == .ok && response.headers[TileRequest.standInHeader] == "stale")
                let image = try response.image()
                #expect(image[x: 10, y: 10] == RGBAPixel(red: 255, green: 0, blue: 0))
            }
            gate.open()
            #expect(try await holder.value == 200)
        }
        #expect(
            blue.metrics.count("mapwright_stand_in_answers_total", [("kind", "stale"), ("source", "style-plain")]) == 1)
    }
}
