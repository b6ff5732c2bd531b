import Foundation
import MBTiles
import MapCore
import MapTestSupport
import PMTiles
import Testing
import TileSources
import TilesetTools

@testable import Tilesets

/// PMTiles archives read over HTTP from a real nginx on loopback (ranges, ETags, If-Match, as
/// object stores serve them), against the same archives read from disk.
@Suite struct RemotePMTilesTests {
    /// Requests and cache for a test: the cache in `directory`, retries quick.
    static func configuration(_ directory: TemporaryDirectory, limitBytes: Int = 256 << 20, attempts: Int = 3)
        -> HTTPTileSource.Configuration
    {
        HTTPTileSource.Configuration(
            timeoutSeconds: 10, cacheDirectory: directory.file("cache"), archiveCacheLimitBytes: limitBytes,
            maximumAttempts: attempts, retryDelaySeconds: 0.05)
    }

    /// Opens a remote archive the way every command does.
    static func open(_ url: String, _ configuration: HTTPTileSource.Configuration) throws -> any TileSource {
        try TileSourceLocation.file(URL(string: url)!).open(http: configuration)
    }

    /// A served folder `www` in `directory` holding the 87,381-tile grid (with leaf directories) as `grid.pmtiles`.
    static func servedGrid(in directory: TemporaryDirectory) throws -> (
        server: LoopbackNginx, tiles: [TileID: Data], local: URL
    ) {
        let www = directory.file("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        let local = www.appendingPathComponent("grid.pmtiles")
        let tiles = try RemoteArchives.write(to: local)
        return (try LoopbackNginx(serving: www, in: directory), tiles, local)
    }

    @Test func remoteReadingEqualsLocalReadingTileForTile() throws {
        let directory = try TemporaryDirectory()
        let (server, tiles, localURL) = try Self.servedGrid(in: directory)
        let local = try PMTilesReader(url: localURL)
        #expect(local.header.leafDirectories.byteCount > 0, "the grid must have leaf directories")
        let remote = try Self.open("\(server.baseURL)/grid.pmtiles", Self.configuration(directory))
        #expect(remote.sourceDescription == "\(server.baseURL)/grid.pmtiles" && remote.fileURL == nil)
        #expect(try remote.metadata() == local.metadata())

        // The first request is the archive's first 16 KiB: header and root directory at once.
        let first = try server.requests().first
        #expect(first?.range == "bytes=0-16383" && first?.status == 206, "\(String(describing: first))")

        // Every tile of zooms 0-5, a 40 x 40 block of zoom 8, and addresses with no tile.
        var wanted = tiles.keys.filter { $0.z <= 5 }
        wanted += (100..<140).flatMap { y in (60..<100).compactMap { x in try? TileID(z: 8, x: x, y: y) } }
        let absent = [try TileID(z: 9, x: 0, y: 0), try TileID(z: 12, x: 5, y: 7)]
        let got = try remote.tiles(at: wanted + absent)
        #expect(got.count == wanted.count)
        let mismatches = wanted.filter { got[$0] != tiles[$0] || got[$0] != (try? local.tile(at: $0)) }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(try remote.tile(at: TileID(z: 8, x: 255, y: 255)) == tiles[try TileID(z: 8, x: 255, y: 255)])

        // Every answer was a range (206), each asked with If-Match the first answer's ETag.
        let requests = try server.requests()
        #expect(requests.allSatisfy { $0.status == 206 }, "\(requests.filter { $0.status != 206 }.prefix(3))")
        #expect(requests.dropFirst().allSatisfy { $0.ifMatch != nil && $0.ifMatch == requests[1].ifMatch })
    }

    @Test func everyTileWalkedRemotelyEqualsTheFile() throws {
        let directory = try TemporaryDirectory()
        let www = directory.file("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        let tiles = try RemoteArchives.write(to: www.appendingPathComponent("small.pmtiles"), maxZoom: 4)
        let server = try LoopbackNginx(serving: www, in: directory)
        var walked: [TileID: Data] = [:]
        try Self.open("\(server.baseURL)/small.pmtiles", Self.configuration(directory)).forEachTile { walked[$0] = $1 }
        #expect(walked == tiles)
    }

    @Test func rangesKeptOnDiskAreNotAskedForAgainAndTheCacheStaysWithinItsBound() throws {
        let directory = try TemporaryDirectory()
        let (server, tiles, _) = try Self.servedGrid(in: directory)
        let url = "\(server.baseURL)/grid.pmtiles"
        let wanted = tiles.keys.filter { $0.z <= 4 }
        _ = try Self.open(url, Self.configuration(directory)).tiles(at: wanted)
        let asked = try server.requests().count

        // A new reader (a new run) asks for the start only: the ETag is the same.
        let again = try Self.open(url, Self.configuration(directory)).tiles(at: wanted)
        #expect(again.count == wanted.count && wanted.allSatisfy { again[$0] == tiles[$0] })
        #expect(try server.requests().count == asked + 1)

        // A cache of 4,000 bytes keeps the newest ranges only, and never more than its bound.
        let small = try TemporaryDirectory()
        let bounded = Self.configuration(small, limitBytes: 4_000)
        let read = try Self.open(url, bounded).tiles(at: tiles.keys.filter { $0.z <= 6 })
        #expect(read.count == 5_461)
        let cache = try #require(HTTPRangeCache(directory: bounded.archiveCacheDirectory!, limitBytes: 4_000))
        #expect(cache.storedBytes <= 4_000 && cache.storedBytes > 2_000, "\(cache.storedBytes) bytes kept")
    }

    @Test func aReplacedArchiveIsReadAnewNeverMixed() throws {
        let directory = try TemporaryDirectory()
        let www = directory.file("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        let served = www.appendingPathComponent("city.pmtiles")
        let old = try RemoteArchives.write(to: served, maxZoom: 5, seed: 1, name: "Old")
        let server = try LoopbackNginx(serving: www, in: directory)
        let url = "\(server.baseURL)/city.pmtiles"
        let reader = try Self.open(url, Self.configuration(directory))
        let some = Array(old.keys.filter { $0.z == 3 })
        #expect(try reader.tiles(at: some) == old.filter { $0.key.z == 3 })

        // Replaced (renamed over, as a deploy does), with another size and time: another ETag.
        let next = directory.file("next.pmtiles")
        let new = try RemoteArchives.write(to: next, maxZoom: 6, seed: 2, name: "New")
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: next.path)
        #expect(rename(next.path, served.path) == 0)

        // The same reader meets the new ETag (412), reads the new header and directories, and
        // gives the new archive's tiles only, the tiles it had kept of the old one included.
        let all = Array(new.keys)
        let got = try reader.tiles(at: all)
        #expect(got.count == new.count)
        #expect(all.allSatisfy { got[$0] == new[$0] }, "a tile is not the new archive's")
        #expect(try server.requests().contains { $0.status == 412 })
        #expect(try reader.metadata().maxZoom == 6)
        // A new reader reads the new one from the start, and the old ranges are gone from the cache.
        let fresh = try Self.open(url, Self.configuration(directory)).tiles(at: some)
        #expect(some.allSatisfy { fresh[$0] == new[$0] })
    }

    @Test func aServerThatIgnoresRangesIsOneLineNamingTheURL() throws {
        let directory = try TemporaryDirectory()
        let www = directory.file("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        _ = try RemoteArchives.write(to: www.appendingPathComponent("grid.pmtiles"), maxZoom: 3)
        // Python's http.server sends the whole file (200) whatever the Range.
        let server = try LoopbackTileServer(serving: www, in: directory)
        let url = "\(server.baseURL)/grid.pmtiles"
        let error = #expect(throws: TilesetsError.self) { try Self.open(url, Self.configuration(directory)) }
        #expect(
            error?.description
                == "\(url): cannot read the PMTiles archive: the server ignores Range requests (it answered 200 OK with the whole file, not 206 Partial Content), and a PMTiles archive is read by ranges: download it and give the file"
        )

        let nginx = try LoopbackNginx(serving: www, in: directory)
        let missing = "\(nginx.baseURL)/nowhere.pmtiles"
        let notFound = #expect(throws: TilesetsError.self) { try Self.open(missing, Self.configuration(directory)) }
        #expect(
            notFound?.description
                == "\(missing): cannot read the PMTiles archive: the server answered HTTP 404 (Not Found)")
        let mbtiles = #expect(throws: TilesetsError.self) {
            try Self.open("\(nginx.baseURL)/x.mbtiles", Self.configuration(directory))
        }
        #expect(
            mbtiles?.description.hasPrefix(
                "\(nginx.baseURL)/x.mbtiles: not a tileset (MBTiles or PMTiles): an MBTiles file is an SQLite database")
                == true)
    }

    @Test func serverErrorsAreRetriedWithBackoffAndClientErrorsAreNot() throws {
        let directory = try TemporaryDirectory()
        let archive = directory.file("grid.pmtiles")
        let tiles = try RemoteArchives.write(to: archive, maxZoom: 4)
        let flaky = try FlakyRangeServer(serving: archive, mode: "fail-once", in: directory)
        let url = "http://127.0.0.1:\(flaky.port)/grid.pmtiles"
        let wanted = Array(tiles.keys.filter { $0.z == 4 })
        let got = try Self.open(url, Self.configuration(directory)).tiles(at: wanted)
        #expect(wanted.allSatisfy { got[$0] == tiles[$0] })
        // Each range was asked for twice: a 503, then the bytes.
        let ranges = try flaky.ranges()
        #expect(ranges.count == 2 * Set(ranges).count)

        // With one attempt, the 503 is the error.
        let once = try FlakyRangeServer(serving: archive, mode: "fail-once", in: directory)
        let onceURL = "http://127.0.0.1:\(once.port)/grid.pmtiles"
        let failed = #expect(throws: TilesetsError.self) {
            try Self.open(onceURL, Self.configuration(directory, attempts: 1))
        }
        #expect(
            failed?.description
                == "\(onceURL): cannot read the PMTiles archive: the server answered HTTP 503 (Service Unavailable) (1 attempts)"
        )

        // A 403 is asked for once.
        let forbidden = try FlakyRangeServer(serving: archive, mode: "forbidden", in: directory)
        let forbiddenURL = "http://127.0.0.1:\(forbidden.port)/grid.pmtiles"
        let refused = #expect(throws: TilesetsError.self) { try Self.open(forbiddenURL, Self.configuration(directory)) }
        #expect(
            refused?.description
                == "\(forbiddenURL): cannot read the PMTiles archive: the server answered HTTP 403 (Forbidden)")
        #expect(try forbidden.ranges().count == 1)
    }

    @Test func anArchiveReadBeforeIsReadFromTheCacheOffline() throws {
        let directory = try TemporaryDirectory()
        let www = directory.file("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        let tiles = try RemoteArchives.write(to: www.appendingPathComponent("small.pmtiles"), maxZoom: 4)
        let server = try LoopbackNginx(serving: www, in: directory)
        let url = "\(server.baseURL)/small.pmtiles"
        let seen = Array(tiles.keys.filter { $0.z <= 3 })
        _ = try Self.open(url, Self.configuration(directory)).tiles(at: seen)
        server.stop()

        // Offline, the tiles read before come from the cache; others fail naming the host.
        let offline = try Self.open(url, Self.configuration(directory))
        let again = try offline.tiles(at: seen)
        #expect(again.count == seen.count && seen.allSatisfy { again[$0] == tiles[$0] })
        let unreachable =
            "\(url): cannot read the PMTiles archive: cannot reach 127.0.0.1:\(server.port): connection refused (offline?)"
        let error = #expect(throws: PMTilesError.self) { try offline.tile(at: TileID(z: 4, x: 3, y: 5)) }
        #expect(error?.description == unreachable)
        // Layered before a local copy (a registered remote basemap and a bundled one), the tile
        // comes from the copy; alone, the remote archive's error stands.
        let local = directory.file("local.pmtiles")
        try FileManager.default.copyItem(at: www.appendingPathComponent("small.pmtiles"), to: local)
        let layered = try TileSourceLocation.layered([.file(URL(string: url)!), .file(local)]).open(
            http: Self.configuration(directory))
        #expect(try layered.tile(at: TileID(z: 4, x: 3, y: 5)) == tiles[TileID(z: 4, x: 3, y: 5)])
        let remoteOnly = try TileSourceLocation.layered([.file(URL(string: url)!)]).open(
            http: Self.configuration(directory))
        #expect(throws: PMTilesError.self) { try remoteOnly.tile(at: TileID(z: 4, x: 3, y: 5)) }
        // With nothing kept, opening fails the same way.
        let empty = try TemporaryDirectory()
        let none = #expect(throws: TilesetsError.self) { try Self.open(url, Self.configuration(empty)) }
        #expect(none?.description == unreachable)
    }

    @Test func aBatchsTilesAreFetchedInParallelAtMostTheConfiguredNumberAtOnce() throws {
        let directory = try TemporaryDirectory()
        let archive = directory.file("grid.pmtiles")
        let tiles = try RemoteArchives.write(to: archive, maxZoom: 4)
        let slow = try FlakyRangeServer(serving: archive, mode: "slow", in: directory)
        var configuration = Self.configuration(directory)
        configuration.maximumConcurrentRequests = 3
        let wanted = Array(tiles.keys.filter { $0.z == 4 })
        let got = try Self.open("http://127.0.0.1:\(slow.port)/grid.pmtiles", configuration).tiles(at: wanted)
        #expect(wanted.allSatisfy { got[$0] == tiles[$0] })
        let mostActive = try slow.mostActive()
        #expect(mostActive == 3, "at most \(mostActive) requests at once")
    }

    /// Reads an archive with PyPI's `pmtiles`: its header's zooms and bounds, and every tile.
    private static let pythonReadScript = #"""
        import json, sys
        from pmtiles.reader import Reader, MmapSource, all_tiles
        with open(sys.argv[1], "rb") as f:
            reader = Reader(MmapSource(f))
            header = reader.header()
            tiles = {"%d/%d/%d" % key: bytes(data).hex() for key, data in all_tiles(reader.get_bytes)}
        print(json.dumps({"min_zoom": header["min_zoom"], "max_zoom": header["max_zoom"],
                          "bounds": [header["min_lon_e7"] / 1e7, header["min_lat_e7"] / 1e7, header["max_lon_e7"] / 1e7, header["max_lat_e7"] / 1e7],
                          "tiles": tiles}))
        """#

    @Test func anExtractOfARemoteArchiveHoldsTheAreasTilesAsPyPIsReaderSees() throws {
        let directory = try TemporaryDirectory()
        let (server, tiles, _) = try Self.servedGrid(in: directory)
        let source = try Self.open("\(server.baseURL)/grid.pmtiles", Self.configuration(directory))
        let region = try CoordinateRegion(west: 2.0, south: 41.0, east: 9.5, north: 48.5)
        let output = directory.file("extract.pmtiles")
        var lastProgress: TilesetExtraction.Progress?
        let report = try TilesetExtraction.extract(source, to: output, region: region, zoomLevels: 3...7) {
            lastProgress = $0
        }

        // Expected, worked out here: the tiles of zooms 3-7 overlapping the box.
        let expected = tiles.filter { tile, _ in
            guard (3...7).contains(tile.z) else { return false }
            let n = Double(1 << tile.z)
            let west = Double(tile.x) / n * 360 - 180
            let east = Double(tile.x + 1) / n * 360 - 180
            func latitude(_ y: Int) -> Double { atan(sinh(Double.pi * (1 - 2 * Double(y) / n))) * 180 / .pi }
            return east > 2.0 && west < 9.5 && latitude(tile.y + 1) < 48.5 && latitude(tile.y) > 41.0
        }
        #expect(report.tileCount == expected.count && lastProgress?.tilesDone == lastProgress?.tilesTotal)

        let text = try PythonEnvironment.pmtiles.run(Self.pythonReadScript, arguments: [output.path], in: directory.url)
        let view = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        #expect(view["min_zoom"] as? Int == 3 && view["max_zoom"] as? Int == 7)
        let bounds = view["bounds"] as? [Double] ?? []
        #expect(
            bounds.count == 4 && zip(bounds, [2.0, 41.0, 9.5, 48.5]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(bounds)")
        let pythonTiles = view["tiles"] as? [String: String] ?? [:]
        #expect(pythonTiles.count == expected.count)
        let wrong = expected.filter {
            pythonTiles[$0.key.description] != $0.value.map { String(format: "%02x", $0) }.joined()
        }
        #expect(wrong.isEmpty, "\(wrong.keys.prefix(5))")

        // The same area as MBTiles, from the local file.
        let mbtiles = directory.file("extract.mbtiles")
        let local = try TileSourceLocation.file(directory.file("www/grid.pmtiles")).open()
        #expect(
            try TilesetExtraction.extract(local, to: mbtiles, region: region, zoomLevels: 3...7).tileCount
                == expected.count)
        let store = try MBTilesStore(url: mbtiles, mode: .readOnly)
        var stored: [TileID: Data] = [:]
        try store.forEachTile { stored[$0] = $1 }
        #expect(stored == expected)
        #expect(try store.metadata().bounds == BoundingBox(west: 2.0, south: 41.0, east: 9.5, north: 48.5))

        // Zooms the source lacks are one clear line.
        let none = #expect(throws: TilesetToolsError.self) {
            try TilesetExtraction.extract(
                local, to: directory.file("none.pmtiles"), region: region, zoomLevels: 10...12)
        }
        #expect(none?.description == "\(directory.file("www/grid.pmtiles").path) has zooms 0-8, none of 10-12")
    }
}
