import Foundation
import MapCore
import MapJSON
import MapTestSupport
import MapUtilities
import Testing

@testable import PMTiles

struct PMTilesReaderTests {
    private let tile = try! TileID(z: 1, x: 0, y: 1)

    /// One tile (id 2, `1/0/1`) of four bytes.
    private func oneTileArchive(
        compression: PMTilesHeader.Compression = .gzip,
        metadata: [UInt8] = Array("{}".utf8),
        edit: (inout PMTilesHeader) -> Void = { _ in }
    ) -> [UInt8] {
        TestArchives.archive(
            root: [PMTilesEntry(tileID: 2, byteOffset: 0, byteCount: 4, runLength: 1)],
            metadata: metadata, tileData: [1, 2, 3, 4], compression: compression, edit: edit
        )
    }

    private func write(_ bytes: [UInt8], in directory: TemporaryDirectory, name: String = "test.pmtiles") throws -> URL
    {
        let url = directory.file(name)
        try Data(bytes).write(to: url)
        return url
    }

    private func open(_ bytes: [UInt8], in directory: TemporaryDirectory) throws(PMTilesError) -> PMTilesReader {
        let url: URL
        do { url = try write(bytes, in: directory) } catch { fatalError("cannot write the test file: \(error)") }
        return try PMTilesReader(url: url)
    }

    @Test func uncompressedDirectoriesAndLeavesAreRead() throws {
        let directory = try TemporaryDirectory()
        // A root of two leaves, directories not compressed, as the specification allows.
        let bytes = TestArchives.archive(
            root: [
                PMTilesEntry(tileID: 0, byteOffset: 0, byteCount: 9, runLength: 0),
                PMTilesEntry(tileID: 5, byteOffset: 9, byteCount: 5, runLength: 0),
            ],
            leaves: [
                [
                    PMTilesEntry(tileID: 1, byteOffset: 0, byteCount: 2, runLength: 2),
                    PMTilesEntry(tileID: 3, byteOffset: 2, byteCount: 1, runLength: 1),
                ],
                [PMTilesEntry(tileID: 6, byteOffset: 0, byteCount: 2, runLength: 1)],
            ],
            tileData: [7, 7, 9], compression: .none
        )
        let reader = try open(bytes, in: directory)
        #expect(try reader.tile(at: TileID(z: 1, x: 0, y: 0)) == Data([7, 7]))
        #expect(try reader.tile(at: TileID(z: 1, x: 0, y: 1)) == Data([7, 7]))
        #expect(try reader.tile(at: TileID(z: 1, x: 1, y: 1)) == Data([9]))
        #expect(try reader.tile(at: TileID(z: 0, x: 0, y: 0)) == nil)
        #expect(try reader.tile(at: TileID(z: 1, x: 1, y: 0)) == nil)
        #expect(try reader.tile(at: TileID(pmtilesID: 6)!) == Data([7, 7]))
        #expect(try reader.entries().map(\.tileID) == [1, 3, 6])
    }

    @Test func missingFilesAndFoldersAreUnreadable() throws {
        let directory = try TemporaryDirectory()
        #expect(
            throws: PMTilesError.unreadableFile(path: directory.path("none.pmtiles"), reason: "there is no such file")
        ) {
            try PMTilesReader(url: directory.file("none.pmtiles"))
        }
        #expect(throws: PMTilesError.unreadableFile(path: directory.url.path, reason: "it is a folder, not a file")) {
            try PMTilesReader(url: directory.url)
        }
        // A named pipe is refused without waiting for a writer.
        let pipe = directory.path("pipe.pmtiles")
        #expect(mkfifo(pipe, 0o600) == 0)
        #expect(throws: PMTilesError.unreadableFile(path: pipe, reason: "it is not a regular file")) {
            try PMTilesReader(url: URL(fileURLWithPath: pipe))
        }
    }

    @Test func foreignFilesAreNotPMTiles() throws {
        let directory = try TemporaryDirectory()
        let sqlite = Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 4080)
        for (name, bytes) in [
            ("empty", [UInt8]()), ("text", Array("hello, world\n".utf8)), ("mbtiles", sqlite),
            ("png", [0x89, 0x50, 0x4E, 0x47]),
        ] {
            let url = try write(bytes, in: directory, name: name)
            #expect(throws: PMTilesError.notPMTiles(path: url.path)) { try PMTilesReader(url: url) }
        }
        let version2 = try write([0x50, 0x4D, 2, 0] + [UInt8](repeating: 0, count: 600), in: directory, name: "v2")
        #expect(throws: PMTilesError.unsupportedVersion(path: version2.path, version: 2)) {
            try PMTilesReader(url: version2)
        }
        var future = oneTileArchive()
        future[7] = 4
        let version4 = try write(future, in: directory, name: "v4")
        #expect(throws: PMTilesError.unsupportedVersion(path: version4.path, version: 4)) {
            try PMTilesReader(url: version4)
        }
    }

    @Test func everyTruncationIsRefusedOnOpening() throws {
        let directory = try TemporaryDirectory()
        let bytes = oneTileArchive()
        try open(bytes, in: directory).tile(at: tile).map { #expect($0 == Data([1, 2, 3, 4])) }
        for length in 0..<bytes.count {
            #expect(throws: PMTilesError.self, "cut to \(length) bytes") {
                try open(Array(bytes.prefix(length)), in: directory)
            }
        }
    }

    @Test func damagedSectionsAreNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.pmtiles")
        func refused(_ bytes: [UInt8]) -> PMTilesError? {
            do {
                let reader = try open(bytes, in: directory)
                _ = try reader.tile(at: tile)
                try reader.forEachTile { _, _ in }
                return nil
            } catch let error as PMTilesError {
                return error
            } catch {
                return nil
            }
        }
        let tileDataOffset = oneTileArchive().count - 4
        #expect(
            refused(oneTileArchive { $0.tileData.byteCount += 1 })
                == .corruptHeader(
                    path: path,
                    reason:
                        "the tile data (5 bytes at byte \(tileDataOffset)) reaches past the end of the file (\(tileDataOffset + 4) bytes)"
                ))
        #expect(
            refused(oneTileArchive { $0.rootDirectory.byteCount -= 2 })
                == .corruptDirectory(
                    path: path, reason: "the root directory does not decompress: its gzip stream is cut short"))
        #expect(
            refused(oneTileArchive { $0.internalCompression = .brotli })
                == .unsupportedCompression(path: path, compression: "brotli"))
        #expect(
            refused(oneTileArchive(metadata: Array("[1]".utf8)))
                == .corruptMetadata(path: path, reason: "it is an array, not a JSON object"))
        if case .corruptMetadata(_, let reason)? = refused(oneTileArchive(metadata: Array("{\"name\": ".utf8))) {
            #expect(reason.contains("line 1"))
        } else {
            Issue.record("metadata that is not JSON was read")
        }
        // A tile entry reaching past the tile data.
        let outside = TestArchives.archive(
            root: [PMTilesEntry(tileID: 2, byteOffset: 2, byteCount: 4, runLength: 1)], tileData: [1, 2, 3, 4])
        #expect(
            refused(outside)
                == .corruptDirectory(
                    path: path,
                    reason: "the entry for tile id 2 (4 bytes at byte 2) reaches past the tile data section (4 bytes)"
                ))
        // A leaf entry reaching past the leaf section, and a leaf that points to itself forever.
        let badLeaf = TestArchives.archive(
            root: [PMTilesEntry(tileID: 0, byteOffset: 0, byteCount: 500, runLength: 0)], tileData: [1])
        #expect(
            refused(badLeaf)
                == .corruptDirectory(
                    path: path,
                    reason:
                        "the entry for tile id 0 (500 bytes at byte 0) reaches past the leaf directories section (0 bytes)"
                ))
        let loop = PMTilesEntry(tileID: 0, byteOffset: 0, byteCount: 5, runLength: 0)
        #expect(PMTilesDirectory.encode([loop]).count == 5, "the leaf is the 5 bytes it points to")
        let loopBytes = TestArchives.archive(root: [loop], leaves: [[loop]], tileData: [1], compression: .none)
        #expect(
            refused(loopBytes) == .corruptDirectory(path: path, reason: "leaf directories are nested more than 3 deep"))
    }

    @Test func noDamagedByteCrashesTheReader() throws {
        // Every byte of the header, directories and metadata set to 0x00, 0xFF and flipped: each
        // file opens and reads or is refused with a PMTilesError, and never crashes.
        let directory = try TemporaryDirectory()
        let original = TestArchives.archive(
            root: [
                PMTilesEntry(tileID: 0, byteOffset: 0, byteCount: 2, runLength: 3),
                PMTilesEntry(tileID: 4, byteOffset: 2, byteCount: 3, runLength: 1),
            ],
            metadata: Array("{\"name\":\"x\",\"bounds\":[1,2,3,4]}".utf8),
            tileData: [5, 5, 6, 6, 6], compression: .none
        )
        var opened = 0
        for position in 0..<original.count - 5 {
            for value in Set([0x00, 0xFF, original[position] ^ 0x55, original[position] &+ 1]) {
                var bytes = original
                bytes[position] = value
                do {
                    let reader = try open(bytes, in: directory)
                    opened += 1
                    try reader.forEachTile { _, _ in }
                    for tile in TestArchives.pyramid(0...2) { _ = try reader.tile(at: tile) }
                } catch is PMTilesError {
                    continue
                } catch {
                    Issue.record("byte \(position) = \(value): \(error) is not a PMTilesError")
                }
            }
        }
        #expect(opened > 0)
    }

    @Test func messagesAreOneLineNamingTheFile() {
        let errors: [PMTilesError] = [
            .unreadableFile(path: "w.pmtiles", reason: "permission denied"), .notPMTiles(path: "w.pmtiles"),
            .unsupportedVersion(path: "w.pmtiles", version: 2), .corruptHeader(path: "w.pmtiles", reason: "r"),
            .corruptDirectory(path: "w.pmtiles", reason: "r"), .corruptMetadata(path: "w.pmtiles", reason: "r"),
            .unsupportedCompression(path: "w.pmtiles", compression: "zstd"),
            .unwritableFile(path: "w.pmtiles", reason: "r"),
            .noTiles(path: "w.pmtiles"), .writerClosed(path: "w.pmtiles"),
            .invalidTileSize(path: "w.pmtiles", tile: "1/0/0", byteCount: 0),
        ]
        for error in errors {
            #expect(error.description.hasPrefix("w.pmtiles: "))
            #expect(!error.description.contains("\n"))
            #expect(error.path == "w.pmtiles")
        }
        #expect(
            PMTilesError.notPMTiles(path: "w.mbtiles").description
                == "w.mbtiles: not a PMTiles file: it does not start with \"PMTiles\"")
    }
}
