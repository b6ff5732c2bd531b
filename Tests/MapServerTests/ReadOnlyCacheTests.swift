import Foundation
import HTTPTypes
import HummingbirdTesting
import ImageCodec
import MapCore
import MapServer
import MapTestSupport
import Testing

/// A cache that cannot be written (`serve --cache` on a read-only disk): it serves the tiles its
/// files hold, keeps nothing new, and the server answers every other tile by rendering it.
struct ReadOnlyCacheTests {
    @Test func aReadOnlyCacheServesWhatItHoldsAndKeepsNothing() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("cache.mbtiles")
        let style = try ServerFixtures.colourStyle("#336699")
        // Fill the cache through a writable server, then serve it read-only.
        let writable = ServerFixtures.server(ServerContent(styles: [style]), folder: folder)
        try await ServerFixtures.test(writable) { client in
            _ = try await client.execute(uri: "/styles/plain/1/0/0.png", method: .get)
        }
        let key = TileCacheKey(
            source: "style-plain", contentHash: style.contentHash, tileSizePoints: 256, scale: 1, isOverlay: false)
        let cacheFile = TileCache(file: file).fileURL(for: key)
        let bytesBefore = try Data(contentsOf: cacheFile)
        // SQLite may add -wal and -shm files beside a file it reads; no tileset file is added.
        func tilesets() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".mbtiles") }
                .sorted()
        }
        let filesBefore = try tilesets()

        let readOnly = TileCache(file: file, readOnly: true)
        #expect(!readOnly.isWritable)
        #expect(try readOnly.tile(TileID(z: 1, x: 0, y: 0), key: key) != nil)
        let server = MapTileServer(
            configuration: ServerFixtures.configuration(), cache: readOnly, logger: ServerFixtures.logger)
        server.finishStarting(with: ServerContent(styles: [style]))
        try await ServerFixtures.test(server) { client in
            for path in [
                "/styles/plain/1/0/0.png", "/styles/plain/3/2/5.png", "/styles/plain/3/2/5.png",
                "/styles/plain/512/2/1/1@2x.png",
            ] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
                #expect(try response.image().width > 0)
            }
        }
        #expect(server.metrics.count("mapwright_renders_total", [("source", "style-plain")]) >= 2)
        #expect(try Data(contentsOf: cacheFile) == bytesBefore)
        #expect(try tilesets() == filesBefore)
    }
}
