import Foundation
import MapCore
import MapTestSupport
import MapUtilities
import TileSources

@testable import PMTiles

/// Tiles and archives for the tests.
enum TestArchives {
    /// The bytes of an "ocean" tile, the same everywhere.
    static let ocean = Data(repeating: 0x0C, count: 90)

    /// Bytes unique to a tile: `tile z/x/y` and a few more, so lengths vary.
    static func bytes(_ tile: TileID) -> Data {
        Data("tile \(tile)".utf8) + Data(repeating: UInt8(tile.x & 0xFF), count: (tile.x + tile.y) % 5)
    }

    /// Every tile of zoom levels `zooms`.
    static func pyramid(_ zooms: ClosedRange<Int>) -> [TileID] {
        zooms.flatMap { z in
            (0..<(1 << z)).flatMap { y in (0..<(1 << z)).map { x in try! TileID(z: z, x: x, y: y) } }
        }
    }

    /// A file made of its parts as a writer lays them out: header, root directory, metadata,
    /// leaves, tile data. Directories are given as entries and encoded here; `compression`
    /// applies to them and the metadata. `edit` may change the header after the sections are set.
    static func archive(
        root: [PMTilesEntry],
        leaves: [[PMTilesEntry]] = [],
        metadata: [UInt8] = Array("{}".utf8),
        tileData: [UInt8],
        compression: PMTilesHeader.Compression = .gzip,
        edit: (inout PMTilesHeader) -> Void = { _ in }
    ) -> [UInt8] {
        func compressed(_ bytes: [UInt8]) -> [UInt8] { compression == .gzip ? Gzip.compress(bytes) : bytes }
        let rootBytes = compressed(PMTilesDirectory.encode(root))
        let metadataBytes = compressed(metadata)
        let leafBytes = leaves.flatMap { compressed(PMTilesDirectory.encode($0)) }
        var header = PMTilesHeader(internalCompression: compression, tileType: .png)
        header.rootDirectory = .init(byteOffset: 127, byteCount: UInt64(rootBytes.count))
        header.metadata = .init(byteOffset: header.rootDirectory.endOffset!, byteCount: UInt64(metadataBytes.count))
        header.leafDirectories = .init(byteOffset: header.metadata.endOffset!, byteCount: UInt64(leafBytes.count))
        header.tileData = .init(byteOffset: header.leafDirectories.endOffset!, byteCount: UInt64(tileData.count))
        edit(&header)
        return header.bytes + rootBytes + metadataBytes + leafBytes + tileData
    }

    /// Writes `tiles` (bytes by tile) with a ``PMTilesWriter``, in the order given.
    @discardableResult
    static func write(
        _ tiles: [(TileID, Data)], to url: URL, metadata: TileMetadata = TileMetadata(name: "Test", format: .png)
    ) throws -> PMTilesHeader {
        let writer = try PMTilesWriter(url: url, metadata: metadata)
        for (tile, data) in tiles { try writer.add(data, at: tile) }
        return try writer.finish()
    }
}

/// An archive of 120,000 tiles with distinct bytes of random lengths (8 to 64 bytes), too many
/// for the root directory, added in a shuffled order.
struct LargeArchive {
    static let tileCount = 120_000

    let url: URL
    let header: PMTilesHeader
    /// The tiles' bytes, by PMTiles tile id.
    let tiles: [Data]

    /// Writes the archive in `directory`.
    init(in directory: TemporaryDirectory) throws {
        url = directory.file("large.pmtiles")
        var random = SeededGenerator(seed: 10)
        // The id's 8 bytes, then 0 to 56 bytes from a pool of random bytes.
        let pool = (0..<8192).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } }
        tiles = (0..<UInt64(Self.tileCount)).map { id in
            let start = Int(id * 13 % 60_000)
            var data = withUnsafeBytes(of: id.littleEndian) { Data($0) }
            data.append(contentsOf: pool[start..<start + Int(random.next() % 57)])
            return data
        }
        var order = Array(tiles.indices)
        order.shuffle(using: &random)
        let writer = try PMTilesWriter(url: url, metadata: TileMetadata(name: "Large", format: .png))
        for index in order { try writer.add(tiles[index], at: TileID(pmtilesID: UInt64(index))!) }
        header = try writer.finish()
    }
}
