public import Foundation
public import MapCore
public import MapUtilities
public import Tilesets
/// Why raster tiles could not be had.
///
/// Every case names the URL or file, so the message can be shown to a person as is:
///
/// ```swift
/// do { _ = try source.images(for: tiles) }
/// catch { print(error) }
/// // cannot reach tile.example.org: connection refused (offline?) while fetching https://tile.example.org/3/4/2.png
/// ```
///
/// Reading or fetching the bytes fails with the tile source's error, wrapped as ``tileset(_:)``
/// (`TilesetsError`: files, HTTP); decoding them fails here.
public enum RasterTileError: Error, Hashable, Sendable {
    /// A tile's bytes are not an image this package decodes (PNG or JPEG). `source` is the URL
    /// or file it came from.
    case undecodableTile(tile: TileID, source: String, reason: String)
    /// The tiles of a tileset are not raster images: vector tiles, say.
    case unsupportedFormat(path: String, format: String)
    /// A source description that names no tiles, or tiles in a way not supported.
    case invalidDescription(reason: String)
    /// The tile source could not be read: a tileset file (MBTiles or PMTiles) or a tile server
    /// (see `TilesetsError`).
    case tileset(TilesetsError)
}

extension RasterTileError: CustomStringConvertible, LocalizedError {
    /// A one-line message for a person, naming the URL or file.
    public var description: String {
        switch self {
        case .undecodableTile(let tile, let source, let reason):
            "tile \(tile) from \(source): not a PNG or JPEG image: \(reason)"
        case .unsupportedFormat(let path, let format):
            "\(path): the tiles are '\(format)', not raster images (PNG or JPEG)"
        case .invalidDescription(let reason):
            "raster source: \(reason)"
        case .tileset(let error):
            error.description
        }
    }

    public var errorDescription: String? { description }
}

/// Bad input: exit status 2.
extension RasterTileError: ExitStatusError {}
