import Foundation
import MapCore
import MapUtilities
import TileSources

/// What a ``PMTilesWriter`` holds between ``PMTilesWriter/add(_:at:)`` and
/// ``PMTilesWriter/finish(metadata:)``: the spool, the index of tiles and of distinct contents,
/// and what the header will say.
struct PMTilesWriterState {
    /// A tile added: its id, its content and when it was added (the last added wins).
    struct Record {
        var tileID: UInt64
        var content: UInt32
        var sequence: UInt32
    }

    /// Distinct tile bytes in the spool.
    struct Content {
        var spoolOffset: UInt64
        var byteCount: UInt32
    }

    /// The columns and rows tiles were added in at one zoom level.
    struct Extent {
        var minX: Int, minY: Int, maxX: Int, maxY: Int
    }

    static let noContent = UInt32.max

    /// Nil once finished or cancelled.
    var spool: TileSpool?
    var metadata: TileMetadata
    let tileType: PMTilesHeader.TileType?
    var tileCompression: PMTilesHeader.Compression?
    var records: [Record] = []
    var contents: [Content] = []
    /// The first content with each CRC-32 and length (`crc << 32 | length`)…
    var firstContentByKey: [UInt64: UInt32] = [:]
    /// …and, for each content, the next with the same key (``noContent`` for none).
    var nextContentWithSameKey: [UInt32] = []
    /// The content last found a duplicate of, with its bytes, so a run of identical tiles is
    /// compared in memory rather than read back from the spool each time.
    var lastDuplicate: (content: UInt32, bytes: [UInt8])?
    /// By zoom level.
    var extents = [Extent?](repeating: nil, count: TileID.maximumZoom + 1)

    init(
        spool: TileSpool, metadata: TileMetadata, tileType: PMTilesHeader.TileType?,
        tileCompression: PMTilesHeader.Compression?
    ) {
        self.spool = spool
        self.metadata = metadata
        self.tileType = tileType
        self.tileCompression = tileCompression
    }

    /// Records a tile, spooling its bytes unless identical bytes are already spooled.
    mutating func add(_ data: Data, at tile: TileID, path: String) throws(PMTilesError) {
        guard let spool else { throw .writerClosed(path: path) }
        guard records.count < Int(UInt32.max), contents.count < Int(Self.noContent) else {
            throw .unwritableFile(path: path, reason: "more than 4,294,967,295 tiles were added")
        }
        if records.isEmpty, tileCompression == nil {
            tileCompression = Gzip.isGzip(data) ? .gzip : PMTilesHeader.Compression.none
        }
        let key = data.withUnsafeBytes { UInt64(Gzip.crc32(of: $0)) << 32 | UInt64(data.count) }
        let content: UInt32
        if let existing = try duplicate(of: data, key: key, in: spool) {
            content = existing
        } else {
            content = UInt32(contents.count)
            contents.append(Content(spoolOffset: try spool.append(data), byteCount: UInt32(data.count)))
            nextContentWithSameKey.append(firstContentByKey[key] ?? Self.noContent)
            firstContentByKey[key] = content
        }
        records.append(Record(tileID: tile.pmtilesID, content: content, sequence: UInt32(records.count)))
        if var extent = extents[tile.z] {
            extent.minX = min(extent.minX, tile.x)
            extent.minY = min(extent.minY, tile.y)
            extent.maxX = max(extent.maxX, tile.x)
            extent.maxY = max(extent.maxY, tile.y)
            extents[tile.z] = extent
        } else {
            extents[tile.z] = Extent(minX: tile.x, minY: tile.y, maxX: tile.x, maxY: tile.y)
        }
    }

    /// The spooled content with the same bytes as `data`, if any.
    private mutating func duplicate(of data: Data, key: UInt64, in spool: TileSpool) throws(PMTilesError) -> UInt32? {
        var candidate = firstContentByKey[key] ?? Self.noContent
        while candidate != Self.noContent {
            if let last = lastDuplicate, last.content == candidate {
                if Self.equal(data, last.bytes) { return candidate }
            } else {
                let stored = contents[Int(candidate)]
                let bytes = try spool.withBytes(at: stored.spoolOffset, count: Int(stored.byteCount)) { Array($0) }
                if Self.equal(data, bytes) {
                    lastDuplicate = (candidate, bytes)
                    return candidate
                }
            }
            candidate = nextContentWithSameKey[Int(candidate)]
        }
        return nil
    }

    private static func equal(_ data: Data, _ bytes: [UInt8]) -> Bool {
        data.count == bytes.count
            && data.withUnsafeBytes { left in
                bytes.withUnsafeBytes { right in memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 }
            }
    }

    /// Drops everything; the spool's space is freed.
    mutating func close() {
        spool = nil
        records = []
        contents = []
        firstContentByKey = [:]
        nextContentWithSameKey = []
        lastDuplicate = nil
    }
}
