import Foundation
import ImageCodec
import MapCore
import MapStyle
import MapTestSupport
import RasterTiles
import Testing
import TileStore

struct MBTilesRasterSourceTests {
    @Test func pngAndJPEGTilesDecode() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("imagery.mbtiles")
        let store = try MBTilesStore(url: url, mode: .create)
        let png = try TileID(z: 1, x: 0, y: 0), jpeg = try TileID(z: 1, x: 1, y: 1)
        let opaque = RGBAImage(width: 32, height: 32, filledWith: RGBAPixel(red: 200, green: 100, blue: 50))
        try store.write([png: TileImages.png(for: png), jpeg: opaque.jpegData(quality: 95)])
        try store.writeMetadata(MBTilesMetadata(name: "Imagery", minZoom: 0, maxZoom: 1, attribution: "© Tests"))

        let source = try MBTilesRasterSource(url: url)
        #expect(source.tileSizePoints == 256)
        #expect((source.minZoom, source.maxZoom) == (0, 1))
        #expect(source.attribution == "© Tests")
        let images = try source.images(for: [png, jpeg, TileID(z: 1, x: 1, y: 0), TileID(z: 2, x: 0, y: 0)])
        #expect(images.count == 2)
        #expect(images[png] == TileImages.image(for: png))
        let decoded = try #require(images[jpeg])
        #expect(decoded.size == ImageSize(width: 32, height: 32))
        #expect(abs(Int(decoded[x: 16, y: 16].red) - 200) < 8 && decoded[x: 16, y: 16].alpha == 255)
    }

    @Test func theZoomRangeComesFromTheTilesWhenTheMetadataIsSilent() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("silent.mbtiles")
        let store = try MBTilesStore(url: url, mode: .create)
        try store.write([try TileID(z: 3, x: 1, y: 1): TileImages.png(for: TileID(z: 3, x: 1, y: 1)),
                         try TileID(z: 5, x: 1, y: 1): TileImages.png(for: TileID(z: 5, x: 1, y: 1))])
        let source = try MBTilesRasterSource(url: url, tileSizePoints: 512)
        #expect((source.minZoom, source.maxZoom) == (3, 5))
        #expect(source.tileSizePoints == 512)
    }

    @Test func vectorTilesAreNotRaster() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("vector.mbtiles")
        try MBTilesStore(url: url, mode: .create).writeMetadata(MBTilesMetadata(name: "Roads", format: .pbf))
        #expect(throws: RasterTileError.unsupportedFormat(path: url.path, format: "pbf")) {
            try MBTilesRasterSource(url: url)
        }
    }

    @Test func aTileThatIsNotAnImageNamesTheTileAndFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("broken.mbtiles")
        let tile = try TileID(z: 0, x: 0, y: 0)
        // A PNG signature and nothing after it.
        try MBTilesStore(url: url, mode: .create).write(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), at: tile)
        #expect {
            try MBTilesRasterSource(url: url).images(for: [tile])
        } throws: { error in
            guard case RasterTileError.undecodableTile(tile, url.path, _) = error else { return false }
            return "\(error)".hasPrefix("tile 0/0/0 from \(url.path): not a PNG or JPEG image: ")
        }
    }

    @Test func aStyleSourceMakesTheRightTileSource() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("described.mbtiles")
        try MBTilesStore(url: url, mode: .create).writeMetadata(MBTilesMetadata(name: "D", minZoom: 2, maxZoom: 9))
        let file = try RasterSource(tiles: .mbtiles(url), tileSize: 256, maxZoom: 6).makeTileSource()
        #expect(file is MBTilesRasterSource)
        #expect((file.minZoom, file.maxZoom, file.tileSizePoints) == (2, 6, 256))

        let web = try RasterSource(tiles: .templates(["https://tiles.example.org/{z}/{x}/{y}.png"]), attribution: "© Web")
            .makeTileSource(configuration: HTTPRasterSource.Configuration(cacheDirectory: nil))
        #expect(web is HTTPRasterSource)
        #expect((web.minZoom, web.maxZoom, web.tileSizePoints, web.attribution) == (0, 22, 512, "© Web"))

        #expect(throws: RasterTileError.invalidDescription(reason: "the source has neither `tiles` nor an mbtiles:// `url`")) {
            try RasterSource().makeTileSource()
        }
    }
}
