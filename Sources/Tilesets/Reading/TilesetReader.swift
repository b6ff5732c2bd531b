public import Foundation
public import MapCore
import MapUtilities
public import PMTiles
public import TileStore

/// A tileset file opened for reading, MBTiles or PMTiles alike: tiles by address, every tile in
/// turn, and the metadata. What `tiles info`, `extract`, `convert`, `diff` and a tile server read.
///
/// ```swift
/// let tileset = try TilesetReader(url: URL(fileURLWithPath: "world.pmtiles"))
/// let png = try tileset.tile(at: TileID(z: 3, x: 4, y: 2))
/// try tileset.forEachTile { tile, data in ... }
/// ```
///
/// The format is found from the file's first bytes, not its name. The reader is `Sendable`:
/// lookups may come from any number of threads at once (MBTiles through its pool of read-only
/// connections, PMTiles with `pread`).
public final class TilesetReader: Sendable {
    /// The file.
    public let url: URL
    /// Its format, from its first bytes.
    public let format: TilesetFormat
    private let source: Source

    private enum Source: Sendable {
        case mbtiles(MBTilesStore)
        case pmtiles(PMTilesReader)
    }

    /// Opens a tileset file for reading; nothing is written to it.
    ///
    /// - Throws: ``TilesetsError`` naming the file: missing, a folder, neither format, or damaged.
    public init(url: URL) throws(TilesetsError) {
        self.url = url
        format = try TilesetFormat(sniffing: url)
        switch format {
        case .mbtiles:
            do throws(TileStoreError) { source = .mbtiles(try MBTilesStore(url: url, mode: .readOnly)) } catch { throw .mbtiles(error) }
        case .pmtiles:
            do throws(PMTilesError) { source = .pmtiles(try PMTilesReader(url: url)) } catch { throw .pmtiles(error) }
        }
    }

    /// The MBTiles store, when the file is MBTiles.
    public var mbtilesStore: MBTilesStore? {
        if case .mbtiles(let store) = source { store } else { nil }
    }

    /// The PMTiles reader, when the file is PMTiles.
    public var pmtilesReader: PMTilesReader? {
        if case .pmtiles(let reader) = source { reader } else { nil }
    }

    /// The file's path, as messages name it.
    public var path: String { url.path }

    /// A tile's bytes as stored, or nil when the file has none at that address.
    ///
    /// - Throws: ``TilesetsError`` when the file cannot be read.
    public func tile(at id: TileID) throws(TilesetsError) -> Data? {
        switch source {
        case .mbtiles(let store):
            do throws(TileStoreError) { return try store.tile(at: id) } catch { throw .mbtiles(error) }
        case .pmtiles(let reader):
            do throws(PMTilesError) { return try reader.tile(at: id) } catch { throw .pmtiles(error) }
        }
    }

    /// Calls `body` with every tile: MBTiles in file order (zoom, column, TMS row), PMTiles in
    /// tile-id order (zoom, then along the Hilbert curve). A PMTiles run of repeated tiles calls
    /// `body` once per address, with the same bytes.
    ///
    /// - Throws: ``TilesetsError`` when the file cannot be read, or what `body` throws.
    public func forEachTile(_ body: (TileID, Data) throws -> Void) throws {
        switch source {
        case .mbtiles(let store): try store.forEachTile(body)
        case .pmtiles(let reader): try reader.forEachTile(body)
        }
    }

    /// The metadata, as MBTiles names it (a PMTiles archive's JSON metadata converted, see
    /// ``TileStore/MBTilesMetadata/init(_:)``), with the zoom range and bounds filled in from a
    /// PMTiles header when the JSON lacks them.
    ///
    /// - Throws: ``TilesetsError`` when the metadata cannot be read.
    public func metadata() throws(TilesetsError) -> MBTilesMetadata {
        switch source {
        case .mbtiles(let store):
            do throws(TileStoreError) { return try store.metadata() } catch { throw .mbtiles(error) }
        case .pmtiles(let reader):
            var metadata = MBTilesMetadata(reader.metadata)
            let header = reader.header
            if metadata.minZoom == nil, let zooms = header.zoomRange { metadata.minZoom = zooms.lowerBound }
            if metadata.maxZoom == nil, let zooms = header.zoomRange { metadata.maxZoom = zooms.upperBound }
            if metadata.bounds == nil { metadata.bounds = header.bounds }
            if metadata.format == nil {
                metadata.format = header.tileType.format.flatMap(TileFormat.init(metadataValue:))
            }
            return metadata
        }
    }
}
