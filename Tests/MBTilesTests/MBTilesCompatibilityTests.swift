import Foundation
import ImageCodec
import MapCore
import MapTestSupport
import Testing
import TileSources

@testable import MBTiles

/// Our files in other people's tools: GDAL's MBTiles driver (`gdalinfo`, from gdal-bin, which
/// scripts/setup.sh installs) and mbutil (PyPI, installed into a virtual environment of the
/// test's own). Set `MAPWRIGHT_OFFLINE_TESTS=1` to skip the test that needs PyPI.
struct MBTilesCompatibilityTests {
    /// A 256-pixel PNG tile of one colour, made from the tile's address; ocean blue for `ocean`.
    private static func png(_ id: TileID, ocean: Bool = false) throws -> Data {
        let colour =
            ocean
            ? RGBAPixel(red: 170, green: 211, blue: 223)
            : RGBAPixel(
                red: UInt8(40 * id.z), green: UInt8(truncatingIfNeeded: 30 + 25 * id.x),
                blue: UInt8(truncatingIfNeeded: 60 + 25 * id.y))
        return try RGBAImage(width: 256, height: 256, filledWith: colour).pngData()
    }

    /// A finished normalized file of PNG tiles covering `bounds` at `zooms`, a third of them ocean.
    private func pngFile(_ url: URL, bounds: BoundingBox, zooms: ClosedRange<Int>) throws -> (
        MBTilesStore, [TileID: Data]
    ) {
        let store = try MBTilesStore(url: url, mode: .create)
        try store.writeMetadata(
            TileMetadata(
                name: "Compatibility", format: .png, bounds: bounds,
                center: TileMetadata.Center(
                    longitude: (bounds.west + bounds.east) / 2, latitude: (bounds.south + bounds.north) / 2,
                    zoom: zooms.lowerBound),
                minZoom: zooms.lowerBound, maxZoom: zooms.upperBound, type: .baselayer, version: "1"))
        var tiles: [TileID: Data] = [:]
        for zoom in zooms {
            for (index, id) in try TileID.tiles(covering: try bounds.region(), zoom: zoom).enumerated() {
                tiles[id] = try Self.png(id, ocean: index % 3 == 0)
            }
        }
        let writer = try MBTilesWriter(store: store)
        try writer.add(tiles)
        try writer.finish()
        return (store, tiles)
    }

    private struct GDALInfo: Decodable {
        struct Band: Decodable {
            struct Overview: Decodable { var size: [Int] }
            var overviews: [Overview]?
        }
        struct Extent: Decodable { var coordinates: [[[Double]]] }
        var driverShortName: String
        var size: [Int]
        var bands: [Band]
        var wgs84Extent: Extent
        var metadata: [String: [String: String]]
    }

    private func gdalinfo(_ url: URL) throws -> GDALInfo {
        try #require(ExternalCommand.isInstalled("gdalinfo"), "gdalinfo is missing: scripts/setup.sh installs gdal-bin")
        let output = try ExternalCommand.run("gdalinfo", ["-json", url.path])
        try #require(output.status == 0, "\(output.transcript)")
        return try JSONDecoder().decode(GDALInfo.self, from: Data(output.standardOutput.utf8))
    }

    /// The west, south, east and north of a GeoJSON polygon's ring.
    private func edges(_ extent: GDALInfo.Extent) -> [Double] {
        let ring = extent.coordinates[0]
        let longitudes = ring.map { $0[0] }
        let latitudes = ring.map { $0[1] }
        return [longitudes.min()!, latitudes.min()!, longitudes.max()!, latitudes.max()!]
    }

    @Test func gdalinfoReadsTheWorldWithAnOverviewPerZoom() throws {
        let directory = try TemporaryDirectory()
        let bounds = BoundingBox(west: -180, south: -85.0511, east: 180, north: 85.0511)
        let (_, tiles) = try pngFile(directory.file("world.mbtiles"), bounds: bounds, zooms: 0...2)
        #expect(tiles.count == 21)
        let info = try gdalinfo(directory.file("world.mbtiles"))
        #expect(info.driverShortName == "MBTiles")
        #expect(info.size == [1024, 1024])  // zoom 2: 4 tiles of 256 pixels
        #expect(info.bands.count == 4)  // RGBA
        #expect(info.bands[0].overviews?.map(\.size) == [[512, 512], [256, 256]])  // zooms 1 and 0
        #expect(info.metadata[""]?["ZOOM_LEVEL"] == "2")
        #expect(info.metadata[""]?["name"] == "Compatibility")
        for (found, expected) in zip(edges(info.wgs84Extent), [-180, -85.0511, 180, 85.0511]) {
            #expect(abs(found - expected) < 1e-4, "\(edges(info.wgs84Extent))")
        }
    }

    @Test func gdalinfoReadsARegionsBoundsAndZoomLevels() throws {
        let directory = try TemporaryDirectory()
        let bounds = BoundingBox(west: -10, south: 35, east: 30, north: 60)
        _ = try pngFile(directory.file("region.mbtiles"), bounds: bounds, zooms: 4...6)
        let info = try gdalinfo(directory.file("region.mbtiles"))
        #expect(info.driverShortName == "MBTiles")
        #expect(info.metadata[""]?["ZOOM_LEVEL"] == "6")
        // Zooms 5 and 4 (GDAL lists no overview smaller than about a tile, so the region is wide).
        #expect(
            info.bands[0].overviews?.map(\.size) == [
                [info.size[0] / 2, info.size[1] / 2], [info.size[0] / 4, info.size[1] / 4],
            ],
            "\(info.size) \(String(describing: info.bands[0].overviews?.map(\.size)))")
        // GDAL clips to `bounds` on the pixel grid of the deepest zoom: within a pixel of it.
        let pixelDegrees = 360.0 / Double(256 << 6)
        for (found, expected) in zip(edges(info.wgs84Extent), [-10.0, 35, 30, 60]) {
            #expect(abs(found - expected) <= pixelDegrees, "\(edges(info.wgs84Extent))")
        }
    }

    @Test(.disabled(if: ProcessInfo.processInfo.environment["MAPWRIGHT_OFFLINE_TESTS"] != nil, "needs PyPI"))
    func mbutilExtractsEveryTile() throws {
        let directory = try TemporaryDirectory()
        let (store, tiles) = try pngFile(
            directory.file("export.mbtiles"), bounds: BoundingBox(west: -20, south: 30, east: 40, north: 60),
            zooms: 0...4)
        let venv = directory.file("venv")
        let create = try ExternalCommand.run("python3", ["-m", "venv", venv.path])
        try #require(create.status == 0, "\(create.transcript)")
        let install = try ExternalCommand.run(
            venv.appendingPathComponent("bin/pip").path, ["install", "--quiet", "mbutil"])
        try #require(
            install.status == 0,
            "pip install mbutil failed (offline? set MAPWRIGHT_OFFLINE_TESTS=1): \(install.transcript)")

        // mbutil's default scheme is "xyz": it flips TMS rows, so files are z/x/y.png with y from the north.
        let output = directory.file("extracted")
        let extract = try ExternalCommand.run(
            venv.appendingPathComponent("bin/mb-util").path, ["--silent", store.path, output.path])
        try #require(extract.status == 0, "\(extract.transcript)")
        var extracted = 0
        let walker = try #require(FileManager.default.enumerator(at: output, includingPropertiesForKeys: nil))
        for case let file as URL in walker where file.pathExtension == "png" {
            extracted += 1
            let parts = file.path.dropFirst(output.path.count + 1).dropLast(4).split(separator: "/").compactMap {
                Int($0)
            }
            let id = try TileID(z: parts[0], x: parts[1], y: parts[2])
            #expect(try Data(contentsOf: file) == tiles[id], "\(id)")
        }
        #expect(extracted == tiles.count)
        let metadata = try JSONDecoder().decode(
            [String: String].self, from: Data(contentsOf: output.appendingPathComponent("metadata.json")))
        #expect(metadata["name"] == "Compatibility")
        #expect(metadata["agg_tiles_hash"] == (try store.aggregateTilesHash()))
    }
}
