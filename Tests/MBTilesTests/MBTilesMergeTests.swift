import Foundation
import MapCore
import MapSQLite
import MapTestSupport
import Testing
import TileSources

@testable import MBTiles

/// Merging files (shards into one) and comparing them tile by tile.
struct MBTilesMergeTests {
    private func file(
        _ name: String, _ tiles: [TileID: Data], metadata: TileMetadata, schema: MBTilesSchema = .normalized,
        in directory: TemporaryDirectory
    ) throws -> MBTilesStore {
        let store = try MBTilesStore(url: directory.file(name), mode: .create, newFileSchema: schema)
        try store.writeMetadata(metadata)
        let writer = try MBTilesWriter(store: store)
        try writer.add(tiles)
        try writer.finish(journalMode: .wal)
        return store
    }

    @Test func shardsMergeIntoTheirUnion() throws {
        let directory = try TemporaryDirectory()
        let all = try TestTiles.seeded(maximumZoom: 7)
        let sorted = all.keys.sorted()
        // Four shards by position, one flat, as machines running different versions might write.
        var shards: [MBTilesStore] = []
        for index in 0..<4 {
            let part = Dictionary(
                uniqueKeysWithValues: sorted.enumerated().filter { $0.offset % 4 == index }.map {
                    ($0.element, all[$0.element]!)
                })
            var metadata = TileMetadata(name: "World", format: .png, minZoom: 0, maxZoom: 7)
            metadata.bounds = BoundingBox(west: Double(index * 10), south: -10, east: Double(index * 10 + 5), north: 10)
            shards.append(
                try file(
                    "shard-\(index).mbtiles", part, metadata: metadata, schema: index == 2 ? .flat : .normalized,
                    in: directory))
        }
        let merged = try MBTilesStore(url: directory.file("merged.mbtiles"), mode: .create)
        let writer = try MBTilesWriter(store: merged, tilesPerBatch: 100)
        var added = 0
        for shard in shards {
            let report = try writer.merge(from: shard)
            added += report.addedTileCount
            #expect(report.conflictingTiles.isEmpty)
            #expect(report.metadataConflicts.isEmpty)
        }
        let hash = try writer.finish()
        #expect(added == all.count)

        // One file written at once has the same tiles and the same agg_tiles_hash.
        let single = try file("single.mbtiles", all, metadata: TileMetadata(name: "World"), in: directory)
        #expect(hash == (try single.aggregateTilesHash()))
        #expect(try merged.compareTiles(with: single) { _ in }.filesMatch)
        let metadata = try merged.metadata()
        #expect(metadata.bounds == BoundingBox(west: 0, south: -10, east: 35, north: 10))
        #expect(metadata.minZoom == 0 && metadata.maxZoom == 7)
        #expect(try merged.validate().isValid)
    }

    @Test func conflictsAreReportedAndKeptOrReplaced() throws {
        let directory = try TemporaryDirectory()
        let a = try TileID(z: 3, x: 1, y: 2)
        let b = try TileID(z: 3, x: 2, y: 2)
        let c = try TileID(z: 4, x: 0, y: 0)
        let first = try file(
            "first.mbtiles", [a: Data([1]), b: Data([2])],
            metadata: TileMetadata(name: "First", format: .png, minZoom: 3, maxZoom: 3), in: directory)
        let second = try file(
            "second.mbtiles", [a: Data([1]), b: Data([9]), c: Data([3])],
            metadata: TileMetadata(name: "Second", format: .png, minZoom: 3, maxZoom: 4), schema: .flat, in: directory)

        let keep = try MBTilesWriter(store: first).merge(from: second)
        #expect(keep.addedTileCount == 1)
        #expect(keep.identicalTileCount == 1)
        #expect(keep.conflictingTiles == [b])
        #expect(
            keep.metadataConflicts == [MBTilesMetadataConflict(key: "name", keptValue: "First", otherValue: "Second")])
        #expect(try first.tile(at: b) == Data([2]))
        #expect(try first.tile(at: c) == Data([3]))
        #expect(try first.metadata().maxZoom == 4)
        #expect(try first.metadataValue(forKey: "agg_tiles_hash") == nil)

        let replace = try MBTilesWriter(store: first).merge(from: second, onConflict: .replace)
        #expect(replace.conflictingTiles == [b])
        #expect(replace.addedTileCount == 0)
        #expect(try first.tile(at: b) == Data([9]))
    }

    @Test(arguments: [MBTilesSchema.flat, .normalized])
    func comparisonFindsEveryKindOfDifference(otherSchema: MBTilesSchema) throws {
        let directory = try TemporaryDirectory()
        let same = try TileID(z: 1, x: 0, y: 0)
        let changed = try TileID(z: 1, x: 1, y: 0)
        let onlyHere = try TileID(z: 2, x: 3, y: 3)
        let onlyThere = try TileID(z: 0, x: 0, y: 0)
        let this = try file(
            "this.mbtiles", [same: Data([1]), changed: Data([2]), onlyHere: Data([3])],
            metadata: TileMetadata(name: "A"), in: directory)
        let other = try file(
            "other.mbtiles", [same: Data([1]), changed: Data([5]), onlyThere: Data([4])],
            metadata: TileMetadata(name: "B"), schema: otherSchema, in: directory)
        var seen: [MBTilesTileComparison] = []
        let counts = try this.compareTiles(with: other) { seen.append($0) }
        #expect(
            seen == [
                .onlyInOther(onlyThere, Data([4])),
                .identical(same),
                .different(changed, this: Data([2]), other: Data([5])),
                .onlyInThis(onlyHere, Data([3])),
            ])
        #expect(counts == MBTilesComparisonCounts(identical: 1, onlyInThis: 1, onlyInOther: 1, different: 1))
        #expect(!counts.filesMatch)
    }

    @Test func iterationIsInFileOrder() throws {
        let directory = try TemporaryDirectory()
        let tiles = try TestTiles.seeded(maximumZoom: 5)
        let store = try file("order.mbtiles", tiles, metadata: TileMetadata(name: "Order"), in: directory)
        var read: [TileID] = []
        try store.forEachTile { id, data in
            #expect(data == tiles[id])
            read.append(id)
        }
        #expect(read == tiles.keys.sorted(by: MBTilesStore.precedesInFileOrder))
        var zoomThree: [TileID] = []
        let cursor = try store.tileCursor(zoomLevels: 3...3, readingData: false)
        while let tile = try cursor.next() {
            #expect(tile.data == nil && tile.imageID?.count == 32)
            zoomThree.append(tile.id)
        }
        #expect(zoomThree == read.filter { $0.z == 3 })
    }
}
