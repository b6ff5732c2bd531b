import Foundation
import MapCore
import MapSQLite
import MapTestSupport
import Testing
import TileSources

@testable import MBTiles

/// `tiles info` and `tiles validate` at the store level.
struct MBTilesInfoValidationTests {
    /// A finished normalized file with name and format, from seeded tiles.
    private func finishedFile(in directory: TemporaryDirectory, name: String = "tiles.mbtiles") throws -> MBTilesStore {
        let store = try MBTilesStore(url: directory.file(name), mode: .create)
        try store.writeMetadata(TileMetadata(name: "Seeded", format: .png, minZoom: 0, maxZoom: 6))
        let writer = try MBTilesWriter(store: store, tilesPerBatch: 64)
        try writer.add(TestTiles.seeded())
        try writer.finish()
        return store
    }

    @Test func infoCountsTilesBytesAndSharedImages() throws {
        let directory = try TemporaryDirectory()
        let store = try MBTilesStore(url: directory.file("info.mbtiles"), mode: .create)
        let shared = Data(repeating: 1, count: 100)
        try store.write([
            try TileID(z: 0, x: 0, y: 0): Data(repeating: 2, count: 50),
            try TileID(z: 2, x: 1, y: 0): shared,
            try TileID(z: 2, x: 3, y: 2): shared,
            try TileID(z: 2, x: 2, y: 3): Data(repeating: 3, count: 10),
        ])
        try store.writeMetadata(TileMetadata(name: "Info", format: .png))
        let info = try store.info()
        #expect(info.schema == .normalized)
        #expect(info.metadataValues["name"] == "Info")
        #expect(info.metadata?.format == .png)
        #expect(
            info.zoomLevels == [
                MBTilesInfo.ZoomLevel(zoom: 0, tileCount: 1, tileBytes: 50, columns: 0...0, rows: 0...0),
                MBTilesInfo.ZoomLevel(zoom: 2, tileCount: 3, tileBytes: 210, columns: 1...3, rows: 0...3),
            ])
        #expect(info.tileCount == 4)
        #expect(info.tileBytes == 260)
        #expect(info.storedBlobCount == 3)
        #expect(info.storedBlobBytes == 160)
        #expect(abs(info.deduplicationRatio - 260.0 / 160.0) < 1e-12)
        #expect(info.fileBytes > 0)

        let flat = try MBTilesStore(url: directory.file("flat.mbtiles"), mode: .create, newFileSchema: .flat)
        try flat.write([try TileID(z: 1, x: 0, y: 0): shared, try TileID(z: 1, x: 1, y: 0): shared])
        let flatInfo = try flat.info()
        #expect(flatInfo.storedBlobCount == 2)
        #expect(flatInfo.storedBlobBytes == 200)
        #expect(flatInfo.deduplicationRatio == 1)
    }

    @Test func aFinishedFileIsValid() throws {
        let directory = try TemporaryDirectory()
        let store = try finishedFile(in: directory)
        let report = try store.validate()
        #expect(report.problems == [])
        #expect(report.warnings == [])
        #expect(report.isValid)
        #expect(report.aggregateHash == .matches(hash: try store.aggregateTilesHash()))
    }

    @Test func changedBytesAndMissingImagesAreReported() throws {
        let directory = try TemporaryDirectory()
        let store = try finishedFile(in: directory)
        let changed: String
        do {
            let imageID = try Database(path: store.path).prepare("SELECT tile_id FROM images ORDER BY tile_id LIMIT 1")
            try imageID.step()
            changed = try #require(imageID.text(at: 0))
        }
        try TestTiles.execute(
            """
            UPDATE images SET tile_data = x'00' WHERE tile_id = '\(changed)';
            INSERT INTO map VALUES (9, 1, 1, 'NO-SUCH-IMAGE');
            DELETE FROM metadata WHERE name = 'format';
            """, on: store.url)
        let report = try store.validate()
        #expect(!report.isValid)
        #expect(report.mismatchedImageIDs == [changed])
        #expect(report.danglingTileCount == 1)
        #expect(report.missingMetadataKeys == ["format"])
        guard case .mismatch? = report.aggregateHash else {
            Issue.record("expected an agg_tiles_hash mismatch, got \(String(describing: report.aggregateHash))")
            return
        }
        #expect(report.problems.count == 4)
        #expect(report.problems.allSatisfy { !$0.contains("\n") })
    }

    @Test func damagedPagesAreReportedNotThrown() throws {
        let directory = try TemporaryDirectory()
        let url: URL
        do {
            let store = try MBTilesStore(url: directory.file("damaged.mbtiles"), mode: .create, newFileSchema: .flat)
            try store.writeMetadata(TileMetadata(name: "Damaged", format: .png))
            let writer = try MBTilesWriter(store: store)
            try writer.add(TestTiles.seeded(maximumZoom: 8))
            try writer.finish()
            url = store.url
        }
        // Pages in the middle of the file, holding tiles, overwritten.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber).intValue
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64(size / 2 / 4096 * 4096))
        handle.write(Data(repeating: 0x5A, count: 8192))
        try handle.close()

        let store = try MBTilesStore(url: url)
        let report = try store.validate()
        #expect(!report.isValid)
        #expect(!report.integrityProblems.isEmpty)
    }
}
