import Foundation
import MapUtilities
import Testing

@testable import PMTiles

struct PMTilesDirectoryTests {
    @Test func varintsAreLEB128() throws {
        var bytes: [UInt8] = []
        for value: UInt64 in [0, 1, 127, 624_485] { Varint.append(value, to: &bytes) }
        #expect(bytes == [0x00, 0x01, 0x7F, 0xE5, 0x8E, 0x26])
        Varint.append(.max, to: &bytes)
        #expect(bytes.count == 6 + 10)
        var reader = Varint.Reader(bytes: bytes)
        #expect(try (0..<5).map { _ in try reader.next() } == [0, 1, 127, 624_485, .max])
    }

    @Test func varintsLongerThan64BitsAreRefused() {
        // Ten bytes whose last carries more than bit 63.
        var reader = Varint.Reader(bytes: [UInt8](repeating: 0xFF, count: 9) + [0x02])
        #expect(throws: PMTilesDirectory.DecodingFailure(reason: "a number at byte 9 overflows 64 bits")) {
            try reader.next()
        }
        var endless = Varint.Reader(bytes: [UInt8](repeating: 0x80, count: 20))
        #expect(throws: PMTilesDirectory.DecodingFailure.self) { try endless.next() }
        var cut = Varint.Reader(bytes: [0x80])
        #expect(throws: PMTilesDirectory.DecodingFailure(reason: "it ends in the middle of its numbers, after 1 bytes"))
        { try cut.next() }
    }

    @Test func entriesRoundTrip() throws {
        let entries = [
            PMTilesEntry(tileID: 0, byteOffset: 0, byteCount: 10, runLength: 1),
            PMTilesEntry(tileID: 1, byteOffset: 10, byteCount: 20, runLength: 3),
            PMTilesEntry(tileID: 5, byteOffset: 0, byteCount: 10, runLength: 1),
            PMTilesEntry(tileID: 19_078_479, byteOffset: 30, byteCount: 1, runLength: 1),
            PMTilesEntry(tileID: 1 << 60, byteOffset: 1 << 40, byteCount: .max, runLength: .max),
            PMTilesEntry(tileID: 1 << 61, byteOffset: 7, byteCount: 1, runLength: 0),
        ]
        #expect(try PMTilesDirectory.decode(PMTilesDirectory.encode(entries)) == entries)
    }

    @Test func theBytesAreLaidOutColumnByColumn() {
        // Count; id deltas; run lengths; lengths; offsets + 1, or 0 when contiguous.
        let entries = [
            PMTilesEntry(tileID: 5, byteOffset: 0, byteCount: 42, runLength: 1),
            PMTilesEntry(tileID: 42, byteOffset: 42, byteCount: 7, runLength: 2),
            PMTilesEntry(tileID: 69, byteOffset: 0, byteCount: 42, runLength: 1),
        ]
        #expect(PMTilesDirectory.encode(entries) == [3, 5, 37, 27, 1, 2, 1, 42, 7, 42, 1, 0, 1])
        // The first entry's offset is never written as "contiguous", even at 0.
        #expect(
            PMTilesDirectory.encode([PMTilesEntry(tileID: 0, byteOffset: 0, byteCount: 1, runLength: 1)]) == [
                1, 0, 1, 1, 1,
            ])
    }

    @Test func damagedDirectoriesAreRefused() {
        let good = PMTilesDirectory.encode([
            PMTilesEntry(tileID: 3, byteOffset: 0, byteCount: 4, runLength: 1),
            PMTilesEntry(tileID: 9, byteOffset: 4, byteCount: 4, runLength: 1),
        ])
        for length in 0..<good.count {
            #expect(throws: PMTilesDirectory.DecodingFailure.self, "cut to \(length) bytes") {
                try PMTilesDirectory.decode(Array(good.prefix(length)))
            }
        }
        #expect(throws: PMTilesDirectory.DecodingFailure(reason: "it claims 1000000 entries but has only 4 bytes")) {
            try PMTilesDirectory.decode([0xC0, 0x84, 0x3D, 0])
        }
        #expect(
            throws: PMTilesDirectory.DecodingFailure(
                reason: "the first entry's offset is written as following a previous entry")
        ) {
            try PMTilesDirectory.decode([1, 0, 1, 1, 0])
        }
        #expect(throws: PMTilesDirectory.DecodingFailure(reason: "entry 0's length is 4294967296, more than 32 bits")) {
            try PMTilesDirectory.decode([1, 0, 1, 0x80, 0x80, 0x80, 0x80, 0x10, 1])
        }
        // Tile ids whose deltas add up past 64 bits.
        var overflow: [UInt8] = [2]
        Varint.append(.max, to: &overflow)
        Varint.append(1, to: &overflow)
        overflow += [1, 1, 1, 1, 1, 0]
        #expect(throws: PMTilesDirectory.DecodingFailure(reason: "entry 1's tile id overflows 64 bits")) {
            try PMTilesDirectory.decode(overflow)
        }
    }

    @Test func lookupsFindRunsAndLeaves() {
        let tiles = [
            PMTilesEntry(tileID: 3, byteOffset: 3, byteCount: 1, runLength: 2),
            PMTilesEntry(tileID: 5, byteOffset: 5, byteCount: 1, runLength: 2),
            PMTilesEntry(tileID: 100, byteOffset: 9, byteCount: 1, runLength: 1),
        ]
        #expect(PMTilesDirectory.entry(holding: 2, in: tiles) == nil)
        #expect(PMTilesDirectory.entry(holding: 4, in: tiles)?.byteOffset == 3)
        #expect(PMTilesDirectory.entry(holding: 6, in: tiles)?.byteOffset == 5)
        #expect(PMTilesDirectory.entry(holding: 7, in: tiles) == nil)
        #expect(PMTilesDirectory.entry(holding: 100, in: tiles)?.byteOffset == 9)
        #expect(PMTilesDirectory.entry(holding: 101, in: tiles) == nil)
        #expect(PMTilesDirectory.entry(holding: 0, in: []) == nil)
        let leaves = [PMTilesEntry(tileID: 100, byteOffset: 1, byteCount: 1, runLength: 0)]
        #expect(PMTilesDirectory.entry(holding: 150, in: leaves)?.byteOffset == 1)
        #expect(PMTilesDirectory.entry(holding: 99, in: leaves) == nil)
    }

    @Test func aRootTooLargeIsSplitIntoLeaves() throws {
        // 50,000 entries with irregular ids and lengths, a small root limit and small leaves.
        var generator = SystemRandomNumberGenerator()
        var id: UInt64 = 0
        var offset: UInt64 = 0
        let entries = (0..<50_000).map { _ in
            id += UInt64.random(in: 1...40, using: &generator)
            let length = UInt32.random(in: 1...5000, using: &generator)
            defer { offset += UInt64(length) }
            return PMTilesEntry(tileID: id, byteOffset: offset, byteCount: length, runLength: 1)
        }
        let layout = PMTilesDirectory.layout(
            entries, rootLimitBytes: 200, minimumEntriesPerLeaf: 100, compress: Gzip.compress)
        #expect(layout.root.count <= 200)
        #expect(layout.leafCount > 1)
        let root = try PMTilesDirectory.decode(Gzip.decompress(layout.root))
        #expect(root.count == layout.leafCount)
        #expect(root.allSatisfy { $0.isLeafDirectory })
        var decoded: [PMTilesEntry] = []
        for leaf in root {
            let bytes = Array(layout.leaves[Int(leaf.byteOffset)..<Int(leaf.byteOffset) + Int(leaf.byteCount)])
            let entries = try PMTilesDirectory.decode(Gzip.decompress(bytes))
            #expect(entries.first?.tileID == leaf.tileID)
            decoded += entries
        }
        #expect(decoded == entries)
        let unsplit = PMTilesDirectory.layout(Array(entries.prefix(10)), compress: Gzip.compress)
        #expect(unsplit.leafCount == 0 && unsplit.leaves.isEmpty)
    }
}
