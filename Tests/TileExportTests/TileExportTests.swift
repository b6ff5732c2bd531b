import Foundation
import MBTiles
import MapCore
import MapData
import MapRenderer
import MapStyle
import MapTestSupport
import PMTiles
import Synchronization
import Testing
import TileExport
import TileSources
import TilesetTools

/// The export on a small area of the real basemap: every tile once, the renderer's bytes,
/// cancellation and resuming, shards.
@Suite struct TileExportTests {
    /// Iberia at zooms 0 to 6 in metatiles of 2 × 2: 30-odd tiles in a dozen metatiles.
    static let iberia = try! CoordinateRegion(west: -10, south: 35, east: 5, north: 45)

    static func renderer(metatileSize: Int = 2) throws -> MapTileRenderer {
        let style = try Style.named("standard", in: RepositoryFiles.styles).style
        return try MapTileRenderer(
            data: MapData(basemapDirectory: RepositoryFiles.basemap), style: style,
            options: TileRenderOptions(metatileSize: metatileSize))
    }

    /// The tile count of a bounding box at a zoom, from the slippy-map formulas (OpenStreetMap
    /// wiki), independent of MetatileCover: columns floor((lon + 180) / 360 · 2^z), rows from
    /// the Mercator y of each edge.
    static func formulaTileCount(west: Double, south: Double, east: Double, north: Double, zoom: Int) -> Int {
        let n = Double(1 << zoom)
        func column(_ longitude: Double) -> Int { min(Int(n) - 1, Int(((longitude + 180) / 360 * n).rounded(.down))) }
        func row(_ latitude: Double) -> Int {
            let radians = latitude * .pi / 180
            return min(Int(n) - 1, Int(((1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2 * n).rounded(.down)))
        }
        return (column(east) - column(west) + 1) * (row(south) - row(north) + 1)
    }

    @Test func exportWritesEveryTileOfTheCoverWithTheRenderersBytes() throws {
        let folder = try TemporaryDirectory()
        let output = folder.url.appendingPathComponent("iberia.pmtiles")
        let renderer = try Self.renderer()
        let cover = try MetatileCover(region: Self.iberia, zoomLevels: 0...6, metatileSize: 2)
        let export = TileExport(
            renderer: renderer, cover: cover, output: output, metadata: TileMetadata(name: "Iberia"))
        let summary = try export.run()

        let expected = (0...6).reduce(0) {
            $0 + Self.formulaTileCount(west: -10, south: 35, east: 5, north: 45, zoom: $1)
        }
        #expect(summary.tileCount == expected)
        #expect(!FileManager.default.fileExists(atPath: TilesetWriter.workFile(for: output).path))
        let reader = try PMTilesReader(url: output)
        #expect(reader.header.addressedTileCount == UInt64(expected))
        #expect(reader.metadata().name == "Iberia")
        #expect(reader.header.zoomRange == 0...6)
        // Madrid's tile at zoom 6 holds what the renderer draws for it in its metatile.
        let madrid = try TileID(z: 6, x: 31, y: 24)
        let metatile = renderer.metatile(containing: madrid)
        let direct = try renderer.encodedTiles(of: metatile, only: cover.tiles(in: metatile))
        #expect(direct.contains { $0.tile == madrid })
        #expect(try reader.tile(at: madrid) == direct.first { $0.tile == madrid }?.data)
    }

    @Test func aCancelledExportResumesToTheSameFileAsOneRun() throws {
        let folder = try TemporaryDirectory()
        let renderer = try Self.renderer()
        let cover = try MetatileCover(region: Self.iberia, zoomLevels: 0...6, metatileSize: 2)
        let whole = folder.url.appendingPathComponent("whole.mbtiles")
        try TileExport(renderer: renderer, cover: cover, output: whole, metadata: TileMetadata(name: "x")).run()

        // Cancelled after three metatiles: those are committed to the work file, nothing else.
        let resumed = folder.url.appendingPathComponent("resumed.mbtiles")
        let metatilesDone = Atomic<Int>(0)
        let first = TileExport(
            renderer: renderer, cover: cover, output: resumed, metadata: TileMetadata(name: "x"),
            options: .init(jobs: 1))
        #expect {
            try first.run(isCancelled: { metatilesDone.load(ordering: .relaxed) >= 3 }) { _ in
                metatilesDone.add(1, ordering: .relaxed)
            }
        } throws: { error in
            guard case TileExportError.cancelled(_, let committed) = error else { return false }
            return committed > 0 && committed < cover.tileCount
        }
        #expect(!FileManager.default.fileExists(atPath: resumed.path))
        let workFile = TilesetWriter.workFile(for: resumed)
        let committed = try MBTilesStore(url: workFile).count()

        // Without --resume the work file is refused and left alone.
        #expect(throws: TileExportError.self) { try first.run() }
        #expect(try MBTilesStore(url: workFile).count() == committed)

        let second = TileExport(
            renderer: renderer, cover: cover, output: resumed, metadata: TileMetadata(name: "x"),
            options: .init(resume: true))
        let summary = try second.run()
        #expect(summary.resumedTileCount == committed)
        #expect(summary.renderedTileCount == cover.tileCount - committed)
        let (a, b) = (try MBTilesStore(url: whole), try MBTilesStore(url: resumed))
        #expect(try b.count() == cover.tileCount)
        #expect(try b.validate().isValid)
        #expect(try a.aggregateTilesHash() == b.aggregateTilesHash())
    }

    @Test func aResumeOfOtherTilesIsRefused() throws {
        let folder = try TemporaryDirectory()
        let renderer = try Self.renderer()
        let output = folder.url.appendingPathComponent("x.mbtiles")
        let cover = try MetatileCover(region: Self.iberia, zoomLevels: 0...3, metatileSize: 2)
        #expect(throws: TileExportError.self) {
            try TileExport(renderer: renderer, cover: cover, output: output, metadata: TileMetadata(name: "x"))
                .run(isCancelled: { true })
        }
        let deeper = try MetatileCover(region: Self.iberia, zoomLevels: 0...4, metatileSize: 2)
        #expect {
            try TileExport(
                renderer: renderer, cover: deeper, output: output, metadata: TileMetadata(name: "x"),
                options: .init(resume: true)
            ).run()
        } throws: { error in
            "\(error)".contains("zoom: 0-3 then, 0-4 now")
        }
    }

    @Test func shardsMergedEqualOneExport() throws {
        let folder = try TemporaryDirectory()
        let renderer = try Self.renderer()
        let cover = try MetatileCover(region: Self.iberia, zoomLevels: 0...6, metatileSize: 2)
        let whole = folder.url.appendingPathComponent("whole.mbtiles")
        try TileExport(renderer: renderer, cover: cover, output: whole, metadata: TileMetadata(name: "x")).run()

        let merged = try MBTilesStore(url: folder.url.appendingPathComponent("merged.mbtiles"), mode: .create)
        let writer = try MBTilesWriter(store: merged)
        var total = 0
        for index in 0..<4 {
            let shard = folder.url.appendingPathComponent("shard-\(index).mbtiles")
            let export = TileExport(
                renderer: renderer, cover: cover, output: shard, metadata: TileMetadata(name: "x"),
                options: .init(shard: .init(index: index, count: 4)))
            total += try export.run().tileCount
            let report = try writer.merge(from: MBTilesStore(url: shard))
            #expect(report.conflictingTiles.isEmpty)
        }
        try writer.finish()
        #expect(total == cover.tileCount)
        #expect(try merged.count() == cover.tileCount)
        #expect(try merged.aggregateTilesHash() == MBTilesStore(url: whole).aggregateTilesHash())
    }
}
