public import Foundation
import MapUtilities
import PMTiles
public import TileSources
import TileStore
extension TilesetFormat {
    /// Opens a tileset file for reading as a ``TileSources/TileSource``: an `MBTilesStore` opened
    /// read-only or a `PMTilesReader`, told apart by the file's first bytes, not its name. Nothing
    /// is written to the file. What `tiles info`, `extract`, `convert`, `diff`, a tile server and
    /// a style's raster or vector source read.
    ///
    /// ```swift
    /// let tileset = try TilesetFormat.open(URL(fileURLWithPath: "world.pmtiles"))
    /// let png = try tileset.tile(at: TileID(z: 3, x: 4, y: 2))
    /// ```
    ///
    /// - Throws: ``TilesetsError`` naming the file: missing, a folder, neither format, or damaged.
    public static func open(_ url: URL) throws(TilesetsError) -> any TileSource {
        switch try TilesetFormat(sniffing: url) {
        case .mbtiles:
            do throws(TileStoreError) { return try MBTilesStore(url: url, mode: .readOnly) } catch { throw .mbtiles(error) }
        case .pmtiles:
            do throws(PMTilesError) { return try PMTilesReader(url: url) } catch { throw .pmtiles(error) }
        }
    }

    /// The format of an open tile source; nil for one that is not a tileset file (HTTP).
    public init?(of source: any TileSource) {
        switch source {
        case is MBTilesStore: self = .mbtiles
        case is PMTilesReader: self = .pmtiles
        default: return nil
        }
    }
}

extension TileSource {
    /// The source as messages name it: a file's path relative to the working directory when it
    /// is inside it (see `URL.displayPath`), else its ``TileSources/TileSource/sourceDescription``.
    var displayPath: String { fileURL?.displayPath ?? sourceDescription }

    /// The source's file with symbolic links resolved, to tell whether an output is the source itself.
    var resolvedFilePath: String? { fileURL?.standardizedFileURL.resolvingSymlinksInPath().path }
}
