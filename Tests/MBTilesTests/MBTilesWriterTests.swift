import Foundation
import MapCore
import MapSQLite
import MapTestSupport
import Synchronization
import Testing

@testable import MBTiles

/// Batches, what readers see of them, resuming, and readers working while the writer commits.
struct MBTilesWriterTests {
    private func tiles(zoom: Int) throws -> [TileID] {
        try TileID.tiles(covering: .world, zoom: zoom)
    }

    @Test(arguments: [MBTilesSchema.flat, .normalized])
    func anUncommittedBatchIsInvisibleAndACommittedOneIsVisible(schema: MBTilesSchema) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("batches.mbtiles")
        let store = try MBTilesStore(url: url, mode: .create, newFileSchema: schema)
        let writer = try MBTilesWriter(store: store, tilesPerBatch: 10)
        let elsewhere = try MBTilesStore(url: url)  // another connection, as another process has
        let ids = try tiles(zoom: 3)

        for id in ids.prefix(9) { try writer.add(TestTiles.bytes(id), at: id) }
        #expect(writer.pendingTileCount == 9)
        #expect(writer.committedTileCount == 0)
        #expect(try store.count() == 0)
        #expect(try elsewhere.count() == 0)
        #expect(try !store.contains(ids[0]))

        // The tenth tile fills the batch: one commit of ten.
        try writer.add(TestTiles.bytes(ids[9]), at: ids[9])
        #expect(writer.pendingTileCount == 0)
        #expect(writer.committedTileCount == 10)
        #expect(try elsewhere.count() == 10)
        #expect(try elsewhere.tile(at: ids[3]) == TestTiles.bytes(ids[3]))

        for id in ids[10..<13] { try writer.add(TestTiles.bytes(id), at: id) }
        #expect(try elsewhere.count() == 10)
        try writer.flush()
        #expect(try elsewhere.count() == 13)
        #expect(try elsewhere.existingTiles(zoom: 3) == Set(ids.prefix(13)))
    }

    @Test func theTilesOfOneCallCommitTogether() throws {
        let directory = try TemporaryDirectory()
        let store = try MBTilesStore(url: directory.file("metatile.mbtiles"), mode: .create)
        let writer = try MBTilesWriter(store: store, tilesPerBatch: 4)
        let metatile = try tiles(zoom: 3).prefix(10)
        try writer.add(Dictionary(uniqueKeysWithValues: metatile.map { ($0, TestTiles.bytes($0)) }))
        #expect(writer.committedTileCount == 10)
        #expect(try store.count() == 10)
    }

    /// What a kill -9 leaves: the file and its WAL as the OS has them, the pending batch nowhere.
    @Test func aKilledExportLeavesExactlyTheCommittedBatches() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("killed.mbtiles")
        let store = try MBTilesStore(url: url, mode: .create)
        let writer = try MBTilesWriter(store: store, tilesPerBatch: 50)
        let ids = try tiles(zoom: 4)
        for id in ids.prefix(130) { try writer.add(TestTiles.bytes(id), at: id) }
        #expect(writer.committedTileCount == 100)

        // Copy the files while the writer is alive, as a crash would leave them.
        let copy = directory.file("copy/killed.mbtiles")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            try FileManager.default.copyItem(atPath: url.path + suffix, toPath: copy.path + suffix)
        }
        let resumed = try MBTilesStore(url: copy, mode: .readWrite)
        #expect(try resumed.count() == 100)
        #expect(try resumed.validate().integrityProblems.isEmpty)
        // The resume asks what exists and writes only the rest.
        let done = try resumed.existingTiles(zoom: 4)
        #expect(done == Set(ids.prefix(100)))
        let again = try MBTilesWriter(store: resumed)
        for id in ids where !done.contains(id) { try again.add(TestTiles.bytes(id), at: id) }
        try again.finish()
        #expect(try resumed.count() == ids.count)
        #expect(try resumed.validate().isValid == false)  // no `name` and `format` yet
        #expect(try resumed.validate().integrityProblems.isEmpty)
        #expect(try resumed.checkAggregateTilesHash().isAcceptable)
    }

    @Test func existenceQueriesUseXYZRows() throws {
        let directory = try TemporaryDirectory()
        let store = try MBTilesStore(url: directory.file("exists.mbtiles"), mode: .create)
        let written = try [
            TileID(z: 5, x: 3, y: 4), TileID(z: 5, x: 4, y: 4), TileID(z: 5, x: 3, y: 30), TileID(z: 6, x: 3, y: 4),
        ]
        try store.write(Dictionary(uniqueKeysWithValues: written.map { ($0, TestTiles.bytes($0)) }))
        #expect(try store.existingTiles(zoom: 5) == Set(written.prefix(3)))
        #expect(try store.existingTiles(zoom: 5, columns: 0...3, rows: 0...7) == [written[0]])
        #expect(try store.existingTiles(zoom: 5, columns: 3...4, rows: 4...4) == Set(written.prefix(2)))
        #expect(try store.existingTiles(zoom: 7).isEmpty)
        #expect(try store.contains(written[2]))
        #expect(try !store.contains(TileID(z: 5, x: 3, y: 1)))
    }

    @Test func finishingLeavesOneFileWithItsHash() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("finished.mbtiles")
        do {
            let store = try MBTilesStore(url: url, mode: .create)
            let writer = try MBTilesWriter(store: store)
            try writer.add(TestTiles.seeded(maximumZoom: 4))
            let hash = try writer.finish()
            #expect(hash == (try store.aggregateTilesHash()))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["finished.mbtiles"])
        let journal = try Database(path: url.path, mode: .immutable).prepare("PRAGMA journal_mode")
        try journal.step()
        #expect(journal.text(at: 0) == "delete")
    }

    /// Readers on several threads, of this store and of another connection, while one writer
    /// commits batches: no SQLITE_BUSY, no partial batch, every tile read right.
    @Test(arguments: [MBTilesSchema.flat, .normalized])
    func readersWorkWhileTheWriterCommits(schema: MBTilesSchema) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("concurrent.mbtiles")
        let store = try MBTilesStore(url: url, mode: .create, newFileSchema: schema)
        let first = try tiles(zoom: 5)  // 1,024 tiles, committed before the readers start
        try store.write(Dictionary(uniqueKeysWithValues: first.map { ($0, TestTiles.bytes($0)) }))
        let second = try tiles(zoom: 6)  // 4,096 tiles, written while they read
        let otherConnection = try MBTilesStore(url: url)
        let writer = try MBTilesWriter(store: store, tilesPerBatch: 100)
        let failures = Mutex<[String]>([])
        let writerDone = Atomic(false)

        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            do {
                if worker == 0 {
                    for id in second { try writer.add(TestTiles.bytes(id), at: id) }
                    try writer.flush()
                    writerDone.store(true, ordering: .releasing)
                    return
                }
                let reader = worker.isMultiple(of: 2) ? otherConnection : store
                var rounds = 0
                while !writerDone.load(ordering: .acquiring) || rounds < 3 {
                    rounds += 1
                    let sample = (0..<64).map { first[($0 * 37 + rounds * 11 + worker) % first.count] }
                    for id in sample where try reader.tile(at: id) != TestTiles.bytes(id) {
                        failures.withLock { $0.append("worker \(worker) read \(id) wrong") }
                    }
                    // The writer's tiles appear a whole batch at a time.
                    let count = try reader.existingTiles(zoom: 6).count
                    if !count.isMultiple(of: 100) && count != second.count {
                        failures.withLock { $0.append("worker \(worker) saw \(count) tiles at zoom 6") }
                    }
                }
            } catch {
                failures.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(try otherConnection.count() == first.count + second.count)
        #expect(try store.validate().integrityProblems.isEmpty)
    }
}
