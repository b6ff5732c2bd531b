import Foundation
import ImageCodec
import MBTiles
import MapCore
import MapTestSupport
import MapUtilities
import PMTiles
import Testing
import TileSources
import TilesetTools
import Tilesets

/// Convert, extract, import, merge, diff, info and validate on small tilesets of real PNGs made
/// here, with expectations worked out independently of the code under test.
@Suite struct TilesetToolsTests {
    /// A 64 × 64 PNG of one colour, different for each seed.
    static func png(_ seed: Int) throws -> Data {
        try RGBAImage(
            width: 64, height: 64,
            filledWith: RGBAPixel(red: UInt8(seed % 256), green: UInt8(seed / 256 % 256), blue: 200)
        )
        .pngData()
    }

    /// Zooms 0 to 3 of the world, 85 tiles; tiles of zoom 3 share 4 contents, so 21 + 4 are stored.
    static func world(into url: URL) throws -> [TileID: Data] {
        var tiles: [TileID: Data] = [:]
        for z in 0...3 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let id = try TileID(z: z, x: x, y: y)
                    tiles[id] = try png(z == 3 ? 1_000 + x % 4 : z * 100 + x * 10 + y)
                }
            }
        }
        let store = try MBTilesStore(url: url, mode: .create)
        try store.writeMetadata(
            TileMetadata(name: "World", format: .png, bounds: BoundingBox(west: -180, south: -85, east: 180, north: 85))
        )
        let writer = try MBTilesWriter(store: store)
        try writer.add(tiles)
        try writer.finish()
        return tiles
    }

    /// ``world(into:)`` as `world.mbtiles` in `folder`, converted to `pmtilesName` beside it.
    static func worldInBothFormats(in folder: TemporaryDirectory, pmtilesName: String = "world.pmtiles") throws -> (
        mbtiles: URL, pmtiles: URL
    ) {
        let source = folder.url.appendingPathComponent("world.mbtiles")
        _ = try world(into: source)
        let pmtiles = folder.url.appendingPathComponent(pmtilesName)
        try TilesetConversion.convert(TileSourceLocation.file(source).open(), to: pmtiles)
        return (source, pmtiles)
    }

    @Test func conversionRoundTripsKeepEveryTileAndTheMetadata() throws {
        let folder = try TemporaryDirectory()
        let source = folder.url.appendingPathComponent("world.mbtiles")
        let tiles = try Self.world(into: source)
        let pmtiles = folder.url.appendingPathComponent("world.pmtiles")
        #expect(try TilesetConversion.convert(TileSourceLocation.file(source).open(), to: pmtiles) == 85)
        let archive = try PMTilesReader(url: pmtiles)
        #expect(archive.header.addressedTileCount == 85)
        #expect(archive.header.tileContentCount == 21 + 4)
        #expect(archive.metadata().name == "World")
        let back = folder.url.appendingPathComponent("back.mbtiles")
        try TilesetConversion.convert(TileSourceLocation.file(pmtiles).open(), to: back)
        let store = try MBTilesStore(url: back)
        for (id, data) in tiles { #expect(try store.tile(at: id) == data) }
        #expect(try store.aggregateTilesHash() == MBTilesStore(url: source).aggregateTilesHash())
        #expect(try store.metadata().bounds == BoundingBox(west: -180, south: -85, east: 180, north: 85))
        // Converting a file onto itself is refused.
        #expect(throws: TilesetToolsError.self) {
            try TilesetConversion.convert(TileSourceLocation.file(back).open(), to: back)
        }
    }

    @Test func extractThenImportGivesTheSameTiles() throws {
        let folder = try TemporaryDirectory()
        let source = folder.url.appendingPathComponent("world.mbtiles")
        let tiles = try Self.world(into: source)
        let extracted = folder.url.appendingPathComponent("tiles dir")
        #expect(try TileFolder.extract(TileSourceLocation.file(source).open(), to: extracted) == 85)
        // XYZ: row 1 at zoom 1 is the southern half; the file is z/x/y.png.
        #expect(
            try Data(contentsOf: extracted.appendingPathComponent("1/0/1.png")) == tiles[try TileID(z: 1, x: 0, y: 1)])
        #expect(FileManager.default.fileExists(atPath: extracted.appendingPathComponent("metadata.json").path))
        // A folder that is not empty is refused.
        #expect(throws: TilesetToolsError.self) {
            try TileFolder.extract(TileSourceLocation.file(source).open(), to: extracted)
        }
        try Data("notes".utf8).write(to: extracted.appendingPathComponent("3/README.txt"))
        let imported = folder.url.appendingPathComponent("imported.pmtiles")
        let report = try TileFolder.importTiles(from: extracted, to: imported)
        #expect(report.tileCount == 85)
        #expect(report.skippedFiles == ["3/README.txt"])
        let reader = try TileSourceLocation.file(imported).open()
        for (id, data) in tiles { #expect(try reader.tile(at: id) == data) }
        #expect(try reader.metadata().name == "World")
    }

    /// A tileset that fails half way (a PMTiles archive cut short inside its tile data) leaves no
    /// folder, partial or hidden, so the same command can be run again once the file is fixed.
    @Test func aFailedExtractionLeavesNoFolder() throws {
        let folder = try TemporaryDirectory()
        let (source, archive) = try Self.worldInBothFormats(in: folder, pmtilesName: "cut.pmtiles")
        let bytes = try Data(contentsOf: archive)
        try bytes.prefix(bytes.count - 2_000).write(to: archive)
        let extracted = folder.url.appendingPathComponent("tiles dir")
        #expect(throws: TilesetsError.self) {
            try TileFolder.extract(TileSourceLocation.file(archive).open(), to: extracted)
        }
        #expect(!FileManager.default.fileExists(atPath: extracted.path))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(left == ["cut.pmtiles", "world.mbtiles"], "\(left)")
        // An empty folder made beforehand is filled, and only at the end.
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        #expect(try TileFolder.extract(TileSourceLocation.file(source).open(), to: extracted) == 85)
        #expect(FileManager.default.fileExists(atPath: extracted.appendingPathComponent("metadata.json").path))
    }

    @Test func importWithoutMetadataComputesZoomsAndBounds() throws {
        let folder = try TemporaryDirectory()
        let tiles = folder.url.appendingPathComponent("alps")
        // Zoom 5 tiles 16/11 and 17/11: longitudes 0° to 22.5°, latitudes of row 11.
        for x in [16, 17] {
            try FileManager.default.createDirectory(
                at: tiles.appendingPathComponent("5/\(x)"), withIntermediateDirectories: true)
            try Self.png(x).write(to: tiles.appendingPathComponent("5/\(x)/11.png"))
        }
        let output = folder.url.appendingPathComponent("alps.mbtiles")
        #expect(try TileFolder.importTiles(from: tiles, to: output).tileCount == 2)
        let metadata = try MBTilesStore(url: output).metadata()
        #expect(metadata.name == "alps" && metadata.format == .png && metadata.minZoom == 5 && metadata.maxZoom == 5)
        // Row 11 of 32: from atan(sinh(π(1 − 2·11/32))) to atan(sinh(π(1 − 2·12/32))).
        let north = atan(sinh(.pi * (1 - 2 * 11.0 / 32))) * 180 / .pi
        let south = atan(sinh(.pi * (1 - 2 * 12.0 / 32))) * 180 / .pi
        let bounds = try #require(metadata.bounds)
        #expect(abs(bounds.west - 0) < 1e-9 && abs(bounds.east - 22.5) < 1e-9)
        #expect(abs(bounds.north - north) < 1e-6 && abs(bounds.south - south) < 1e-6)
        // An empty folder is refused, and nothing is written.
        let empty = folder.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(throws: TilesetToolsError.self) {
            try TileFolder.importTiles(from: empty, to: folder.url.appendingPathComponent("none.mbtiles"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("none.mbtiles").path))
    }

    @Test func mergingTwoHalvesGivesTheWholeAndReportsAPlantedConflict() throws {
        let folder = try TemporaryDirectory()
        let whole = folder.url.appendingPathComponent("world.mbtiles")
        let tiles = try Self.world(into: whole)
        let conflict = try TileID(z: 2, x: 1, y: 1)
        var halves: [[TileID: Data]] = [[:], [:]]
        for (id, data) in tiles { halves[id.x < (1 << id.z) / 2 || id.z == 0 ? 0 : 1][id] = data }
        halves[1][conflict] = try Self.png(999)  // also in the first half, with other bytes
        var readers: [any TileSource] = []
        for (index, half) in halves.enumerated() {
            let url = folder.url.appendingPathComponent("half-\(index).pmtiles")
            let writer = try PMTilesWriter(url: url, metadata: TileMetadata(name: "World", format: .png))
            for (id, data) in half { try writer.add(data, at: id) }
            try writer.finish()
            readers.append(try TileSourceLocation.file(url).open())
        }
        let merged = folder.url.appendingPathComponent("merged.mbtiles")
        let report = try TilesetMerge.merge(readers, into: merged)
        #expect(report.conflictingTiles == [conflict])
        #expect(report.tileCount == 85)
        let store = try MBTilesStore(url: merged)
        #expect(try store.tile(at: conflict) == tiles[conflict])  // the first input's
        #expect(try store.aggregateTilesHash() == MBTilesStore(url: whole).aggregateTilesHash())
        #expect(try TilesetValidation(of: TileSourceLocation.file(merged).open()).isValid)
        // With --on-conflict error nothing is written.
        let refused = folder.url.appendingPathComponent("refused.mbtiles")
        #expect(throws: TilesetToolsError.self) { try TilesetMerge.merge(readers, into: refused, onConflict: .error) }
        #expect(
            (try FileManager.default.contentsOfDirectory(atPath: folder.url.path)).filter { $0.contains("refused") }
                .isEmpty)
    }

    @Test func diffCountsThePixelsChanged() throws {
        let folder = try TemporaryDirectory()
        let first = folder.url.appendingPathComponent("a.mbtiles")
        let tiles = try Self.world(into: first)
        // The second file: one tile with exactly 37 pixels turned black, one missing, one extra
        // (zoom 4), one re-encoded with other bytes but the same pixels.
        let changed = try TileID(z: 2, x: 3, y: 0)
        let missing = try TileID(z: 1, x: 1, y: 1)
        let reencoded = try TileID(z: 0, x: 0, y: 0)
        var image = try RGBAImage(pngData: tiles[changed]!)
        for index in 0..<37 { image[x: index % 64, y: index / 64 * 5] = RGBAPixel(red: 0, green: 0, blue: 0) }
        var secondTiles = tiles
        secondTiles[changed] = try image.pngData()
        secondTiles[missing] = nil
        secondTiles[try TileID(z: 4, x: 0, y: 0)] = try Self.png(5)
        secondTiles[reencoded] = try RGBAImage(pngData: tiles[reencoded]!).pngData(compressionLevel: 0)
        #expect(secondTiles[reencoded] != tiles[reencoded])
        let second = folder.url.appendingPathComponent("b.mbtiles")
        let store = try MBTilesStore(url: second, mode: .create)
        try store.write(secondTiles)

        let difference = try TilesetDifference(
            TileSourceLocation.file(first).open(), TileSourceLocation.file(second).open())
        #expect(difference.different == [.init(tile: changed, differentPixels: 37)])
        #expect(difference.onlyInFirst == [missing])
        #expect(difference.onlyInSecond == [try TileID(z: 4, x: 0, y: 0)])
        #expect(difference.samePixels == [reencoded])
        #expect(difference.identicalCount == 85 - 3)
        #expect(!difference.isEmpty)
        #expect(
            try TilesetDifference(TileSourceLocation.file(first).open(), TileSourceLocation.file(first).open()).isEmpty)
    }

    /// Tilesets of other tile sizes (an @2x export against an @1x one) are refused in one line
    /// naming both sizes, not reported as an undecodable tile.
    @Test func diffOfTilesetsWithOtherTileSizesSaysSo() throws {
        let folder = try TemporaryDirectory()
        let first = folder.url.appendingPathComponent("a.mbtiles")
        _ = try Self.world(into: first)
        let second = folder.url.appendingPathComponent("b@2x.mbtiles")
        let store = try MBTilesStore(url: second, mode: .create)
        try store.write([
            try TileID(z: 0, x: 0, y: 0): try RGBAImage(width: 128, height: 128, filledWith: .white).pngData()
        ])
        let expected = TilesetToolsError.tileSizesDiffer(
            first: first.displayPath, firstSize: "64x64", second: second.displayPath, secondSize: "128x128")
        #expect(throws: expected) {
            try TilesetDifference(TileSourceLocation.file(first).open(), TileSourceLocation.file(second).open())
        }
        #expect(
            expected.description.hasSuffix(
                "b@2x.mbtiles: its tiles are 128x128 pixels, those of \(first.displayPath) 64x64; compare tilesets of one tile size and scale"
            ))
    }

    @Test func infoCountsTilesAndStoredContentsInBothFormats() throws {
        let folder = try TemporaryDirectory()
        let (source, pmtiles) = try Self.worldInBothFormats(in: folder)
        for url in [source, pmtiles] {
            let summary = try TilesetSummary(of: TileSourceLocation.file(url).open())
            #expect(summary.zoomLevels.map(\.tileCount) == [1, 4, 16, 64])
            #expect(summary.tileCount == 85)
            #expect(summary.storedTileCount == 25)
            #expect(summary.metadataRows["name"] == "World")
        }
    }

    @Test func validationFindsADamagedArchiveAndATamperedHash() throws {
        let folder = try TemporaryDirectory()
        let source = folder.url.appendingPathComponent("world.mbtiles")
        _ = try Self.world(into: source)
        #expect(try TilesetValidation(of: TileSourceLocation.file(source).open()).isValid)
        let store = try MBTilesStore(url: source, mode: .readWrite)
        try store.setMetadataValue("00000000000000000000000000000000", forKey: "agg_tiles_hash")
        let found = try TilesetValidation(of: TileSourceLocation.file(source).open())
        #expect(found.problems.contains { $0.contains("agg_tiles_hash is 00000000000000000000000000000000") })

        // A PMTiles archive whose last tile's bytes are cut off.
        let pmtiles = folder.url.appendingPathComponent("world.pmtiles")
        try TilesetConversion.convert(TileSourceLocation.file(source).open(), to: pmtiles)
        var bytes = try Data(contentsOf: pmtiles)
        bytes.removeLast(100)
        try bytes.write(to: pmtiles)
        let damaged: Result<TilesetValidation, any Error> = Result {
            try TilesetValidation(of: TileSourceLocation.file(pmtiles).open())
        }
        switch damaged {
        case .success(let result): #expect(!result.isValid)
        case .failure(let error): #expect("\(error)".contains("world.pmtiles"))
        }
    }
}
