public import Foundation
public import GeoData
public import MapCore
public import MapUtilities
public import Tilesets

/// Why the map's data could not be had: a source that cannot be opened or read, a basemap that
/// is missing, raster or vector tiles that cannot be read or decoded.
///
/// Every case names the file, URL or source, so the message can be shown to a person as is:
///
/// ```swift
/// do { _ = try source.images(for: tiles) }
/// catch { print(error) }
/// // cannot reach tile.example.org: connection refused (offline?) while fetching https://tile.example.org/3/4/2.png
/// ```
///
/// A render that fails on data wraps it as `RendererError.mapData(_:)`, with the same message.
/// Reading or fetching tile bytes fails with the tile source's error, wrapped as ``tileset(_:)``
/// (`TilesetsError`: files, HTTP); decoding them fails here.
public enum MapDataError: Error, Hashable, Sendable {
    /// The bundled basemap is not where the style expects it.
    case missingBasemap(path: String)
    /// A style layer names a table its GeoPackage does not have, or a source could not be read.
    case data(GeoDataError)
    /// A style's raster or image source that cannot be opened or read, named by its id.
    case raster(source: String, reason: String)
    /// A vector tileset that cannot be read: not a tileset, not of vector tiles, or a damaged
    /// tile (the reason names it).
    case vectorTiles(path: String, reason: String)
    /// A raster tile's bytes are not an image this package decodes (PNG or JPEG). `source` is
    /// the URL or file it came from.
    case undecodableRasterTile(tile: TileID, source: String, reason: String)
    /// The tiles of a raster tileset are not raster images: vector tiles, say.
    case unsupportedRasterFormat(path: String, format: String)
    /// A raster source description that names no tiles, or tiles in a way not supported.
    case invalidRasterSource(reason: String)
    /// The tile source could not be read: a tileset file (MBTiles or PMTiles) or a tile server
    /// (see `TilesetsError`).
    case tileset(TilesetsError)
}

extension MapDataError: CustomStringConvertible, LocalizedError {
    /// A one-line message for a person, naming the file, URL or source.
    public var description: String {
        switch self {
        case .missingBasemap(let path):
            "\(path): the basemap is missing; run scripts/setup.sh to install it"
        case .data(let error):
            error.description
        case .raster(let source, let reason):
            "raster source '\(source)': \(reason)"
        case .vectorTiles(let path, let reason):
            reason.hasPrefix(path) ? reason : "\(path): \(reason)"
        case .undecodableRasterTile(let tile, let source, let reason):
            "tile \(tile) from \(source): not a PNG or JPEG image: \(reason)"
        case .unsupportedRasterFormat(let path, let format):
            "\(path): the tiles are '\(format)', not raster images (PNG or JPEG)"
        case .invalidRasterSource(let reason):
            "raster source: \(reason)"
        case .tileset(let error):
            error.description
        }
    }

    public var errorDescription: String? { description }
}

/// Bad input: exit status 2.
extension MapDataError: ExitStatusError {}
