import Foundation
import MapCore
import MapTestSupport
import Testing
import TileSources
import TilesetTools

#if canImport(Glibc)
    import Glibc
#endif

/// `mapwright serve` following its files as a deploy script changes them: a tileset renamed over
/// as soon as `/health` answers, a style file saved while serving, and SIGHUP, which loads
/// everything again at once, as TileServer GL's does. The installed-style binary over real HTTP
/// on loopback, from a folder whose names hold spaces.
@Suite(.serialized) struct ServeReloadTests {
    typealias RunningServer = ServeCommandTests.RunningServer

    /// A one-tile tileset named `name` (its TileJSON's `name`), zooms 0 to `maxZoom`.
    private static func writeTileset(_ name: String, maxZoom: Int, to url: URL) throws {
        let writer = try TilesetWriter(output: url)
        try writer.add([
            try TileID(z: 0, x: 0, y: 0): Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(name.utf8))
        ])
        try writer.finish(
            metadata: TileMetadata(
                name: name, format: .png, bounds: BoundingBox(west: -180, south: -85, east: 180, north: 85),
                minZoom: 0, maxZoom: maxZoom))
    }

    /// A style of one background layer of `colour`.
    private static func style(_ colour: String) -> Data {
        Data(
            #"{"version": 8, "sources": {}, "layers": [{"id": "land", "type": "background", "paint": {"background-color": "\#(colour)"}}]}"#
                .utf8)
    }

    /// Asks `path` until `accept` takes its body, for at most `seconds`; the last body.
    private static func poll(
        _ server: RunningServer, _ path: String, seconds: Double = 60, until accept: (Data) -> Bool
    ) async throws -> Data {
        let deadline = Date().addingTimeInterval(seconds)
        var last = Data()
        while Date() < deadline {
            if let answer = try? await server.get(path), answer.status == 200 {
                last = answer.data
                if accept(last) { return last }
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        return last
    }

    /// A tileset renamed over the served file the moment the server is ready (before its
    /// watcher first looked) is served, TileJSON and tiles, within a few check intervals; it was
    /// served stale for as long as the server ran.
    @Test func aTilesetReplacedAsSoonAsTheServerIsReadyIsServedFromTheNewFile() async throws {
        let folder = try TemporaryDirectory()
        let tiles = folder.url.appendingPathComponent("my tiles")
        try FileManager.default.createDirectory(at: tiles, withIntermediateDirectories: true)
        let served = tiles.appendingPathComponent("world.mbtiles")
        try Self.writeTileset("first", maxZoom: 2, to: served)
        try Self.writeTileset("second", maxZoom: 3, to: folder.url.appendingPathComponent("next.mbtiles"))
        let server = try RunningServer(["--tiles", "my tiles/world.mbtiles"], in: folder.url)
        defer { _ = server.stop() }
        try await server.waitUntilReady()
        #expect(rename(folder.url.appendingPathComponent("next.mbtiles").path, served.path) == 0)
        let json = try await Self.poll(server, "/tilesets/world.json") {
            String(decoding: $0, as: UTF8.self).contains("\"second\"")
        }
        #expect(String(decoding: json, as: UTF8.self).contains("\"second\""), "\(server.standardError)")
        let tile = try await server.get("/tilesets/world/0/0/0.png")
        #expect(tile.data.suffix(6) == Data("second".utf8))
        #expect(server.standardError.contains("the file was replaced"))
    }

    /// A style file saved while serving (another colour) is loaded again: its style.json and its
    /// tiles are the new one's, and the log says why.
    @Test func aStyleFileSavedWhileServingIsServedAsSaved() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("my style.json")
        try Self.style("#3366cc").write(to: file)
        let server = try RunningServer(["--style", "my style.json"], in: folder.url)
        defer { _ = server.stop() }
        try await server.waitUntilReady()
        let before = try await server.get("/styles/my%20style/0/0/0.png")
        #expect(before.status == 200)
        // Saved as an editor saves: written in place.
        try Self.style("#cc3333").write(to: file)
        let json = try await Self.poll(server, "/styles/my%20style/style.json") {
            String(decoding: $0, as: UTF8.self).contains("#cc3333")
        }
        #expect(String(decoding: json, as: UTF8.self).contains("#cc3333"), "\(server.standardError)")
        let after = try await server.get("/styles/my%20style/0/0/0.png")
        #expect(after.status == 200 && after.data != before.data, "the tile is drawn in the new colour")
        #expect(server.standardError.contains("changed: everything served was loaded again"), "\(server.standardError)")
    }

    /// SIGHUP loads everything again at once and the server goes on (its default action would end
    /// the process); SIGTERM then stops it with status 0.
    @Test func sighupLoadsEverythingAgainAndTheServerGoesOn() async throws {
        let folder = try TemporaryDirectory()
        try Self.style("#3366cc").write(to: folder.url.appendingPathComponent("my style.json"))
        let server = try RunningServer(["--style", "my style.json"], in: folder.url)
        try await server.waitUntilReady()
        kill(server.process.processIdentifier, SIGHUP)
        let deadline = Date().addingTimeInterval(60)
        while !server.standardError.contains("SIGHUP: everything served was loaded again"), Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(server.standardError.contains("SIGHUP: everything served was loaded again"), "\(server.standardError)")
        #expect(server.process.isRunning)
        #expect(try await server.get("/styles/my%20style/0/0/0.png").status == 200)
        #expect(server.stop() == 0, "\(server.standardError)")
    }
}
