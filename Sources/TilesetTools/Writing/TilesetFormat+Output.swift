import Foundation
import Tilesets

extension TilesetFormat {
    /// The format an output's name asks for: `.mbtiles` or `.pmtiles`, in any case.
    ///
    /// - Throws: ``TilesetToolsError/tileset(_:)`` (`unknownFormat`) for any other extension.
    init(output: URL) throws(TilesetToolsError) {
        do throws(TilesetsError) { self = try TilesetFormat(path: output.path) } catch { throw .tileset(error) }
    }
}
