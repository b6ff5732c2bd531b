import Foundation
import MapUtilities
import PMTiles
public import TileSources
import TileStore
extension TilesetFormat {
    /// Opens a tileset file for reading: an `MBTilesStore` opened read-only or a `PMTilesReader`,
    /// told apart by the file's first bytes, not its name (``TileSourceLocation/file(_:)``).
    ///
    /// - Throws: ``TilesetsError`` naming the file: missing, a folder, neither format, or damaged.
    static func openFile(_ url: URL) throws(TilesetsError) -> any TileSource {
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
