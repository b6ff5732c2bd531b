import Foundation
import MBTiles
import MapUtilities
import PMTiles
public import TileSources

extension TilesetFormat {
    /// Opens a tileset file for reading: an `MBTilesStore` opened read-only or a `PMTilesReader`,
    /// told apart by the file's first bytes, not its name (``TileSourceLocation/file(_:)``); or a
    /// PMTiles archive on a web server (an `http(s)` URL), read by ranges (``HTTPRangeSource``).
    ///
    /// - Throws: ``TilesetsError`` naming the file or URL: missing, a folder, neither format, or
    ///   damaged; an archive that cannot be read over HTTP; an MBTiles URL.
    static func openFile(_ url: URL, http configuration: HTTPTileSource.Configuration) throws(TilesetsError)
        -> any TileSource
    {
        if HTTPRangeSource.isRemote(url) {
            guard url.pathExtension.lowercased() != "mbtiles" else {
                throw .notATileset(
                    path: url.absoluteString,
                    reason:
                        "an MBTiles file is an SQLite database, which cannot be read over HTTP: download it, or convert it to PMTiles"
                )
            }
            do throws(PMTilesError) {
                return try PMTilesReader(source: HTTPRangeSource(url: url, configuration: configuration))
            } catch {
                throw .pmtiles(error)
            }
        }
        switch try TilesetFormat(sniffing: url) {
        case .mbtiles:
            do throws(MBTilesError) { return try MBTilesStore(url: url, mode: .readOnly) } catch {
                throw .mbtiles(error)
            }
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
