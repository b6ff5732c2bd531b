import Foundation
import MapSQLite
public import TileSources

/// What an MBTiles file holds: `tiles info`'s figures.
///
/// Sizes are of the tiles' bytes, in bytes; the SQLite pages around them are in ``fileBytes``.
public struct MBTilesInfo: Hashable, Sendable {
    /// The tiles of one zoom level.
    public struct ZoomLevel: Hashable, Sendable {
        /// The zoom level.
        public var zoom: Int
        /// How many tiles the file has at this zoom.
        public var tileCount: Int
        /// The sum of their sizes, in bytes, as served (an image shared by many tiles counts for each).
        public var tileBytes: Int64
        /// The westernmost and easternmost columns with tiles.
        public var columns: ClosedRange<Int>
        /// The northernmost and southernmost XYZ rows with tiles (TMS rows flipped).
        public var rows: ClosedRange<Int>
    }

    /// The file.
    public var path: String
    /// The file's layout.
    public var schema: MBTilesSchema
    /// The `metadata` table as it is.
    public var metadataValues: [String: String]
    /// The tiles per zoom level, from the lowest.
    public var zoomLevels: [ZoomLevel]
    /// The size of the file and of its `-wal` file, in bytes.
    public var fileBytes: Int64
    /// How many blobs the file stores: one per tile in a flat file, one per distinct image (used
    /// or not) in a normalized one.
    public var storedBlobCount: Int
    /// The sum of the stored blobs' sizes, in bytes.
    public var storedBlobBytes: Int64

    /// How many tiles the file has.
    public var tileCount: Int { zoomLevels.reduce(0) { $0 + $1.tileCount } }
    /// The sum of the tiles' sizes as served, in bytes: what a flat file of the same tiles stores.
    public var tileBytes: Int64 { zoomLevels.reduce(0) { $0 + $1.tileBytes } }
    /// The metadata, typed; nil when a value is malformed (see ``MBTilesStore/validate(maximumIntegrityProblems:)``).
    public var metadata: TileMetadata? { try? TileMetadata(rows: metadataValues, path: path) }
    /// How many times smaller deduplication makes the tiles: ``tileBytes`` / ``storedBlobBytes``;
    /// 1 for a flat file or one without shared tiles (and for an empty one).
    public var deduplicationRatio: Double {
        storedBlobBytes > 0 && tileBytes > 0 ? Double(tileBytes) / Double(storedBlobBytes) : 1
    }
}

extension MBTilesStore {
    /// The file's metadata, tiles per zoom level with their sizes and extents, and what
    /// deduplication saves, in one read transaction. Reads the index and blob sizes, not the
    /// tiles' bytes.
    ///
    /// - Throws: ``MBTilesError``.
    public func info() throws(MBTilesError) -> MBTilesInfo {
        let metadataValues = try metadataRows()
        let (zoomLevels, stored) = try readers.withReader { reader in
            try reader.database.inTransaction {
                var levels: [MBTilesInfo.ZoomLevel] = []
                try reader.database.prepare(
                    """
                    SELECT zoom_level, count(*), coalesce(sum(length(tile_data)), 0), min(tile_column), max(tile_column), \
                    min(tile_row), max(tile_row) FROM tiles GROUP BY zoom_level ORDER BY zoom_level
                    """
                ).forEachRow { row in
                    let zoom = Int(row.int64(at: 0))
                    let last = (1 << min(max(zoom, 0), 62)) - 1
                    let lowRow = Int(row.int64(at: 5))
                    let highRow = Int(row.int64(at: 6))
                    levels.append(
                        MBTilesInfo.ZoomLevel(
                            zoom: zoom,
                            tileCount: Int(row.int64(at: 1)),
                            tileBytes: row.int64(at: 2),
                            columns: Int(row.int64(at: 3))...Int(row.int64(at: 4)),
                            rows: (last - highRow)...(last - lowRow)
                        ))
                }
                var stored: (count: Int, bytes: Int64)
                if schema == .normalized {
                    let statement = try reader.database.prepare(
                        "SELECT count(*), coalesce(sum(length(tile_data)), 0) FROM images")
                    try statement.step()
                    stored = (Int(statement.int64(at: 0)), statement.int64(at: 1))
                } else {
                    stored = (levels.reduce(0) { $0 + $1.tileCount }, levels.reduce(0) { $0 + $1.tileBytes })
                }
                return (levels, stored)
            }
        }
        let fileBytes = [path, path + "-wal"].reduce(Int64(0)) { sum, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
            return sum + size
        }
        return MBTilesInfo(
            path: path, schema: schema, metadataValues: metadataValues, zoomLevels: zoomLevels,
            fileBytes: fileBytes, storedBlobCount: stored.count, storedBlobBytes: stored.bytes)
    }
}
