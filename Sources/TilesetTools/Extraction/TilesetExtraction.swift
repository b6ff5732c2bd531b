public import Foundation
public import MapCore
import MapUtilities
public import TileSources
import Tilesets

/// Cuts a regional tileset out of a larger one, local or on a web server: the tiles of an area
/// over a range of zooms, written to a new MBTiles or PMTiles file (by the output's extension)
/// with the source's metadata, its bounds narrowed to the area and its zooms to those written.
/// What `mapwright tiles extract SOURCE OUTPUT --bbox W,S,E,N --zoom MIN-MAX` runs, as
/// `pmtiles extract` does. For example:
///
/// ```swift
/// let planet = try TileSourceLocation.file(URL(string: "https://example.org/planet.pmtiles")!).open()
/// let report = try TilesetExtraction.extract(
///     planet, to: URL(fileURLWithPath: "helsinki.pmtiles"),
///     region: CoordinateRegion(west: 24.8, south: 60.1, east: 25.1, north: 60.25), zoomLevels: 0...14)
/// report.tileCount  // tiles written
/// ```
///
/// The area's tiles are asked for in batches of ``batchSize`` (``TileSources/TileSource/tiles(at:)``:
/// a remote archive fetches each batch's leaf directories and tiles in parallel); an area of more
/// than ``maximumLookupCount`` tiles is found by walking the source's tiles instead. Tiles are
/// copied as stored (never decoded), through ``TilesetWriter``'s work file, so a failed
/// extraction leaves no output.
public enum TilesetExtraction {
    /// How an extraction goes.
    public struct Progress: Hashable, Sendable {
        /// Tiles of the area looked up so far.
        public var tilesDone: Int
        /// Tiles of the area in all.
        public var tilesTotal: Int
        /// Tiles found and written so far.
        public var tilesWritten: Int
    }

    /// What an extraction wrote.
    public struct Report: Hashable, Sendable {
        /// The tiles written.
        public var tileCount: Int
        /// The output's metadata.
        public var metadata: TileMetadata
    }

    /// Tiles asked of the source at once: 512.
    public static let batchSize = 512
    /// The most tiles an area may have for them to be looked up by address: 1,000,000; a larger
    /// area (the world at zoom 10 and deeper) is found by walking the source's tiles.
    public static let maximumLookupCount = 1_000_000

    /// Writes the tiles of `source` within `region` and `zoomLevels` into `output`.
    ///
    /// - Parameters:
    ///   - region: The area; a tile is taken when it overlaps it. Nil takes the whole world.
    ///   - zoomLevels: The zooms, narrowed to those the source has. Nil takes the source's.
    ///   - progress: Called after each batch, on the calling thread.
    /// - Returns: The tiles written and the output's metadata.
    /// - Throws: ``TilesetToolsError`` naming the file or URL at fault;
    ///   ``TilesetToolsError/invalidExport(reason:)`` when `output` is the source itself, or the
    ///   area and zooms hold no tile of the source.
    @discardableResult
    public static func extract(
        _ source: any TileSource, to output: URL, region: CoordinateRegion?, zoomLevels: ClosedRange<Int>?,
        progress: (Progress) -> Void = { _ in }
    ) throws(TilesetToolsError) -> Report {
        _ = try TilesetFormat(output: output)
        if output.standardizedFileURL.resolvingSymlinksInPath().path == source.resolvedFilePath {
            throw .invalidExport(
                reason: "\(output.displayPath): the output is the tileset being extracted from; name another file")
        }
        let sourceMetadata = try TilesetToolsError.wrapping { try source.metadata() }
        let sourceZooms = try TilesetToolsError.wrapping { try source.zoomRange() }
        let zooms = try Self.zooms(asked: zoomLevels, source: sourceZooms, name: source.displayPath)
        let cover: MetatileCover
        do throws(MapCoreError) {
            cover = try MetatileCover(mapRect: region?.mapRect ?? .world, zoomLevels: zooms)
        } catch {
            throw .invalidExport(reason: "\(error)")
        }
        var written = 0
        var writtenZooms: ClosedRange<Int>?
        return try TilesetWriter.withTemporary(for: output) { (writer) throws(TilesetToolsError) in
            func add(_ tiles: [TileID: Data]) throws(TilesetToolsError) {
                guard !tiles.isEmpty else { return }
                try writer.add(tiles)
                written += tiles.count
                for zoom in Set(tiles.keys.map(\.z)) {
                    writtenZooms =
                        writtenZooms.map { min($0.lowerBound, zoom)...max($0.upperBound, zoom) } ?? zoom...zoom
                }
            }
            let total = cover.tileCount
            if total <= maximumLookupCount {
                var done = 0
                var batch: [TileID] = []
                func flush() throws(TilesetToolsError) {
                    try add(try TilesetToolsError.wrapping { try source.tiles(at: batch) })
                    done += batch.count
                    batch.removeAll(keepingCapacity: true)
                    progress(Progress(tilesDone: done, tilesTotal: total, tilesWritten: written))
                }
                for zoom in zooms {
                    guard let rows = cover.tileRows(atZoom: zoom) else { continue }
                    for row in rows {
                        for columns in cover.tileColumns(atZoom: zoom) {
                            for column in columns {
                                guard let tile = try? TileID(z: zoom, x: column, y: row) else { continue }
                                batch.append(tile)
                                if batch.count == batchSize { try flush() }
                            }
                        }
                    }
                }
                try flush()
            } else {
                var pending: [TileID: Data] = [:]
                try TilesetToolsError.wrapping {
                    try source.forEachTile { tile, data in
                        guard cover.contains(tile) else { return }
                        pending[tile] = data
                        if pending.count == batchSize {
                            try add(pending)
                            pending.removeAll(keepingCapacity: true)
                            progress(Progress(tilesDone: written, tilesTotal: total, tilesWritten: written))
                        }
                    }
                }
                try add(pending)
            }
            guard written > 0, let writtenZooms else {
                throw .invalidExport(
                    reason:
                        "\(source.displayPath): no tiles within the area at zooms \(zooms.lowerBound)-\(zooms.upperBound)"
                )
            }
            let metadata = Self.metadata(sourceMetadata, region: region, zoomLevels: writtenZooms)
            try writer.finish(metadata: metadata)
            return Report(tileCount: written, metadata: metadata)
        }
    }

    /// The zooms to extract: those asked for that the source has.
    static func zooms(asked: ClosedRange<Int>?, source: ClosedRange<Int>?, name: String) throws(TilesetToolsError)
        -> ClosedRange<Int>
    {
        guard let source else {
            guard let asked else { throw .tileset(.invalidSource(reason: "\(name) does not say its zooms: give them")) }
            return asked
        }
        guard let asked else { return source }
        guard asked.overlaps(source) else {
            throw .invalidExport(
                reason:
                    "\(name) has zooms \(source.lowerBound)-\(source.upperBound), none of \(asked.lowerBound)-\(asked.upperBound)"
            )
        }
        return asked.clamped(to: source)
    }

    /// The source's metadata with its bounds narrowed to the area, its zooms to those written and
    /// its centre moved into the bounds when it falls outside.
    static func metadata(_ source: TileMetadata, region: CoordinateRegion?, zoomLevels: ClosedRange<Int>)
        -> TileMetadata
    {
        var metadata = source
        metadata.minZoom = zoomLevels.lowerBound
        metadata.maxZoom = zoomLevels.upperBound
        if let region, !region.crossesAntimeridian {
            // To 10^-7 degrees, as a PMTiles header keeps them: the region's edges come back from
            // its centre and span with the last digits off (24.939999999999998).
            func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }
            let area = BoundingBox(
                west: rounded(region.west), south: rounded(max(region.south, -85.051129)),
                east: rounded(region.east), north: rounded(min(region.north, 85.051129)))
            if let bounds = source.bounds {
                if bounds.intersects(area) {
                    metadata.bounds = BoundingBox(
                        west: max(bounds.west, area.west), south: max(bounds.south, area.south),
                        east: min(bounds.east, area.east), north: min(bounds.north, area.north))
                }
            } else {
                metadata.bounds = area
            }
        }
        if let bounds = metadata.bounds {
            let center = metadata.center
            let inside =
                center.map {
                    (bounds.west...bounds.east).contains($0.longitude)
                        && (bounds.south...bounds.north).contains($0.latitude)
                } ?? false
            let zoom = min(max(center?.zoom ?? zoomLevels.lowerBound, zoomLevels.lowerBound), zoomLevels.upperBound)
            metadata.center =
                inside
                ? TileMetadata.Center(longitude: center!.longitude, latitude: center!.latitude, zoom: zoom)
                : TileMetadata.Center(
                    longitude: (bounds.west + bounds.east) / 2, latitude: (bounds.south + bounds.north) / 2, zoom: zoom)
        }
        return metadata
    }
}
