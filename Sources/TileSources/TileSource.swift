public import Foundation
public import MapCore

/// Encoded tiles (PNG, JPEG, WebP or vector-tile bytes) by tile address, wherever they come from:
/// an MBTiles file (`MBTilesStore`), a PMTiles archive (`PMTilesReader`), tile URL templates
/// fetched over HTTP into a cache (`HTTPTileSource`). What raster and vector sources draw from,
/// what `serve` serves and what the `tiles` tools read.
///
/// The source does not look inside the bytes: raster sources decode them, a tile server sends
/// them as they are. For example:
///
/// ```swift
/// let source = try TileSourceLocation.file(URL(fileURLWithPath: "world.pmtiles")).open()  // Tilesets
/// let png = try source.tile(at: TileID(z: 3, x: 4, y: 2))
/// let zooms = try source.metadata().minZoom
/// try source.forEachTile { tile, data in ... }
/// ```
///
/// Every method may be called from any thread at once. Errors are the conforming type's own
/// (`MBTilesError`, `PMTilesError`, `TilesetsError`), each naming its file or URL in its
/// `description`.
public protocol TileSource: Sendable {
    /// Where the tiles come from, as messages name it: a file's path, or a URL template.
    var sourceDescription: String { get }

    /// The file the tiles are read from; nil for a source that is not one local file (HTTP).
    var fileURL: URL? { get }

    /// Where one tile comes from, for messages about it: its URL for HTTP. The default is the
    /// file's path, else ``sourceDescription``.
    func location(of id: TileID) -> String

    /// A tile's bytes as stored, or nil when the source has none at that address.
    func tile(at id: TileID) throws -> Data?

    /// The bytes of several tiles at once; tiles the source does not have are absent. The default
    /// asks ``tile(at:)`` for each in turn; sources that can do better (one transaction, requests
    /// in parallel) do.
    func tiles(at ids: [TileID]) throws -> [TileID: Data]

    /// The tiles' metadata, format-neutral (see ``TileMetadata``).
    func metadata() throws -> TileMetadata

    /// The lowest and highest zoom levels that hold tiles, for when the metadata leaves them
    /// out: found from the tiles themselves where that is cheap (an MBTiles file's index). The
    /// default is the metadata's `minZoom`...`maxZoom`, nil when it lacks either.
    func zoomRange() throws -> ClosedRange<Int>?

    /// Calls `body` with every tile in the order the file keeps them (MBTiles: zoom, column, TMS
    /// row; PMTiles: zoom, then along the Hilbert curve), one call per address.
    ///
    /// - Throws: The source's error when it cannot be read (a source that cannot list its tiles,
    ///   such as HTTP, throws at once), or what `body` throws.
    func forEachTile(_ body: (TileID, Data) throws -> Void) throws
}

// MARK: - Default implementations

extension TileSource {
    public func location(of id: TileID) -> String { fileURL?.path ?? sourceDescription }

    public func zoomRange() throws -> ClosedRange<Int>? {
        let metadata = try metadata()
        guard let minimum = metadata.minZoom, let maximum = metadata.maxZoom, minimum <= maximum else { return nil }
        return minimum...maximum
    }

    public func tiles(at ids: [TileID]) throws -> [TileID: Data] {
        var found: [TileID: Data] = [:]
        for id in ids {
            if let data = try tile(at: id) { found[id] = data }
        }
        return found
    }
}
