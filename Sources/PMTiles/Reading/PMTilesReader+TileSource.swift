public import Foundation
public import MapCore
public import TileSources

/// A PMTiles archive is a tile source: tiles by address (with `pread`, from any number of threads
/// at once), its JSON metadata as ``TileSources/TileMetadata`` with the header's zooms, bounds and
/// tile type where the JSON leaves them out, and its tiles in tile-id order (zoom, then along the
/// Hilbert curve; a run of repeated tiles calls `body` once per address). Errors are
/// ``PMTilesError``s naming the file.
extension PMTilesReader: TileSource {
    /// The file's path, or the archive's URL.
    public var sourceDescription: String { source.name }

    /// The file; nil for an archive on a web server.
    public var fileURL: URL? { url.isFileURL ? url : nil }

    /// Where tiles are looked up: the file's path, or the archive's URL.
    public func location(of id: TileID) -> String { source.name }

    /// The archive's JSON metadata (``metadataJSON``) as ``TileSources/TileMetadata`` (see
    /// `init(pmtilesJSON:)`); the zoom range, bounds and format come from the header when the JSON
    /// lacks them.
    public func metadata() -> TileMetadata {
        let version = version
        let header = version.header
        var metadata = TileMetadata(pmtilesJSON: version.metadataJSON)
        if metadata.minZoom == nil, let zooms = header.zoomRange { metadata.minZoom = zooms.lowerBound }
        if metadata.maxZoom == nil, let zooms = header.zoomRange { metadata.maxZoom = zooms.upperBound }
        if metadata.bounds == nil { metadata.bounds = header.bounds }
        if metadata.format == nil { metadata.format = header.tileType.format.flatMap(TileFormat.init(metadataValue:)) }
        return metadata
    }
}
