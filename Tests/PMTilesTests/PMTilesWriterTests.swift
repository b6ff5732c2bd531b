import Foundation
import MapCore
import MapJSON
import MapTestSupport
import MapUtilities
import Synchronization
import Testing
import TileSources

@testable import PMTiles

struct PMTilesWriterTests {
    @Test func tilesAddedInAnyOrderReadBack() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("pyramid.pmtiles")
        var random = SeededGenerator(seed: 1)
        let tiles = TestArchives.pyramid(0...4).shuffled(using: &random)
        let header = try TestArchives.write(tiles.map { ($0, TestArchives.bytes($0)) }, to: url)

        let reader = try PMTilesReader(url: url)
        #expect(reader.header == header)
        for tile in tiles {
            #expect(try reader.tile(at: tile) == TestArchives.bytes(tile), "\(tile)")
        }
        #expect(try reader.tile(at: TileID(z: 5, x: 0, y: 0)) == nil)
        #expect(header.addressedTileCount == 341)
        #expect(header.tileEntryCount == 341)
        #expect(header.tileContentCount == 341)
        #expect(header.isClustered)
        #expect(header.internalCompression == .gzip)
        #expect(header.tileCompression == PMTilesHeader.Compression.none)
        #expect(header.tileType == .png)
        #expect((header.minZoom, header.maxZoom) == (0, 4))
        #expect(header.rootDirectory.byteOffset == 127)
        #expect(header.rootDirectory.endOffset! <= 16_384)
        #expect(header.leafDirectories.byteCount == 0)
        #expect(header.tileData.endOffset == reader.fileByteCount)

        // forEachTile walks tile-id order, and the data is clustered: in the same order.
        var walked: [TileID] = []
        try reader.forEachTile { tile, data in
            #expect(data == TestArchives.bytes(tile))
            walked.append(tile)
        }
        #expect(walked == tiles.sorted { $0.pmtilesID < $1.pmtilesID })
        let entries = try reader.entries()
        #expect(entries.first?.byteOffset == 0)
        for (previous, entry) in zip(entries, entries.dropFirst()) {
            #expect(entry.byteOffset == previous.byteOffset + UInt64(previous.byteCount))
        }
    }

    @Test func identicalTilesAreStoredOnceAndConsecutiveOnesAsOneRun() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("ocean.pmtiles")
        // A 64 x 64 block at zoom 8, aligned, is one stretch of the Hilbert curve: all ocean but
        // one island tile. A second ocean block elsewhere is not next to the first.
        let island = try TileID(z: 8, x: 20, y: 30)
        var tiles: [(TileID, Data)] = []
        for y in 0..<64 {
            for x in 0..<64 {
                let tile = try TileID(z: 8, x: x, y: y)
                tiles.append((tile, tile == island ? Data("island".utf8) : TestArchives.ocean))
            }
        }
        for y in 128..<160 {
            for x in 192..<224 { tiles.append((try TileID(z: 8, x: x, y: y), TestArchives.ocean)) }
        }
        let header = try TestArchives.write(tiles.reversed(), to: url)

        #expect(header.addressedTileCount == 64 * 64 + 32 * 32)
        #expect(header.tileContentCount == 2)
        #expect(header.tileData.byteCount == UInt64(TestArchives.ocean.count + "island".utf8.count))
        #expect(header.tileEntryCount <= 4, "ocean, island, ocean, and the second block")
        let reader = try PMTilesReader(url: url)
        let entries = try reader.entries()
        #expect(entries.map(\.runLength).reduce(0, +) == UInt32(header.addressedTileCount))
        #expect(Set(entries.filter { $0.byteCount == UInt32(TestArchives.ocean.count) }.map(\.byteOffset)).count == 1)
        for (tile, data) in tiles {
            #expect(try reader.tile(at: tile) == data)
        }
        #expect(reader.fileByteCount < 1000)
    }

    @Test func tilesWithTheSameChecksumButDifferentBytesStayApart() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("collide.pmtiles")
        // "plumless" and "buckeroo" have the same CRC-32 (0x4DDB0C25) and length.
        let a = Data("plumless".utf8)
        let b = Data("buckeroo".utf8)
        let tiles = [
            (try TileID(z: 1, x: 0, y: 0), a), (try TileID(z: 1, x: 0, y: 1), b), (try TileID(z: 1, x: 1, y: 1), a),
        ]
        let header = try TestArchives.write(tiles, to: url)
        #expect(header.tileContentCount == 2)
        let reader = try PMTilesReader(url: url)
        for (tile, data) in tiles { #expect(try reader.tile(at: tile) == data) }
    }

    @Test func theBytesAddedLastForATileWin() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("again.pmtiles")
        let tile = try TileID(z: 3, x: 1, y: 2)
        let header = try TestArchives.write(
            [(tile, Data("first".utf8)), (tile.parent!, Data("parent".utf8)), (tile, Data("second".utf8))], to: url)
        #expect(header.addressedTileCount == 2)
        #expect(header.tileContentCount == 2, "the replaced bytes are not written")
        let reader = try PMTilesReader(url: url)
        #expect(try reader.tile(at: tile) == Data("second".utf8))
        #expect(try reader.tile(at: tile.parent!) == Data("parent".utf8))
    }

    @Test func overflowingTheRootMakesLeafDirectories() throws {
        let directory = try TemporaryDirectory()
        let archive = try LargeArchive(in: directory)
        let header = archive.header
        #expect(header.leafDirectories.byteCount > 0)
        #expect(header.rootDirectory.endOffset! <= 16_384)
        #expect(header.addressedTileCount == UInt64(LargeArchive.tileCount))
        #expect(header.tileContentCount == UInt64(LargeArchive.tileCount))

        let reader = try PMTilesReader(url: archive.url)
        #expect(reader.rootEntries.count > 1)
        #expect(reader.rootEntries.allSatisfy { $0.isLeafDirectory })
        for (id, data) in archive.tiles.enumerated() {
            guard try reader.tile(at: TileID(pmtilesID: UInt64(id))!) == data else {
                Issue.record("tile id \(id) reads back different bytes")
                return
            }
        }
        var count = 0
        try reader.forEachTile { tile, data in
            if data != archive.tiles[Int(tile.pmtilesID)] { Issue.record("tile \(tile) walks back different bytes") }
            count += 1
        }
        #expect(count == LargeArchive.tileCount)
    }

    @Test func readsFromManyThreadsAtOnce() throws {
        let directory = try TemporaryDirectory()
        let archive = try LargeArchive(in: directory)
        let reader = try PMTilesReader(url: archive.url)
        let tiles = archive.tiles
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var random = SeededGenerator(seed: UInt64(thread))
            for _ in 0..<5000 {
                let id = Int.random(in: 0..<tiles.count, using: &random)
                if (try? reader.tile(at: TileID(pmtilesID: UInt64(id))!)) != tiles[id] {
                    mismatches.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }

    @Test func metadataRoundTripsAndFillsTheHeader() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("meta.pmtiles")
        let metadata = TileMetadata(
            name: "Alps", format: .jpg, bounds: BoundingBox(west: 5.5, south: 44, east: 16.5, north: 48.25),
            center: .init(longitude: 10, latitude: 46.5, zoom: 7), minZoom: 6, maxZoom: 9,
            attribution: "<a href=\"https://osm.org\">© OSM</a>", description: "Mountains", type: .baselayer,
            version: "1.2.0",
            json: #"{"vector_layers":[{"id":"peaks"}]}"#,
            otherValues: ["scheme": "xyz"]
        )
        let header = try TestArchives.write(
            [(try TileID(z: 7, x: 67, y: 45), Data([0xFF, 0xD8, 0xFF]))], to: url, metadata: metadata)
        #expect(header.tileType == .jpeg)
        #expect(header.bounds == metadata.bounds)
        #expect((header.centerLongitude, header.centerLatitude, header.centerZoom) == (10, 46.5, 7))
        #expect((header.minZoom, header.maxZoom) == (7, 7), "the header says which zooms have tiles")

        let reader = try PMTilesReader(url: url)
        #expect(reader.metadata() == metadata)
        #expect(reader.metadataJSON["scheme"] == .string("xyz"))
        #expect(
            reader.metadataJSON["vector_layers"] == .array([.object(["id": .string("peaks")])]),
            "at the top level, as PMTiles keeps it")
        #expect(reader.metadataJSON["bounds"] == .array([.number(5.5), .number(44), .number(16.5), .number(48.25)]))
    }

    @Test func boundsCenterZoomsAndFormatComeFromTheTilesWhenNotGiven() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("filled.pmtiles")
        let tiles = try [TileID(z: 2, x: 1, y: 1), TileID(z: 2, x: 2, y: 2), TileID(z: 3, x: 4, y: 3)]
        let header = try TestArchives.write(
            tiles.map { ($0, TestArchives.bytes($0)) }, to: url, metadata: TileMetadata(name: "Filled"))
        #expect(header.tileType == .unknown)
        #expect(header.bounds.west == -90 && header.bounds.east == 90)
        #expect(abs(header.bounds.north - 66.5132604) < 1e-6 && abs(header.bounds.south + 66.5132604) < 1e-6)
        #expect((header.centerLongitude, header.centerLatitude, header.centerZoom) == (0, 0, 2))
        let metadata = try PMTilesReader(url: url).metadata()
        #expect(metadata.minZoom == 2 && metadata.maxZoom == 3)
        #expect(metadata.bounds == header.bounds)
        #expect(metadata.format == nil)

        let png = try TestArchives.write(
            [(tiles[0], Data([0x89, 0x50]))], to: url, metadata: TileMetadata(format: .png))
        #expect(png.tileType == .png)
        #expect(try PMTilesReader(url: url).metadata().format == .png)
    }

    @Test func tileCompressionIsTakenFromTheFirstTileUnlessGiven() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("vector.pmtiles")
        let tile = try TileID(z: 0, x: 0, y: 0)
        let gzipped = Data(Gzip.compress(Array("layer".utf8)))
        let sniffed = try TestArchives.write([(tile, gzipped)], to: url, metadata: TileMetadata(format: .pbf))
        #expect(sniffed.tileCompression == .gzip)
        #expect(sniffed.tileType == .mvt)
        #expect(try PMTilesReader(url: url).tile(at: tile) == gzipped, "tiles come back as stored")

        let writer = try PMTilesWriter(url: url, tileType: .mlt, tileCompression: .zstd)
        try writer.add(Data([1]), at: tile)
        let given = try writer.finish()
        #expect(given.tileCompression == .zstd)
        #expect(given.tileType == .mlt)
    }

    @Test func nothingButTheFinishedArchiveIsEverLeftInTheFolder() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("out/world.pmtiles")
        let writer = try PMTilesWriter(url: url)
        for tile in TestArchives.pyramid(0...3) { try writer.add(TestArchives.bytes(tile), at: tile) }
        let folder = url.deletingLastPathComponent()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [], "the spool has no name")
        try writer.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["world.pmtiles"])

        // A cancelled or failed export leaves the earlier archive as it was.
        let before = try Data(contentsOf: url)
        let cancelled = try PMTilesWriter(url: url)
        try cancelled.add(Data([1]), at: TileID(z: 0, x: 0, y: 0))
        cancelled.cancel()
        let empty = try PMTilesWriter(url: url)
        #expect(throws: PMTilesError.noTiles(path: url.path)) { try empty.finish() }
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["world.pmtiles"])
    }

    @Test func aClosedWriterTakesNoMoreTiles() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("closed.pmtiles")
        let tile = try TileID(z: 0, x: 0, y: 0)
        let writer = try PMTilesWriter(url: url)
        #expect(throws: PMTilesError.invalidTileSize(path: url.path, tile: "0/0/0", byteCount: 0)) {
            try writer.add(Data(), at: tile)
        }
        try writer.add(Data([1]), at: tile)
        #expect(writer.addedTileCount == 1)
        try writer.finish()
        #expect(throws: PMTilesError.writerClosed(path: url.path)) { try writer.add(Data([1]), at: tile) }
        #expect(throws: PMTilesError.writerClosed(path: url.path)) { try writer.finish() }
    }

    @Test func anUnwritablePlaceIsRefusedAtOnce() throws {
        let directory = try TemporaryDirectory()
        let blocker = try directory.write("a file", to: "blocker")
        let url = URL(fileURLWithPath: blocker).appendingPathComponent("world.pmtiles")
        #expect(throws: PMTilesError.unwritableFile(path: url.path, reason: "cannot create the folder \(blocker)")) {
            try PMTilesWriter(url: url)
        }
    }
}
