import Foundation
import ImageCodec
import MBTiles
import MapCore
import MapRenderer
import MapStyle
import MapTestSupport
import Testing
import TilesetTools
import Tilesets

/// Raster imagery from a real MBTiles or PMTiles file, drawn by the satellite and hybrid styles.
struct RasterRenderTests {
    /// An MBTiles file of 256-pixel "imagery" for zooms 0 to 4: each tile a flat colour from its
    /// position, with a darker 1-pixel border so a seam or a gap would show.
    private func makeImagery(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("imagery.mbtiles")
        let store = try MBTilesStore(url: url, mode: .create)
        var tiles: [TileID: Data] = [:]
        for z in 0...4 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let base = RGBAPixel(
                        red: UInt8(40 + x * 37 % 160), green: UInt8(90 + y * 53 % 120), blue: UInt8(60 + z * 30),
                        alpha: 255)
                    var image = RGBAImage(width: 256, height: 256, filledWith: base)
                    for i in 0..<256 {
                        for (px, py) in [(i, 0), (0, i)] {
                            image[x: px, y: py] = RGBAPixel(red: 20, green: 30, blue: 20, alpha: 255)
                        }
                    }
                    tiles[try TileID(z: z, x: x, y: y)] = try image.pngData(compressionLevel: 1)
                }
            }
        }
        try store.write(tiles)
        return url
    }

    private func withImagery(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-raster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(try makeImagery(in: directory))
    }

    @Test(arguments: ["satellite", "hybrid"])
    func imageryStylesDrawTheirRasterTiles(style name: String) throws {
        try withImagery { imagery in
            let style = try RenderFixtures.style(name).configuringRasterSources(.file(imagery))
            let viewport = try Viewport(
                center: RenderFixtures.coordinate(45, 10), zoomLevel: 3.5, size: ViewSize(width: 360, height: 240))
            let image = try RenderFixtures.snapshotter.snapshot(MapSnapshotOptions(viewport: viewport, style: style))
                .image
            assertRenderMatches(image, named: "imagery-\(name)")
        }
    }

    /// The same tiles as a PMTiles archive: `--raster-source imagery.pmtiles` draws exactly
    /// what `imagery.mbtiles` draws, pixel for pixel.
    @Test func aPMTilesFileDrawsTheSamePixelsAsTheSameTilesInMBTiles() throws {
        try withImagery { imagery in
            let archive = imagery.deletingLastPathComponent().appendingPathComponent("imagery.pmtiles")
            #expect(try TilesetConversion.convert(TileSourceLocation.file(imagery).open(), to: archive) == 341)
            let viewport = try Viewport(
                center: RenderFixtures.coordinate(45, 10), zoomLevel: 3.5, size: ViewSize(width: 360, height: 240))
            var images: [RGBAImage] = []
            for argument in [imagery.path, archive.path] {
                let style = try RenderFixtures.style("satellite").configuringRasterSources(
                    try RasterTileLocation(argument: argument))
                images.append(
                    try RenderFixtures.snapshotter.snapshot(MapSnapshotOptions(viewport: viewport, style: style)).image)
            }
            #expect(images[0] == images[1])
            // Not an empty map: the imagery's colours are drawn.
            let centre = images[1][x: 180, y: 120]
            #expect(!(centre.red < 15 && centre.green < 15 && centre.blue < 30), "\(centre)")
        }
    }

    @Test func tilesMeetWithoutSeamsAtFractionalZoom() throws {
        try withImagery { imagery in
            let style = try RenderFixtures.style("satellite").configuringRasterSources(.file(imagery))
            // Zoom 3.3 scales 512-point tiles by a fraction: tile edges fall between pixels.
            let viewport = try Viewport(
                center: RenderFixtures.coordinate(20, 30), zoomLevel: 3.3, size: ViewSize(width: 300, height: 300),
                scale: 2)
            let image = try RenderFixtures.snapshotter.snapshot(
                MapSnapshotOptions(viewport: viewport, style: style, showsAttribution: false)
            ).image
            // No pixel shows the dark background: every pixel is covered by a tile.
            for y in stride(from: 0, to: image.height, by: 3) {
                for x in stride(from: 0, to: image.width, by: 3) {
                    let pixel = image[x: x, y: y]
                    #expect(!(pixel.red < 15 && pixel.green < 15 && pixel.blue < 30), "gap at \(x),\(y)")
                }
            }
        }
    }
}
