import Foundation
import Hummingbird
import HummingbirdTesting
import MapComposer
import MapCore
import MapRenderer
import MapTestSupport
import MapUtilities
import PhotoSources
import Synchronization
import Testing

@testable import MapServer

/// A served photo library that changes: the server's watch serves the new photos, exactly the
/// overlay tiles the change touches leave the caches (counted), and every tile served after the
/// change equals what a server started on the new photos renders.
@Suite(.serialized) struct PhotoFeedTests {
    /// Photos that a test changes, with a version that moves on each change.
    final class Library: Sendable {
        let state: Mutex<(version: Int64, photos: [Photo])>
        init(_ photos: [Photo]) { state = Mutex((1, photos)) }
        func change(_ body: (inout [Photo]) -> Void) {
            state.withLock {
                body(&$0.photos)
                $0.version += 1
            }
        }
        var photos: [Photo] { state.withLock { $0.photos } }
    }

    /// Forty seeded photos of three photographers around Lisbon, within about 30 km.
    static func photos() throws -> [Photo] {
        var random = SeededGenerator(seed: 7)
        return try (0..<40).map { index in
            Photo(
                id: "p\(index)", title: "Photo \(index)",
                coordinate: try Coordinate(
                    latitude: 38.72 + Double.random(in: -0.25...0.25, using: &random),
                    longitude: -9.14 + Double.random(in: -0.3...0.3, using: &random)),
                photographer: ["Ana", "Rui", "Zé"][index % 3])
        }
    }

    /// A server of the library's photos, watching it for changes unless `watched` is false;
    /// `checks` counts the times the library's version is asked.
    static func server(_ library: Library, folder: TemporaryDirectory, watched: Bool = true, checks: CallCounter? = nil)
        throws -> MapTileServer
    {
        let style = try ServerFixtures.colourStyle("#ffffff")
        let builder = PhotoMapBuilder(data: style.data)
        let content: @Sendable ([Photo]) throws -> (overlay: ServedOverlay, photos: ServedPhotos) = { photos in
            let request = PhotoMapRequest(photos: photos, style: style.style, size: ViewSize(width: 256, height: 256))
            let overlay = ServedOverlay(style: style.style, data: style.data, contentHash: "library") { scale in
                var scaled = request
                scaled.scale = Double(scale)
                return try builder.tileContent(for: scaled)
            }
            return (overlay, ServedPhotos(request: request))
        }
        let (overlay, served) = try content(library.photos)
        let feed = PhotoFeed(
            version: {
                checks?.increment()
                return library.state.withLock { $0.version }
            }, photos: { library.photos }, content: content,
            loadedVersion: library.state.withLock { $0.version })
        return ServerFixtures.server(
            ServerContent(styles: [style], overlay: overlay, photos: served, photoFeed: watched ? feed : nil),
            folder: folder)
    }

    /// The overlay's 256-point tiles at zooms 0 to 12 over the photos' area.
    static func tiles() throws -> [TileID] {
        let area = try CoordinateRegion(
            center: Coordinate(latitude: 38.72, longitude: -9.14),
            span: CoordinateSpan(latitudeDelta: 0.7, longitudeDelta: 0.8))
        return try (0...12).flatMap { zoom in try TileID.tiles(covering: area, zoom: zoom) }
    }

    /// Waits until the server's library watch has applied the library's version (at most 60 s).
    static func waitForTheWatch(_ server: MapTileServer, _ library: Library) async throws {
        let version = library.state.withLock { $0.version }
        let deadline = Date().addingTimeInterval(60)
        while server.appliedPhotoVersion.withLock({ $0 }) != version {
            try #require(Date() < deadline, "the watch did not apply version \(version)")
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    static let key = TileCacheKey(
        source: "overlay-photos", contentHash: "library", tileSizePoints: 256, scale: 1, isOverlay: true)

    @Test(arguments: ["added", "moved", "removed"])
    func aChangeInvalidatesExactlyTheTilesItTouches(change: String) async throws {
        let library = Library(try Self.photos())
        let folder = try TemporaryDirectory()
        let server = try Self.server(library, folder: folder)
        let tiles = try Self.tiles()
        let (invalidated, after) = try await ServerFixtures.test(server) { client in
            for tile in tiles {
                let response = try await client.execute(
                    uri: "/overlays/photos/\(tile.z)/\(tile.x)/\(tile.y).png", method: .get)
                #expect(response.status == .ok)
            }
            try server.cache.flush()
            #expect(try tiles.allSatisfy { try server.cache.tile($0, key: Self.key) != nil })
            let lisbon = try Coordinate(latitude: 38.7, longitude: -9.1)
            switch change {
            case "added":
                library.change { $0.append(Photo(id: "new", title: "New", coordinate: lisbon, photographer: "Ana")) }
            case "moved": library.change { $0[5].coordinate = lisbon }
            default: library.change { $0.remove(at: 5) }
            }
            // The watch serves the change within its interval; requests do not wait for it.
            try await Self.waitForTheWatch(server, library)
            let annotations = try await client.execute(
                uri: "/annotations.json?bbox=-10,38,-8,39.5&zoom=20", method: .get)
            let features = try #require(try annotations.json()["features"] as? [Any])
            #expect(features.count == library.photos.count)
            let gone = try tiles.filter { try server.cache.tile($0, key: Self.key) == nil }
            var after: [TileID: Data] = [:]
            for tile in tiles {
                after[tile] = try await client.execute(
                    uri: "/overlays/photos/\(tile.z)/\(tile.x)/\(tile.y).png", method: .get
                ).data
            }
            return (Set(gone), after)
        }
        // A server started on the new photos renders every tile as the changed server serves it.
        let freshFolder = try TemporaryDirectory()
        let fresh = try Self.server(Library(library.photos), folder: freshFolder)
        let expected = try await ServerFixtures.test(fresh) { client in
            var expected: [TileID: Data] = [:]
            for tile in tiles {
                expected[tile] = try await client.execute(
                    uri: "/overlays/photos/\(tile.z)/\(tile.x)/\(tile.y).png", method: .get
                ).data
            }
            return expected
        }
        let stale = tiles.filter { after[$0] != expected[$0] }
        #expect(stale.isEmpty, "\(change): \(stale.count) tiles served stale: \(stale.prefix(5))")
        // Exactly the touched tiles left: some at every zoom the pin is drawn at, few in all.
        print("\(change): \(invalidated.count) of \(tiles.count) tiles invalidated")
        #expect(!invalidated.isEmpty)
        #expect(invalidated.count < tiles.count / 3, "\(invalidated.count) of \(tiles.count)")
        #expect(Set(invalidated.map(\.z)).isSuperset(of: 8...12), "\(Set(invalidated.map(\.z)).sorted())")
    }

    /// Photos that may change at the same URLs are sent `no-cache` with their ETag: a browser asks
    /// again each time (a cheap 304 while nothing changed) and sees a change at once. Basemap
    /// tiles keep their max-age; without a feed, overlay tiles do too.
    @Test func aWatchedLibrarysOverlayAndAnnotationsAreRevalidated() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.server(Library(try Self.photos()), folder: folder)
        try await ServerFixtures.test(server) { client in
            for uri in [
                "/overlays/photos/8/121/98.png", "/overlays/photos/512/8/121/98@2x.png",
                "/annotations.json?bbox=-10,38,-8,39.5&zoom=10",
            ] {
                let first = try await client.execute(uri: uri, method: .get) { $0 }
                #expect(first.status == .ok, "\(uri)")
                #expect(first.headers[.cacheControl] == "no-cache", "\(uri)")
                let tag = try #require(first.headers[.eTag])
                try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: tag]) { response in
                    #expect(response.status == .notModified, "\(uri)")
                    #expect(response.headers[.cacheControl] == "no-cache", "\(uri)")
                }
            }
            let basemap = try await client.execute(uri: "/styles/plain/0/0/0.png", method: .get) { $0 }
            #expect(basemap.headers[.cacheControl] == "public, max-age=600")
        }
        let fixed = try Self.server(Library(try Self.photos()), folder: try TemporaryDirectory(), watched: false)
        try await ServerFixtures.test(fixed) { client in
            let tile = try await client.execute(uri: "/overlays/photos/8/121/98.png", method: .get) { $0 }
            #expect(tile.headers[.cacheControl] == "public, max-age=600")
        }
    }

    /// Nothing changed (the version moved, the photos did not): no tile leaves the cache.
    @Test func aVersionWithoutChangesKeepsEveryTile() async throws {
        let library = Library(try Self.photos())
        let folder = try TemporaryDirectory()
        let server = try Self.server(library, folder: folder)
        let tiles = try Array(Self.tiles().prefix(40))
        try await ServerFixtures.test(server) { client in
            for tile in tiles {
                _ = try await client.execute(uri: "/overlays/photos/\(tile.z)/\(tile.x)/\(tile.y).png", method: .get)
            }
            try server.cache.flush()
            library.change { _ in }
            try await Self.waitForTheWatch(server, library)
            _ = try await client.execute(uri: "/annotations.json?bbox=-10,38,-8,39.5&zoom=10", method: .get)
            #expect(try tiles.allSatisfy { try server.cache.tile($0, key: Self.key) != nil })
        }
    }

    /// The library is checked by a service while the server runs, not by requests, and the
    /// checks stop when the server shuts down: none comes after.
    @Test func theWatchStopsWithTheServer() async throws {
        let checks = CallCounter()
        let server = try Self.server(Library(try Self.photos()), folder: try TemporaryDirectory(), checks: checks)
        try await ServerFixtures.test(server) { _ in
            let deadline = Date().addingTimeInterval(60)
            while checks.count < 3 {
                try #require(Date() < deadline, "the library was checked \(checks.count) times")
                try await Task.sleep(nanoseconds: 10_000_000)
            }
        }
        let afterShutdown = checks.count
        try await Task.sleep(nanoseconds: 300_000_000)  // 15 check intervals
        #expect(checks.count == afterShutdown)
    }
}
