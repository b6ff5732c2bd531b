import Foundation
import Glibc
import HTTPTypes
import HummingbirdTesting
import MBTiles
import MapCore
import MapData
import MapRenderer
import MapServer
import MapStyle
import MapTestSupport
import MapUtilities
import NIOCore
import Testing
import TileSources
import TilesetTools
import Tilesets

/// TileServer GL's `/data` endpoints over real HTTP on loopback, for the vector tiles of the
/// Helsinki sample (OpenMapTiles schema) as MBTiles and as PMTiles: the TileJSON, each tile's
/// bytes as the file stores them with `Content-Encoding: gzip` exactly when they are gzipped,
/// 204 for tiles the file does not have, 404 outside its zooms, and the tiles decoded by PyPI's
/// `mapbox-vector-tile` equal to the file's tiles decoded by it.
@Suite struct DataRoutesTests {
    /// A zoom-14 tile inside the sample's bounds, removed from the copy.
    static var removed: TileID { get throws { try TileID(z: 14, x: 9327, y: 4741) } }
    /// A zoom-13 tile stored uncompressed in the copy (the sample's tiles are gzipped).
    static var uncompressed: TileID { get throws { try TileID(z: 13, x: 4663, y: 2370) } }

    /// The Helsinki sample copied as `helsinki.FORMAT`: one tile removed, one stored as plain
    /// protobuf bytes; and the MBTiles copy it was made from.
    static func helsinki(in folder: TemporaryDirectory, format: String) throws -> (served: URL, mbtiles: URL) {
        let mbtiles = folder.url.appendingPathComponent("source/helsinki.mbtiles")
        try FileManager.default.createDirectory(
            at: mbtiles.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles"), to: mbtiles)
        let store = try MBTilesStore(url: mbtiles, mode: .readWrite)
        #expect(try store.removeTiles([try removed]) == 1)
        let gzipped = try #require(try store.tile(at: try uncompressed))
        try store.write(Data(try Gzip.decompress([UInt8](gzipped))), at: try uncompressed)
        guard format == "pmtiles" else { return (mbtiles, mbtiles) }
        let pmtiles = folder.url.appendingPathComponent("helsinki.pmtiles")
        _ = try TilesetConversion.convert(TileSourceLocation.file(mbtiles).open(), to: pmtiles)
        return (pmtiles, mbtiles)
    }

    @Test(arguments: ["mbtiles", "pmtiles"])
    func vectorTilesAreTheFilesBytesWithTheirCompression(format: String) async throws {
        let folder = try TemporaryDirectory()
        let (url, mbtiles) = try Self.helsinki(in: folder, format: format)
        var read: [(tile: TileID, data: Data)] = []
        try TileSourceLocation.file(url).open().forEachTile { read.append(($0, $1)) }
        let stored = read
        #expect(stored.count == 19 - 1)
        #expect(
            stored.contains { $0.data.starts(with: [0x1F, 0x8B]) }
                && stored.contains { !$0.data.starts(with: [0x1F, 0x8B]) })
        let server = ServerFixtures.server(ServerContent(tilesets: [try ServedTileset(url: url)]), folder: folder)
        try await ServerFixtures.test(server, .live) { client in
            let port = try #require(client.port)
            let base = "http://127.0.0.1:\(port)"
            let tileJSON = try await LoopbackSocket.request(port: port, path: "/data/helsinki.json")
            #expect(tileJSON.status == 200 && tileJSON.header("content-type") == "application/json")
            let json = try #require(try JSONSerialization.jsonObject(with: tileJSON.body) as? [String: Any])
            #expect(json["tilejson"] as? String == "3.0.0")
            #expect(json["tiles"] as? [String] == ["\(base)/data/helsinki/{z}/{x}/{y}.pbf"])
            #expect(json["format"] as? String == "pbf")
            #expect(json["minzoom"] as? Int == 0 && json["maxzoom"] as? Int == 14)
            let bounds = try #require(json["bounds"] as? [Double])
            #expect(
                zip(bounds, [24.935176, 60.164155, 24.953415, 60.179113]).allSatisfy { abs($0 - $1) < 1e-5 },
                "\(bounds)")
            let layers = (json["vector_layers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(
                layers.contains("transportation") && layers.contains("water") && layers.contains("building"),
                "\(layers)")

            var served: [(tile: TileID, file: URL)] = []
            for (tile, data) in stored {
                let answer = try await LoopbackSocket.request(
                    port: port, path: "/data/helsinki/\(tile.z)/\(tile.x)/\(tile.y).pbf")
                #expect(answer.status == 200, "\(tile)")
                #expect(answer.body == data, "\(tile): the file's bytes")
                #expect(
                    (answer.header("content-encoding") == "gzip") == data.starts(with: [0x1F, 0x8B]),
                    "\(tile): \(answer.headers)")
                #expect(answer.header("content-type") == "application/x-protobuf")
                #expect(answer.header("etag") != nil && answer.header("cache-control") == "public, max-age=600")
                let file = folder.url.appendingPathComponent("served-\(tile.z)-\(tile.x)-\(tile.y).pbf")
                try answer.body.write(to: file)
                served.append((tile, file))
            }
            // Again, from memory: the same answer.
            let again = try await LoopbackSocket.request(port: port, path: "/data/helsinki/13/4663/2370.pbf")
            let plain = try Self.uncompressed
            #expect(again.body == stored.first { $0.tile == plain }?.data && again.header("content-encoding") == nil)

            // Absent within the zooms: the removed tile, and tiles outside the bounds (not read).
            for path in ["/data/helsinki/14/9327/4741.pbf", "/data/helsinki/14/0/0.pbf", "/data/helsinki/3/0/0.pbf"] {
                let answer = try await LoopbackSocket.request(port: port, path: path)
                #expect(answer.status == 204, "\(path)")
                #expect(answer.body.isEmpty && answer.header("content-encoding") == nil, "\(path)")
            }
            let notFound = [
                ("/data/helsinki/15/18654/9483.pbf", "zoom 15 is outside the zooms of data 'helsinki', 0 to 14\n"),
                ("/data/nowhere/0/0/0.pbf", "no data named 'nowhere'\n"),
                ("/data/nowhere.json", "no data named 'nowhere'\n"),
                ("/data/%2E%2E%2Fhelsinki/0/0/0.pbf", "no data named '%2E%2E%2Fhelsinki'\n"),
            ]
            for (path, reason) in notFound {
                let answer = try await LoopbackSocket.request(port: port, path: path)
                #expect(answer.status == 404 && String(decoding: answer.body, as: UTF8.self) == reason, "\(path)")
            }
            for path in [
                "/data/helsinki/14/9326/4742.png", "/data/helsinki/14/9326/4742@2x.pbf", "/data/helsinki/14/x/4742.pbf",
            ] {
                #expect(try await LoopbackSocket.request(port: port, path: path).status == 400, "\(path)")
            }
            let list = try await LoopbackSocket.request(port: port, path: "/data.json")
            let entries = try #require(try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]])
            #expect(
                entries.compactMap { ($0["tiles"] as? [String])?.first } == ["\(base)/data/helsinki/{z}/{x}/{y}.pbf"])

            // PyPI's decoder reads each served tile as it reads the tile in the MBTiles file.
            let decoded = try Self.pythonDecodings(of: served, comparedWith: mbtiles, in: folder)
            #expect(decoded.count == stored.count)
            for result in decoded { #expect(result["equal"] as? Bool == true, "\(result)") }
            // The sample's tiles below zoom 5 are empty; from zoom 9 they hold features, thousands at zoom 14.
            #expect(
                decoded.filter { ($0["layers"] as? Int ?? 0) > 0 }.count == stored.filter { $0.tile.z >= 5 }.count,
                "\(decoded)")
            #expect(
                decoded.contains { ($0["features"] as? Int ?? 0) > 1_000 }, "zoom-14 tiles hold streets and buildings")
        }
    }

    /// Several files read as one (the street basemaps a style reads together): each tile from
    /// the first file that has it, the TileJSON spanning both, a style's source of them pointed
    /// at it, and a replacement of the second file picked up.
    @Test func severalFilesAreServedAsOneData() async throws {
        let folder = try TemporaryDirectory()
        let (helsinki, _) = try Self.helsinki(in: folder, format: "mbtiles")
        let far = folder.url.appendingPathComponent("far.mbtiles")
        let farTile = try TileID(z: 14, x: 0, y: 0)
        let farBytes = try #require(
            try TileSourceLocation.file(helsinki).open().tile(at: try TileID(z: 14, x: 9326, y: 4742)))
        @Sendable func writeFar(_ url: URL, _ data: Data) throws {
            let store = try MBTilesStore(url: url, mode: .create)
            try store.write([farTile: data])
            try store.writeMetadata(
                TileMetadata(
                    name: "far", format: .pbf, bounds: BoundingBox(west: -180, south: 85, east: -179.98, north: 85.05),
                    minZoom: 14, maxZoom: 14))
        }
        try writeFar(far, farBytes)
        let layered = try ServedTileset(files: [helsinki, far], name: "streets")
        var style = try Style.named("streets", in: RepositoryFiles.styles).style
        style.sources["openmaptiles"] = .vector(VectorSource(location: .tilesets([helsinki, far])))
        var content = ServerContent(styles: [
            ServedStyle(
                name: "streets", style: style, data: MapData(basemapDirectory: RepositoryFiles.basemap),
                fileBytes: try Data(contentsOf: RepositoryFiles.styles.appendingPathComponent("streets.json")))
        ])
        content.styleTilesets = [layered]
        let server = ServerFixtures.server(content, folder: folder)
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/data/streets.json", method: .get) { response in
                let json = try response.json()
                #expect(json["minzoom"] as? Int == 0 && json["maxzoom"] as? Int == 14)
                let bounds = try #require(json["bounds"] as? [Double])
                #expect(bounds[0] == -180 && bounds[3] > 85 && abs(bounds[2] - 24.953415) < 1e-5, "\(bounds)")
                #expect(((json["vector_layers"] as? [[String: Any]])?.count ?? 0) > 5)
            }
            try await client.execute(uri: "/data/streets/14/9326/4742.pbf", method: .get) {
                #expect($0.data == farBytes, "from the first file")
            }
            try await client.execute(uri: "/data/streets/14/0/0.pbf", method: .get) { response in
                #expect(response.status == .ok && response.data == farBytes, "from the second file")
            }
            try await client.execute(uri: "/data/streets/14/9327/4741.pbf", method: .get) {
                #expect($0.status == .noContent, "neither has it")
            }
            try await client.execute(uri: "/styles/streets/style.json", method: .get) { response in
                let url =
                    (try response.json()["sources"] as? [String: [String: Any]])?["openmaptiles"]?["url"] as? String
                #expect(url?.hasSuffix("/data/streets.json") == true, "\(url ?? "")")
            }
            // Another file renamed over the second: its tiles come from the new file.
            let watcher = TilesetWatcher(server: server)
            watcher.check()
            let replacement = folder.url.appendingPathComponent("far-new.mbtiles")
            try writeFar(replacement, Data([0x1A, 0x00]))
            #expect(rename(replacement.path, far.path) == 0)
            #expect(watcher.check() == ["streets"])
            try await client.execute(uri: "/data/streets/14/0/0.pbf", method: .get) {
                #expect($0.data == Data([0x1A, 0x00]))
            }
        }
    }

    /// 304 for a tile whose tag the client has, as for every tile.
    @Test func aTileTheClientHasIs304() async throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try Self.helsinki(in: folder, format: "mbtiles")
        let server = ServerFixtures.server(ServerContent(tilesets: [try ServedTileset(url: url)]), folder: folder)
        try await ServerFixtures.test(server) { client in
            let tag = try await client.execute(uri: "/data/helsinki/14/9326/4742.pbf", method: .get) { response in
                #expect(response.headers[.contentEncoding] == "gzip")
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/data/helsinki/14/9326/4742.pbf", method: .get, headers: [.ifNoneMatch: tag])
            { response in
                #expect(response.status == .notModified && response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/data/helsinki/14/9326/4742.pbf", method: .head) { response in
                #expect(
                    response.status == .ok && response.body.readableBytes == 0
                        && response.headers[.contentEncoding] == "gzip")
            }
        }
    }

    /// Each served tile and the MBTiles file's own tile decoded by `mapbox_vector_tile` (the
    /// file's read with Python's sqlite3, rows flipped as MBTiles stores them): for each, whether
    /// the two decodings are equal, and the served tile's layer and feature counts.
    static func pythonDecodings(
        of served: [(tile: TileID, file: URL)], comparedWith mbtiles: URL, in folder: TemporaryDirectory
    ) throws -> [[String: Any]] {
        let listing = folder.url.appendingPathComponent("served.json")
        let entries = served.map {
            ["z": $0.tile.z, "x": $0.tile.x, "y": $0.tile.y, "served": $0.file.path] as [String: Any]
        }
        try JSONSerialization.data(withJSONObject: entries).write(to: listing)
        let output = try PythonEnvironment.mapboxVectorTile.run(
            #"""
            import gzip, json, sqlite3, sys
            import mapbox_vector_tile

            def decode(data):
                if data[:2] == b"\x1f\x8b":
                    data = gzip.decompress(data)
                return mapbox_vector_tile.decode(data)

            database = sqlite3.connect(sys.argv[1])
            results = []
            for entry in json.load(open(sys.argv[2])):
                z, x, y = entry["z"], entry["x"], entry["y"]
                row = database.execute(
                    "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", (z, x, (1 << z) - 1 - y)
                ).fetchone()
                served = decode(open(entry["served"], "rb").read())
                stored = decode(bytes(row[0]))
                results.append({
                    "tile": "%d/%d/%d" % (z, x, y), "equal": served == stored, "layers": len(served),
                    "features": sum(len(layer["features"]) for layer in served.values()),
                })
            print(json.dumps(results))
            """#, arguments: [mbtiles.path, listing.path], in: folder.url)
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    }
}
