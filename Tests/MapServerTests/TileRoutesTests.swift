import Foundation
import HTTPTypes
import HummingbirdTesting
import ImageCodec
import ImageCompare
import MapCore
import MapRenderer
import MapServer
import MapTestSupport
import NIOCore
import Testing

/// Style and overlay tiles through the router: content, sizes, HTTP caching headers, and the
/// served bytes against the renderer's own.
@Suite struct TileRoutesTests {
    @Test func aStyleTileIsThePNGTheRendererMakesForItsMetatile() async throws {
        let folder = try TemporaryDirectory()
        let style = try ServerFixtures.standardStyle()
        let server = ServerFixtures.server(ServerContent(styles: [style]), folder: folder)
        let served = try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/styles/standard/1/1/0.png", method: .get) { $0 }
        }
        #expect(served.status == .ok)
        #expect(served.headers[.contentType] == "image/png")
        let renderer = try MapTileRenderer(
            data: style.data, style: style.style, options: TileRenderOptions(metatileSize: 2, layers: .basemap))
        let direct = try renderer.encodedTiles(of: try MetatileID(z: 1, x: 0, y: 0, size: 2))
        let expected = try #require(direct.first { $0.tile == (try TileID(z: 1, x: 1, y: 0)) })
        #expect(served.data == expected.data)
        // And pixel for pixel, through the compare engine.
        let difference = try compare(try served.image(), try RGBAImage(pngData: expected.data), options: DiffOptions())
        #expect(difference.differentPixels == 0)
    }

    @Test func retinaAnd512PointTilesHaveTheirPixelSizes() async throws {
        let folder = try TemporaryDirectory()
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#3366cc")]), folder: folder)
        try await ServerFixtures.test(server) { client in
            for (uri, side) in [
                ("/styles/plain/2/1/1.png", 256), ("/styles/plain/2/1/1@2x.png", 512),
                ("/styles/plain/2/1/1@3x.png", 768),
                ("/styles/plain/512/2/1/1.png", 512), ("/styles/plain/512/2/1/1@2x.png", 1024),
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    let image = try response.image()
                    #expect(image.width == side && image.height == side, "\(uri)")
                    #expect(image[x: side / 2, y: side / 2] == RGBAPixel(red: 0x33, green: 0x66, blue: 0xcc), "\(uri)")
                }
            }
        }
    }

    @Test func tilesCarryAStrongETagAndCacheControlAndAnswer304WhenTheETagMatches() async throws {
        let folder = try TemporaryDirectory()
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#ff0000")]), folder: folder)
        try await ServerFixtures.test(server) { client in
            let first = try await client.execute(uri: "/styles/plain/0/0/0.png", method: .get) { $0 }
            let tag = try #require(first.headers[.eTag])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
            #expect(first.headers[.cacheControl] == "public, max-age=600")
            try await client.execute(uri: "/styles/plain/0/0/0.png", method: .get, headers: [.ifNoneMatch: tag]) {
                response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == tag)
            }
            try await client.execute(uri: "/styles/plain/0/0/0.png", method: .get, headers: [.ifNoneMatch: "\"other\""])
            { response in
                #expect(response.status == .ok)
                #expect(response.data == first.data)
            }
        }
    }

    @Test func theOverlayIsTransparentBesidesItsPins() async throws {
        let folder = try TemporaryDirectory()
        let style = try ServerFixtures.standardStyle()
        let server = ServerFixtures.server(
            ServerContent(styles: [style], overlay: try ServerFixtures.overlay(style: style.style)), folder: folder)
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/overlays/photos/0/0/0.png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                let image = try response.image()
                #expect(image[x: 5, y: 250].alpha == 0, "the south-west corner, the Pacific, is empty")
                var opaque = 0
                for y in 0..<image.height {
                    for x in 0..<image.width where image[x: x, y: y].alpha == 255 { opaque += 1 }
                }
                #expect(opaque > 20, "pins are drawn over Europe")
            }
            try await client.execute(uri: "/overlays/photos/0/0/0@2x.png", method: .get) { response in
                let image = try response.image()
                #expect(image.width == 512)
            }
        }
    }

    @Test func withoutPhotosTheOverlayIsNotFound() async throws {
        let folder = try TemporaryDirectory()
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#ff0000")]), folder: folder)
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/overlays/photos/0/0/0.png", method: .get) {
                #expect($0.status == .notFound)
            }
        }
    }
}
