import Dispatch
import Foundation
public import MapCore
public import MapRenderer

extension TileExport {
    /// What an export would write, zoom by zoom (the shard's part when sharded), without
    /// rendering: what `tiles export --dry-run` prints first.
    public struct Plan: Hashable, Sendable {
        /// One zoom's tiles and metatiles.
        public struct Zoom: Hashable, Sendable {
            public var zoom: Int
            public var tileCount: Int
            public var metatileCount: Int
        }

        /// Every zoom of the cover, in order.
        public var zooms: [Zoom]
        /// Tiles over every zoom.
        public var tileCount: Int { zooms.reduce(0) { $0 + $1.tileCount } }
        /// Metatiles over every zoom.
        public var metatileCount: Int { zooms.reduce(0) { $0 + $1.metatileCount } }
    }

    /// The export's tiles and metatiles per zoom.
    ///
    /// - Throws: ``MapCore/MapCoreError`` for a shard the cover cannot be split into.
    public func plan() throws(MapCoreError) -> Plan {
        var counts: [Int: (tiles: Int, metatiles: Int)] = [:]
        if let shard = options.shard {
            for metatile in try cover.metatiles(inShard: shard.index, of: shard.count) {
                counts[metatile.z, default: (0, 0)].tiles += cover.tileCount(in: metatile)
                counts[metatile.z, default: (0, 0)].metatiles += 1
            }
        } else {
            for z in cover.zoomLevels { counts[z] = (cover.tileCount(atZoom: z), cover.metatileCount(atZoom: z)) }
        }
        return Plan(
            zooms: cover.zoomLevels.map { z in
                Plan.Zoom(zoom: z, tileCount: counts[z]?.tiles ?? 0, metatileCount: counts[z]?.metatiles ?? 0)
            })
    }

    /// What one metatile at the deepest zoom (the one at the middle of the area) costs,
    /// rendered and encoded as the export would, timed on its second render (the first also
    /// places the zoom's labels for the whole world, once per export).
    public struct SampleEstimate: Hashable, Sendable {
        /// The zoom sampled: the deepest.
        public var zoom: Int
        /// Tiles in the sample.
        public var sampleTileCount: Int
        /// Encoded bytes per tile, on average.
        public var bytesPerTile: Double
        /// Rendering and encoding time per tile, on one thread.
        public var secondsPerTile: Double

        /// The bytes of `tileCount` such tiles, before deduplication.
        public func bytes(forTiles tileCount: Int) -> Double { bytesPerTile * Double(tileCount) }

        /// The time `tileCount` such tiles take on `jobs` threads (no more than the cores).
        public func seconds(forTiles tileCount: Int, jobs: Int) -> Double {
            secondsPerTile * Double(tileCount) / Double(max(1, min(jobs, ProcessInfo.processInfo.activeProcessorCount)))
        }
    }

    /// Renders the sample metatile; nil when the deepest zoom has no tile in the area.
    ///
    /// - Throws: ``MapRenderer/RendererError`` when the sample cannot be rendered.
    public func sampleEstimate() throws(RendererError) -> SampleEstimate? {
        let deepest = cover.zoomLevels.upperBound
        guard let rows = cover.tileRows(atZoom: deepest), let columns = cover.tileColumns(atZoom: deepest).first,
            let middle = try? TileID(
                z: deepest, x: (columns.lowerBound + columns.upperBound) / 2, y: (rows.lowerBound + rows.upperBound) / 2
            )
        else { return nil }
        let sample = MetatileID(containing: middle, size: cover.metatileSize)
        let render = { () throws(RendererError) in
            try renderer.encodedTiles(of: sample, only: cover.tiles(in: sample), encoding: options.encoding)
        }
        _ = try render()
        let start = DispatchTime.now().uptimeNanoseconds
        let tiles = try render()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard !tiles.isEmpty else { return nil }
        return SampleEstimate(
            zoom: deepest, sampleTileCount: tiles.count,
            bytesPerTile: Double(tiles.reduce(0) { $0 + $1.data.count }) / Double(tiles.count),
            secondsPerTile: seconds / Double(tiles.count))
    }
}
