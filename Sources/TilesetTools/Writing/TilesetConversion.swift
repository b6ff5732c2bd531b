public import Foundation
import MBTiles
import MapCore
import MapUtilities
import PMTiles
public import TileSources
import Tilesets

/// Copies every tile of a tileset into a new file of either format: `mapwright tiles convert`.
///
/// ```swift
/// try TilesetConversion.convert(TileSourceLocation.file(URL(fileURLWithPath: "world.mbtiles")).open(),
///                               to: URL(fileURLWithPath: "world.pmtiles"))
/// ```
///
/// The metadata comes along (MBTiles rows and PMTiles JSON map onto each other, see
/// ``TileSources/TileMetadata`` and `PMTiles`' `pmtilesJSON`); identical tiles are stored once in both formats.
/// The output is written beside its final name and renamed into place, so a failed conversion
/// leaves any earlier file untouched.
public enum TilesetConversion {
    /// Converts `source` into `output`, whose extension gives the format.
    ///
    /// - Returns: The number of tiles written.
    /// - Throws: ``TilesetToolsError`` naming the file at fault; ``TilesetToolsError/invalidExport(reason:)``
    ///   when `output` is the source itself or the source has no tiles.
    @discardableResult
    public static func convert(_ source: any TileSource, to output: URL) throws(TilesetToolsError) -> Int {
        let format = try TilesetFormat(output: output)
        if output.standardizedFileURL.resolvingSymlinksInPath().path == source.resolvedFilePath {
            throw .invalidExport(
                reason: "\(output.displayPath): the output is the file being converted; name another file")
        }
        let metadata = try TilesetToolsError.wrapping { try source.metadata() }
        switch format {
        case .pmtiles:
            let writer: PMTilesWriter
            do throws(PMTilesError) { writer = try PMTilesWriter(url: output, metadata: metadata) } catch {
                throw .tileset(.pmtiles(error))
            }
            var count = 0
            try TilesetToolsError.wrapping {
                try source.forEachTile { tile, data in
                    try writer.add(data, at: tile)
                    count += 1
                }
            }
            guard count > 0 else {
                writer.cancel()
                throw .invalidExport(reason: "\(source.displayPath): the tileset has no tiles to convert")
            }
            do throws(PMTilesError) { try writer.finish() } catch { throw .tileset(.pmtiles(error)) }
            return count
        case .mbtiles:
            return try TilesetWriter.withTemporary(for: output) { (writer) throws(TilesetToolsError) in
                try TilesetToolsError.wrapping {
                    try source.forEachTile { tile, data in try writer.add(data, at: tile) }
                }
                return try writer.finish(metadata: metadata)
            }
        }
    }

    /// Writes the tiles of an MBTiles store into a PMTiles archive with `metadata`.
    static func writePMTiles(from store: MBTilesStore, to output: URL, metadata: TileMetadata) throws(TilesetToolsError)
    {
        let writer: PMTilesWriter
        do throws(PMTilesError) { writer = try PMTilesWriter(url: output, metadata: metadata) } catch {
            throw .tileset(.pmtiles(error))
        }
        var count = 0
        do {
            try store.forEachTile { tile, data in
                try writer.add(data, at: tile)
                count += 1
            }
        } catch let error as MBTilesError {
            writer.cancel()
            throw .tileset(.mbtiles(error))
        } catch let error as PMTilesError {
            writer.cancel()
            throw .tileset(.pmtiles(error))
        } catch {
            writer.cancel()
            throw .tileset(.fileSystem(path: output.displayPath, reason: "\(error)"))
        }
        guard count > 0 else {
            writer.cancel()
            throw .invalidExport(reason: "\(output.displayPath): no tiles to write (the area and zooms hold none)")
        }
        do throws(PMTilesError) { try writer.finish() } catch { throw .tileset(.pmtiles(error)) }
    }
}
