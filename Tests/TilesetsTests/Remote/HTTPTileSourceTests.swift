import Foundation
import ImageCodec
import MBTiles
import MapCore
import MapTestSupport
import Testing
import TileSources
import Tilesets

/// Tiles fetched over HTTP from a real server on loopback into an MBTiles cache.
struct HTTPTileSourceTests {
    private let tiles: [TileID] = (try? TileID.tiles(covering: .world, zoom: 2)) ?? []

    /// A folder of PNG tiles for zoom 2 except 2/3/3, served on loopback.
    private func makeServer(in directory: TemporaryDirectory, delaySeconds: Double = 0) throws -> LoopbackTileServer {
        let root = directory.file("www")
        try TileImages.writeFolder(tiles.filter { $0.description != "2/3/3" }, to: root)
        return try LoopbackTileServer(serving: root, in: directory, delaySeconds: delaySeconds)
    }

    private func makeSource(
        _ template: String, cache directory: TemporaryDirectory, maximumConcurrentRequests: Int = 6, scale: Double = 1
    ) throws -> HTTPTileSource {
        try HTTPTileSource(
            templates: [template], scale: scale,
            configuration: HTTPTileSource.Configuration(
                maximumConcurrentRequests: maximumConcurrentRequests, timeoutSeconds: 10,
                cacheDirectory: directory.file("Tiles/cache")))
    }

    @Test func fetchedTilesDecodeAndAMissingTileIsAbsent() throws {
        let directory = try TemporaryDirectory()
        let server = try makeServer(in: directory)
        let source = try makeSource("\(server.baseURL)/{z}/{x}/{y}.png", cache: directory)

        let images = try source.images(for: tiles)
        #expect(images.count == 15)
        for tile in tiles where tile.description != "2/3/3" {
            #expect(images[tile] == TileImages.image(for: tile), "tile \(tile)")
        }
        let missing = try TileID(z: 2, x: 3, y: 3)
        #expect(images[missing] == nil)

        // A 404 is not cached: the tile is asked for again, the others are not.
        #expect(try source.images(for: tiles).count == 15)
        #expect(try server.requests().map(\.path).filter { $0 == "/2/3/3.png" }.count == 2)
        #expect(try server.requests().count == 17)
    }

    @Test func cachedTilesNeedNoServer() throws {
        let directory = try TemporaryDirectory()
        let server = try makeServer(in: directory)
        let template = "\(server.baseURL)/{z}/{x}/{y}.png"
        let wanted = Array(tiles.prefix(4))
        let first = try makeSource(template, cache: directory).images(for: wanted)
        #expect(first.count == 4)
        #expect(try server.requests().count == 4)

        // Asked again: answered from the cache, without a request.
        let source = try makeSource(template, cache: directory)
        #expect(try source.images(for: wanted) == first)
        #expect(try server.requests().count == 4)

        // The cache is an MBTiles file in the cache folder, named after the host.
        let cache = try #require(source.cache)
        #expect(cache.url.deletingLastPathComponent().path == directory.file("Tiles/cache").path)
        #expect(cache.url.lastPathComponent.hasPrefix("127.0.0.1-\(server.port)-"))
        #expect(try cache.count() == 4)
        #expect(try cache.metadata().format == .png)
        #expect(try cache.tile(at: wanted[0]) == TileImages.png(for: wanted[0]))

        server.stop()
        #expect(try makeSource(template, cache: directory).images(for: wanted) == first)
    }

    @Test func anUnreachableHostIsReportedOffline() throws {
        let directory = try TemporaryDirectory()
        let server = try makeServer(in: directory)
        server.stop()  // Nothing listens on the port any more.
        let source = try makeSource("\(server.baseURL)/{z}/{x}/{y}.png", cache: directory)
        let tile = try TileID(z: 2, x: 1, y: 2)
        let url = "\(server.baseURL)/2/1/2.png"
        #expect(throws: TilesetsError.offline(url: url, reason: "connection refused")) {
            try source.images(for: [tile])
        }
        #expect(
            "\(TilesetsError.offline(url: url, reason: "connection refused"))"
                == "cannot reach 127.0.0.1:\(server.port): connection refused (offline?) while fetching \(url)")
    }

    @Test func aServerThatDoesNotAnswerInTimeIsReportedOffline() throws {
        let directory = try TemporaryDirectory()
        let server = try makeServer(in: directory, delaySeconds: 3)
        let source = try HTTPTileSource(
            templates: ["\(server.baseURL)/{z}/{x}/{y}.png"],
            configuration: HTTPTileSource.Configuration(timeoutSeconds: 0.5, cacheDirectory: nil))
        #expect(
            throws: TilesetsError.offline(url: "\(server.baseURL)/0/0/0.png", reason: "no answer within 0.5 seconds")
        ) {
            try source.images(for: [TileID(z: 0, x: 0, y: 0)])
        }
    }

    @Test func requestsNameMapwrightInTheUserAgent() throws {
        let directory = try TemporaryDirectory()
        let server = try makeServer(in: directory)
        _ = try makeSource("\(server.baseURL)/{z}/{x}/{y}.png", cache: directory).images(for: Array(tiles.prefix(3)))
        let agents = try server.requests().map(\.userAgent)
        #expect(agents == Array(repeating: HTTPTileSource.defaultUserAgent, count: 3))
        #expect(HTTPTileSource.defaultUserAgent.hasPrefix("Mapwright/"))
    }

    @Test func noMoreRequestsThanTheLimitAreInFlight() throws {
        let directory = try TemporaryDirectory()
        let server = try makeServer(in: directory, delaySeconds: 0.1)
        let source = try makeSource("\(server.baseURL)/{z}/{x}/{y}.png", cache: directory, maximumConcurrentRequests: 3)
        #expect(try source.images(for: tiles).count == 15)
        let requests = try server.requests()
        #expect(requests.count == 16)
        let peak = requests.map(\.active).max() ?? 0
        #expect(peak <= 3)
        #expect(peak >= 2, "requests should overlap; the peak was \(peak)")
    }

    @Test func serverErrorsAreTypedWithTheStatusAndURL() throws {
        let directory = try TemporaryDirectory()
        let server = try makeServer(in: directory)
        let source = try makeSource("\(server.baseURL)/status/503/{z}/{x}/{y}.png", cache: directory)
        let url = "\(server.baseURL)/status/503/0/0/0.png"
        #expect(throws: TilesetsError.httpStatus(url: url, status: 503)) {
            try source.images(for: [TileID(z: 0, x: 0, y: 0)])
        }
        #expect(
            "\(TilesetsError.httpStatus(url: url, status: 503))"
                == "\(url): the server answered HTTP 503 (Service Unavailable)")
    }

    @Test func bytesThatAreNotAnImageAreRejectedAndNotCached() throws {
        let directory = try TemporaryDirectory()
        let root = directory.file("www")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("0/0"), withIntermediateDirectories: true)
        try Data("<html>Sign in to the Wi-Fi</html>".utf8).write(to: root.appendingPathComponent("0/0/0.png"))
        let server = try LoopbackTileServer(serving: root, in: directory)
        let source = try makeSource("\(server.baseURL)/{z}/{x}/{y}.png", cache: directory)
        #expect {
            try source.images(for: [TileID(z: 0, x: 0, y: 0)])
        } throws: { error in
            "\(error)"
                == "\(server.baseURL)/0/0/0.png: the answer is not a tile: it starts with 3C 68 74 6D 6C 3E 53 69"
        }
        #expect(try source.cache?.count() == 0)
    }

    @Test func aCutOffImageIsRejectedAndNotCached() throws {
        let directory = try TemporaryDirectory()
        let root = directory.file("www")
        let tile = try TileID(z: 0, x: 0, y: 0)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("0/0"), withIntermediateDirectories: true)
        let png = try TileImages.png(for: tile)
        try png.prefix(png.count - 20).write(to: root.appendingPathComponent("0/0/0.png"))
        let server = try LoopbackTileServer(serving: root, in: directory)
        let source = try makeSource("\(server.baseURL)/{z}/{x}/{y}.png", cache: directory)
        #expect(throws: TilesetsError.notATile(url: "\(server.baseURL)/0/0/0.png", reason: "the png is cut short")) {
            try source.tiles(at: [tile])
        }
        #expect(try source.cache?.count() == 0)

        // The whole image, once the server has it, is fetched and kept.
        try png.write(to: root.appendingPathComponent("0/0/0.png"))
        #expect(try source.tiles(at: [tile]) == [tile: png])
        #expect(try source.cache?.count() == 1)
    }

    @Test func retinaScaleFetchesTheAt2xTilesIntoTheirOwnCache() throws {
        let directory = try TemporaryDirectory()
        let root = directory.file("www")
        let tile = try TileID(z: 1, x: 1, y: 0)
        try TileImages.writeFolder([tile], to: root)
        try TileImages.writeFolder([tile], to: root, suffix: "@2x")
        let server = try LoopbackTileServer(serving: root, in: directory)
        let template = "\(server.baseURL)/{z}/{x}/{y}{r}.png"
        let standard = try makeSource(template, cache: directory, scale: 1)
        let retina = try makeSource(template, cache: directory, scale: 2)
        #expect(try retina.images(for: [tile]).count == 1)
        #expect(try standard.images(for: [tile]).count == 1)
        #expect(try server.requests().map(\.path) == ["/1/1/0@2x.png", "/1/1/0.png"])
        #expect(standard.cache?.url != retina.cache?.url)
    }

    @Test func tilesOutsideTheZoomRangeAreNotRequested() throws {
        let directory = try TemporaryDirectory()
        let server = try makeServer(in: directory)
        let source = try HTTPTileSource(
            templates: ["\(server.baseURL)/{z}/{x}/{y}.png"], minZoom: 3, maxZoom: 5,
            configuration: HTTPTileSource.Configuration(cacheDirectory: nil))
        #expect(try source.images(for: tiles).isEmpty)
        #expect(try server.requests().isEmpty)
        #expect(source.cache == nil)
    }
}

extension HTTPTileSource {
    /// The tiles' bytes, decoded as PNG.
    fileprivate func images(for tiles: [TileID]) throws -> [TileID: RGBAImage] {
        try self.tiles(at: tiles).mapValues { try RGBAImage(pngData: $0) }
    }
}
