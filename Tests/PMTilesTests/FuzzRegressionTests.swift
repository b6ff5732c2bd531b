import Foundation
import MapTestSupport
import Testing

@testable import PMTiles

/// Archives that made the reader work or allocate without bound, found while fuzzing
/// (scripts/fuzz/, FuzzPMTiles); kept in Tests/Fixtures/fuzz/FuzzPMTiles/ and read through the
/// API the target calls.
struct FuzzRegressionTests {
    private static let folder = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/fuzz/FuzzPMTiles")

    /// 1,477 bytes: a root directory of 64 entries pointing at one leaf directory of 64 entries
    /// pointing at one of 64 pointing at one of 64 tiles. Walking it visited 64⁴ (16.7 million)
    /// entries and decoded the last leaf 262,144 times; 300 entries a directory (6 KB) would ask
    /// for 8 billion. Found by reading the walk while fuzzing, not by the fuzzer.
    @Test func leafDirectoriesPointedToMoreThanOnceAreRefused() throws {
        let url = Self.folder.appendingPathComponent("leaf-fan-out.pmtiles")
        let reader = try PMTilesReader(url: url)
        #expect(
            throws: PMTilesError.corruptDirectory(
                path: url.path,
                reason:
                    "leaf directories are pointed to more than once: the entries point to more bytes of leaf directories than the 963-byte section holds"
            )
        ) { try reader.entries() }
        // A lookup reads one leaf at each level, and still finds its tile.
        #expect(try reader.entry(holding: 5)?.tileID == 5)
    }

    /// A 127-byte header's tile entry count once reserved up to 64 Mi entries (1.5 GiB) before any
    /// directory was read; the reservation now stops at `maximumReservedEntryCount`.
    @Test func theHeadersEntryCountReservesABoundedArray() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("overstated.pmtiles")
        let bytes = TestArchives.archive(
            root: [PMTilesEntry(tileID: 0, byteOffset: 0, byteCount: 1, runLength: 1)], tileData: [7]
        ) { $0.tileEntryCount = (1 << 26) - 1 }
        try Data(bytes).write(to: url)
        let entries = try PMTilesReader(url: url).entries()
        #expect(entries.count == 1)
        #expect(entries.capacity <= 2 * PMTilesReader.maximumReservedEntryCount)
    }
}
