import Foundation
import MapCore
import Testing
import TileSources

/// The protocol's default behaviour and the format-neutral values every source shares.
struct TileSourceTests {
    /// A source of tiles held in a dictionary: the smallest conformance, for the defaults.
    private struct DictionarySource: TileSource {
        var stored: [TileID: Data]
        var sourceDescription: String { "a dictionary" }
        var fileURL: URL? { nil }
        func tile(at id: TileID) -> Data? { stored[id] }
        func metadata() -> TileMetadata { TileMetadata(name: "dictionary", format: .png, minZoom: 0, maxZoom: 1) }
        func forEachTile(_ body: (TileID, Data) throws -> Void) throws {
            for id in stored.keys.sorted(by: { ($0.z, $0.x, $0.y) < ($1.z, $1.x, $1.y) }) { try body(id, stored[id]!) }
        }
    }

    @Test func severalTilesAtOnceHoldOnlyThoseTheSourceHas() throws {
        let first = try TileID(z: 0, x: 0, y: 0)
        let second = try TileID(z: 1, x: 1, y: 0)
        let absent = try TileID(z: 1, x: 0, y: 1)
        let source: any TileSource = DictionarySource(stored: [first: Data([1]), second: Data([2, 2])])
        let found = try source.tiles(at: [first, absent, second])
        #expect(found == [first: Data([1]), second: Data([2, 2])])
        #expect(try source.tiles(at: []).isEmpty)
        var order: [TileID] = []
        try source.forEachTile { id, _ in order.append(id) }
        #expect(order == [first, second])
        #expect(try source.metadata().maxZoom == 1)
    }

    @Test func formatsAreKnownByTheirFirstBytes() {
        #expect(TileFormat(sniffing: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])) == .png)
        #expect(TileFormat(sniffing: Data([0xFF, 0xD8, 0xFF, 0xE0])) == .jpg)
        #expect(TileFormat(sniffing: Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(TileFormat(sniffing: Data([0x1F, 0x8B, 0x08])) == .pbf)
        #expect(TileFormat(sniffing: Data("<html>".utf8)) == nil)
        #expect(TileFormat(sniffing: Data()) == nil)
        // A WebP header cut short is not WebP.
        #expect(TileFormat(sniffing: Data("RIFF\u{0}\u{0}".utf8)) == nil)
    }

    @Test func formatsAreKnownByTheNamesMetadataGivesThem() {
        #expect(TileFormat(metadataValue: " PNG ") == .png)
        #expect(TileFormat(metadataValue: "image/jpeg") == .jpg)
        #expect(TileFormat(metadataValue: "mvt") == .pbf)
        #expect(TileFormat(metadataValue: "application/x-protobuf") == .pbf)
        #expect(TileFormat(metadataValue: "avif") == nil)
        #expect(
            TileFormat.allCases.map(\.mimeType) == [
                "image/png", "image/jpeg", "image/webp", "application/vnd.mapbox-vector-tile",
            ])
    }
}
