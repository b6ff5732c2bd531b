import Foundation
import MBTiles
import MapCore
import MapUtilities
import PMTiles
public import TileSources
import Tilesets

/// The checks `mapwright tiles validate` runs on a tileset file.
///
/// - **MBTiles**: `MBTilesStore.validate()`: SQLite's `PRAGMA integrity_check`, `agg_tiles_hash`
///   against the tiles, the required metadata, addresses within the grid, and in the normalized
///   layout every image present and named by its MD5.
/// - **PMTiles**: every directory decoded and every tile read: entries in tile-id order, within
///   the header's zooms, pointing inside the tile data section; the header's counts of addressed
///   tiles, entries and contents equal to what the directories hold.
public struct TilesetValidation: Sendable {
    /// The file.
    public var path: String
    /// Findings that make the file invalid, one line each.
    public var problems: [String]
    /// Findings that do not, one line each.
    public var warnings: [String]
    /// Whether the file passed every check.
    public var isValid: Bool { problems.isEmpty }

    /// Checks a tileset file.
    ///
    /// - Throws: ``TilesetToolsError`` when the file cannot be opened at all.
    public init(of tileset: any TileSource) throws(TilesetToolsError) {
        path = tileset.displayPath
        if let store = tileset as? MBTilesStore {
            let result: MBTilesValidation
            do throws(MBTilesError) { result = try store.validate() } catch { throw .tileset(.mbtiles(error)) }
            problems = result.problems
            warnings = result.warnings
            return
        }
        guard let reader = tileset as? PMTilesReader else {
            throw .tileset(.notATileset(path: tileset.displayPath, reason: "it is not a tileset file"))
        }
        var problems: [String] = []
        let header = reader.header
        do throws(PMTilesError) {
            let entries = try reader.entries()
            var addressed: UInt64 = 0
            var previousEnd: UInt64 = 0
            var contents = Set<UInt64>()
            var zooms: ClosedRange<Int>?
            for entry in entries {
                if entry.tileID < previousEnd {
                    problems.append(
                        "tile id \(entry.tileID) comes after a run ending at \(previousEnd): entries are out of order")
                }
                previousEnd = entry.tileID + UInt64(entry.runLength)
                addressed += UInt64(entry.runLength)
                contents.insert(entry.byteOffset)
                if entry.byteCount == 0 { problems.append("tile id \(entry.tileID) has no bytes") }
                _ = try reader.data(of: entry)
                for id in [entry.tileID, entry.tileID + UInt64(entry.runLength) - 1] {
                    guard let tile = TileID(pmtilesID: id) else {
                        problems.append("tile id \(id) is beyond zoom \(TileID.maximumZoom)")
                        continue
                    }
                    zooms = zooms.map { min($0.lowerBound, tile.z)...max($0.upperBound, tile.z) } ?? tile.z...tile.z
                }
            }
            if header.addressedTileCount != 0, header.addressedTileCount != addressed {
                problems.append(
                    "the header counts \(header.addressedTileCount) addressed tiles, the directories \(addressed)")
            }
            if header.tileEntryCount != 0, header.tileEntryCount != UInt64(entries.count) {
                problems.append(
                    "the header counts \(header.tileEntryCount) tile entries, the directories \(entries.count)")
            }
            if header.tileContentCount != 0, header.tileContentCount != UInt64(contents.count) {
                problems.append(
                    "the header counts \(header.tileContentCount) tile contents, the directories point to \(contents.count)"
                )
            }
            if let zooms, let stated = header.zoomRange,
                !(stated.lowerBound <= zooms.lowerBound && zooms.upperBound <= stated.upperBound)
            {
                problems.append(
                    "tiles reach zooms \(zooms.lowerBound)-\(zooms.upperBound), outside the header's \(stated.lowerBound)-\(stated.upperBound)"
                )
            }
            if entries.isEmpty { problems.append("the archive has no tiles") }
        } catch {
            problems.append(error.description)
        }
        self.problems = problems
        warnings = reader.metadata().name == nil ? ["the metadata has no name"] : []
    }
}
