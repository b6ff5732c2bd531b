import Foundation
import MBTiles
import MapCore
import MapUtilities
import PMTiles
public import TileSources
public import Tilesets

/// What a tileset file holds, MBTiles or PMTiles alike: `mapwright tiles info`.
public struct TilesetSummary: Sendable {
    /// Tiles and bytes at one zoom level.
    public struct ZoomLevel: Hashable, Sendable {
        /// The zoom.
        public var zoom: Int
        /// Tiles at the zoom (every address, a repeated tile counted at each).
        public var tileCount: Int
        /// Their bytes, a repeated tile counted at each address.
        public var tileBytes: Int64
    }

    /// The file.
    public var path: String
    /// Its format.
    public var format: TilesetFormat
    /// How the tiles are laid out: `flat` or `normalized` (MBTiles), `clustered` or `not clustered` (PMTiles).
    public var layout: String
    /// The metadata as MBTiles rows (a PMTiles archive's JSON converted).
    public var metadataRows: [String: String]
    /// Tiles per zoom, by zoom.
    public var zoomLevels: [ZoomLevel]
    /// The file's size in bytes.
    public var fileBytes: Int64
    /// Distinct tile contents stored: MBTiles images, PMTiles tile contents.
    public var storedTileCount: Int

    /// Every tile of the file.
    public var tileCount: Int { zoomLevels.reduce(0) { $0 + $1.tileCount } }
    /// The bytes of every tile, a repeated tile counted at each address.
    public var tileBytes: Int64 { zoomLevels.reduce(0) { $0 + $1.tileBytes } }
    /// Tiles per stored content: 1 when nothing repeats, 10 when ten addresses share each content.
    public var deduplicationRatio: Double { storedTileCount > 0 ? Double(tileCount) / Double(storedTileCount) : 1 }

    /// Reads the summary of a tileset: MBTiles from its tables, PMTiles from its header and
    /// directories (no tile's bytes are read).
    ///
    /// - Throws: ``TilesetToolsError`` when the file cannot be read.
    public init(of tileset: any TileSource) throws(TilesetToolsError) {
        path = tileset.displayPath
        guard let format = TilesetFormat(of: tileset) else {
            throw .tileset(.notATileset(path: tileset.displayPath, reason: "it is not a tileset file"))
        }
        self.format = format
        if let store = tileset as? MBTilesStore {
            let info: MBTilesInfo
            do throws(MBTilesError) { info = try store.info() } catch { throw .tileset(.mbtiles(error)) }
            layout =
                info.schema == .normalized
                ? "normalized (identical tiles stored once)" : info.schema == .flat ? "flat" : "a tiles view"
            metadataRows = info.metadataValues
            zoomLevels = info.zoomLevels.map {
                ZoomLevel(zoom: $0.zoom, tileCount: $0.tileCount, tileBytes: $0.tileBytes)
            }
            fileBytes = info.fileBytes
            storedTileCount = info.storedBlobCount
        } else if let reader = tileset as? PMTilesReader {
            layout = reader.header.isClustered ? "clustered" : "not clustered"
            metadataRows = reader.metadata().rows
            var levels: [Int: ZoomLevel] = [:]
            let entries: [PMTilesEntry]
            do throws(PMTilesError) { entries = try reader.entries() } catch { throw .tileset(.pmtiles(error)) }
            var contents = Set<UInt64>()
            for entry in entries {
                contents.insert(entry.byteOffset)
                for id in entry.tileIDs {
                    guard let tile = TileID(pmtilesID: id) else { continue }
                    levels[tile.z, default: ZoomLevel(zoom: tile.z, tileCount: 0, tileBytes: 0)].tileCount += 1
                    levels[tile.z]!.tileBytes += Int64(entry.byteCount)
                }
            }
            zoomLevels = levels.values.sorted { $0.zoom < $1.zoom }
            fileBytes = Int64(reader.fileByteCount)
            storedTileCount = contents.count
        } else {
            preconditionFailure("a tileset is MBTiles or PMTiles")
        }
    }
}
