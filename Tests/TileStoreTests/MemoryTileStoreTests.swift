import Foundation
import MapCore
import Testing
import TileStore

struct MemoryTileStoreTests {
    @Test func storesAndReplacesTiles() throws {
        let a = try TileID(z: 1, x: 0, y: 1), b = try TileID(z: 2, x: 3, y: 3)
        let store = MemoryTileStore(tiles: [a: Data([1])])
        store.write([a: Data([2]), b: Data([3])])
        #expect(store.count() == 2)
        #expect(store.tile(at: a) == Data([2]))
        #expect(try store.contains(b))
        #expect(try store.tiles(at: [a, b, TileID(z: 0, x: 0, y: 0)]) == [a: Data([2]), b: Data([3])])
    }
}

struct TileFormatTests {
    @Test func formatsAreRecognisedByTheirFirstBytes() {
        #expect(TileFormat(sniffing: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])) == .png)
        #expect(TileFormat(sniffing: Data([0xFF, 0xD8, 0xFF, 0xE0])) == .jpg)
        #expect(TileFormat(sniffing: Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(TileFormat(sniffing: Data([0x1F, 0x8B, 8])) == .pbf)
        #expect(TileFormat(sniffing: Data("<html>".utf8)) == nil)
        #expect(TileFormat(sniffing: Data()) == nil)
    }

    @Test func metadataSynonymsAreAccepted() {
        #expect(TileFormat(metadataValue: "image/jpeg") == .jpg)
        #expect(TileFormat(metadataValue: "JPG") == .jpg)
        #expect(TileFormat(metadataValue: "application/vnd.mapbox-vector-tile") == .pbf)
        #expect(TileFormat(metadataValue: "image/tiff") == nil)
    }
}
