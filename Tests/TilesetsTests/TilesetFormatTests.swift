import Foundation
import MapTestSupport
import Testing
import Tilesets

@Suite struct TilesetFormatTests {
    @Test func extensionsNameTheFormat() throws {
        #expect(try TilesetFormat(path: "a/World.MBTiles") == .mbtiles)
        #expect(try TilesetFormat(path: "b.pmtiles") == .pmtiles)
        #expect(throws: TilesetsError.unknownFormat(path: "c.png")) { try TilesetFormat(path: "c.png") }
    }

    @Test func firstBytesNameTheFormat() throws {
        let folder = try TemporaryDirectory()
        let text = folder.url.appendingPathComponent("notes.mbtiles")
        try Data("hello".utf8).write(to: text)
        #expect(throws: TilesetsError.self) { try TilesetFormat(sniffing: text) }
        let empty = folder.url.appendingPathComponent("empty.pmtiles")
        try Data().write(to: empty)
        #expect(throws: TilesetsError.notATileset(path: empty.path, reason: "the file is empty")) {
            try TilesetFormat(sniffing: empty)
        }
        let pm = folder.url.appendingPathComponent("x.bin")
        try Data("PMTiles\u{3}".utf8).write(to: pm)
        #expect(try TilesetFormat(sniffing: pm) == .pmtiles)
    }
}
