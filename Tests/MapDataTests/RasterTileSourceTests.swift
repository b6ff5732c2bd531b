import Foundation
import ImageCodec
import MBTiles
import MapCore
import MapData
import MapStyle
import MapTestSupport
import PMTiles
import Testing
import TileSources
import TilesetTools
import Tilesets

/// Raster tiles from any tile source: MBTiles and PMTiles files, decoded alike.
struct RasterTileSourceTests {
    @Test func pngAndJPEGTilesDecode() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("imagery.mbtiles")
        let store = try MBTilesStore(url: url, mode: .create)
        let png = try TileID(z: 1, x: 0, y: 0)
        let jpeg = try TileID(z: 1, x: 1, y: 1)
        let opaque = RGBAImage(width: 32, height: 32, filledWith: RGBAPixel(red: 200, green: 100, blue: 50))
        try store.write([png: TileImages.png(for: png), jpeg: opaque.jpegData(quality: 95)])
        try store.writeMetadata(TileMetadata(name: "Imagery", minZoom: 0, maxZoom: 1, attribution: "© Tests"))

        let source = try RasterTileSource(url: url)
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

    /// The same tiles in a PMTiles archive: the same images, the zooms and attribution from its
    /// metadata, whatever the file's name says.
    @Test func aPMTilesFileGivesTheSameImagesAsTheMBTilesFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("imagery.mbtiles")
        let store = try MBTilesStore(url: url, mode: .create)
        let tiles = try [TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 1, y: 1), TileID(z: 2, x: 1, y: 2)]
        try store.write(Dictionary(uniqueKeysWithValues: try tiles.map { ($0, try TileImages.png(for: $0)) }))
        try store.writeMetadata(
            TileMetadata(name: "Imagery", format: .png, minZoom: 1, maxZoom: 2, attribution: "© Tests"))
        let archive = directory.file("imagery-archive.bin")
        try TilesetConversion.convert(TileSourceLocation.file(url).open(), to: directory.file("imagery.pmtiles"))
        try FileManager.default.moveItem(at: directory.file("imagery.pmtiles"), to: archive)

        let mbtiles = try RasterTileSource(url: url)
        let pmtiles = try RasterTileSource(url: archive)
        #expect(pmtiles.tiles is PMTilesReader)
        #expect((pmtiles.minZoom, pmtiles.maxZoom, pmtiles.attribution) == (1, 2, "© Tests"))
        let wanted = tiles + [try TileID(z: 2, x: 0, y: 0), try TileID(z: 0, x: 0, y: 0)]
        let images = try pmtiles.images(for: wanted)
        #expect(images.count == 3)
        #expect(images == (try mbtiles.images(for: wanted)))
        for tile in tiles { #expect(images[tile] == TileImages.image(for: tile), "\(tile)") }
        // A style's `pmtiles://` url opens it too.
        let described = try RasterSource(tiles: try RasterTileLocation(argument: "pmtiles://" + archive.path))
            .makeTileSource()
        #expect(try described.images(for: tiles) == images)
    }

    @Test func theZoomRangeComesFromTheTilesWhenTheMetadataIsSilent() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("silent.mbtiles")
        let store = try MBTilesStore(url: url, mode: .create)
        try store.write([
            try TileID(z: 3, x: 1, y: 1): TileImages.png(for: TileID(z: 3, x: 1, y: 1)),
            try TileID(z: 5, x: 1, y: 1): TileImages.png(for: TileID(z: 5, x: 1, y: 1)),
        ])
        let source = try RasterTileSource(url: url, tileSizePoints: 512)
        #expect((source.minZoom, source.maxZoom) == (3, 5))
        #expect(source.tileSizePoints == 512)
    }

    @Test func vectorTilesAreNotRaster() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("vector.mbtiles")
        try MBTilesStore(url: url, mode: .create).writeMetadata(TileMetadata(name: "Roads", format: .pbf))
        #expect(throws: MapDataError.unsupportedRasterFormat(path: url.path, format: "pbf")) {
            try RasterTileSource(url: url)
        }
    }

    @Test func aTileThatIsNotAnImageNamesTheTileAndFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("broken.mbtiles")
        let tile = try TileID(z: 0, x: 0, y: 0)
        // A PNG signature and nothing after it.
        try MBTilesStore(url: url, mode: .create).write(
            Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), at: tile)
        #expect {
            try RasterTileSource(url: url).images(for: [tile])
        } throws: { error in
            guard case MapDataError.undecodableRasterTile(tile, url.path, _) = error else { return false }
            return "\(error)".hasPrefix("tile 0/0/0 from \(url.path): not a PNG or JPEG image: ")
        }
    }

    @Test func aStyleSourceMakesTheRightTileSource() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("described.mbtiles")
        try MBTilesStore(url: url, mode: .create).writeMetadata(TileMetadata(name: "D", minZoom: 2, maxZoom: 9))
        let file = try RasterSource(tiles: .file(url), tileSize: 256, maxZoom: 6).makeTileSource()
        #expect(file.tiles is MBTilesStore)
        #expect((file.minZoom, file.maxZoom, file.tileSizePoints) == (2, 6, 256))

        let web = try RasterSource(
            tiles: .templates(["https://tiles.example.org/{z}/{x}/{y}.png"]), attribution: "© Web"
        )
        .makeTileSource(configuration: HTTPTileSource.Configuration(cacheDirectory: nil))
        #expect(web.tiles is HTTPTileSource)
        #expect((web.minZoom, web.maxZoom, web.tileSizePoints, web.attribution) == (0, 22, 512, "© Web"))

        #expect(
            throws: MapDataError.invalidRasterSource(
                reason: "the source has neither `tiles` nor an mbtiles:// or pmtiles:// `url`")
        ) {
            try RasterSource().makeTileSource()
        }
    }
}
