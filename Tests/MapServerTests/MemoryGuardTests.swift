import Foundation
import Hummingbird
import HummingbirdTesting
import MapCore
import MapTestSupport
import Synchronization
import Testing

@testable import MapServer

/// With a memory limit, the server lets go of what it keeps for speed near it, and refuses new
/// renders at it (a tile gets its stand-in or 503, an image 503) until memory falls.
@Suite struct MemoryGuardTests {
    @Test func atItsLimitTheServerLetsCachesGoAndRefusesRenders() async throws {
        let folder = try TemporaryDirectory()
        var configuration = ServerFixtures.configuration(threads: 1, metatileSize: 1)
        // Far below any process's resident memory: the guard acts at once.
        configuration.memoryLimitBytes = 1 << 20
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#336699")]), folder: folder,
            configuration: configuration)
        let resident = try await ServerFixtures.test(server) { client in
            #expect(try await client.execute(uri: "/styles/plain/3/1/1.png", method: .get) { $0.status } == .ok)
            #expect(server.memory.usage.tiles == 1)
            let resident = try #require(server.checkMemory())
            #expect(resident > 1 << 20)
            #expect(server.memory.usage.tiles == 0, "the memory cache let its least recently used half go")
            let refuses = server.refusesRendersForMemory.load(ordering: .relaxed)
            #expect(refuses)
            // A tile drawn before is still answered (from the cache file); a new one with nothing
            // to stand in is 503 at once; so is a static map.
            #expect(try await client.execute(uri: "/styles/plain/3/1/1.png", method: .get) { $0.status } == .ok)
            try await client.execute(uri: "/styles/plain/0/0/0.png", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "2")
            }
            try await client.execute(uri: "/styles/plain/static/0,0,1/100x100.png", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.text == "the server is at its memory limit\n")
            }
            return resident
        }
        #expect(server.metrics.count("mapwright_memory_trims_total") == 1)
        #expect(server.metrics.count("mapwright_memory_refusals_total", [("lane", "tiles")]) == 1)
        #expect(server.metrics.count("mapwright_memory_refusals_total", [("lane", "images")]) == 1)
        #expect(server.metrics.exposition().contains("mapwright_resident_memory_bytes \(resident)"))
    }

    @Test func withoutALimitNothingIsRead() throws {
        let folder = try TemporaryDirectory()
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#336699")]), folder: folder)
        defer { server.shutdown() }
        #expect(server.checkMemory() == nil)
        let refuses = server.refusesRendersForMemory.load(ordering: .relaxed)
        #expect(!refuses)
    }
}
