import Foundation
import MapCore
import MapTestSupport
import Testing
import TileSources
import Tilesets

/// A folder of tiles named by `file://` templates, opened as any tile source is.
struct FileTemplateTileSourceTests {
    @Test func tilesAreReadFromTheirFilesAndMissingOnesAreAbsent() throws {
        let directory = try TemporaryDirectory()
        let root = directory.file("my tiles")
        let tiles = [try TileID(z: 1, x: 0, y: 0), try TileID(z: 2, x: 3, y: 1)]
        try TileImages.writeFolder(tiles, to: root)
        let source = try TileSourceLocation.templates(["file://\(root.path)/{z}/{x}/{y}.png"], maxZoom: 2).open()
        #expect(source is FileTemplateTileSource)
        #expect(try source.tile(at: tiles[0]) == TileImages.png(for: tiles[0]))
        #expect(try source.tiles(at: tiles + [try TileID(z: 2, x: 0, y: 0)]).count == 2)
        #expect(try source.tile(at: try TileID(z: 3, x: 0, y: 0)) == nil)  // beyond maxZoom: not looked for
        #expect(try source.metadata().maxZoom == 2)
        #expect(source.location(of: tiles[1]) == root.path + "/2/3/1.png")
        #expect(throws: TilesetsError.self) { try source.forEachTile { _, _ in } }

        // TMS rows: {y} counts from the south.
        let tms = try TileSourceLocation.templates(["file://\(root.path)/{z}/{x}/{y}.png"], scheme: .tms).open()
        #expect(try tms.tile(at: try TileID(z: 2, x: 3, y: 2)) == TileImages.png(for: tiles[1]))
    }
}
