import Foundation
import MapCore
import MapJSON
import MapTestSupport
import MapUtilities
import Testing
import TileSources

@testable import PMTiles

/// An outside reference both ways: PyPI's `pmtiles` package reads our archives tile for tile,
/// and we read an archive it writes. The package is installed by pip into a virtual environment
/// of the tests' own (``PythonEnvironment/pmtiles``); without PyPI these tests fail and say so.
struct PyPIInteroperabilityTests {
    /// Reads an archive with `pmtiles.reader`: the header, the metadata, `Reader.get` for each
    /// requested tile and, when the package has it, every tile through `all_tiles`.
    private static let readScript = #"""
        import json, sys
        import pmtiles.reader as reader_module
        from pmtiles.reader import Reader, MmapSource

        archive, requests_path, output_path = sys.argv[1:4]
        with open(requests_path) as f:
            requests = json.load(f)
        with open(archive, "rb") as f:
            reader = Reader(MmapSource(f))
            header = {k: getattr(v, "value", v) for k, v in reader.header().items()}
            metadata = reader.metadata()
            got = []
            for z, x, y in requests:
                data = reader.get(z, x, y)
                got.append(None if data is None else bytes(data).hex())
            walked = None
            all_tiles = getattr(reader_module, "all_tiles", None)
            if all_tiles is not None:
                walked = [[z, x, y, bytes(data).hex()] for (z, x, y), data in all_tiles(reader.get_bytes)]
        with open(output_path, "w") as f:
            json.dump({"header": header, "metadata": metadata, "get": got, "all": walked}, f)
        """#

    /// What the Python reader saw.
    private struct PythonView {
        var header: [String: JSONValue]
        var metadata: [String: JSONValue]
        /// Hex bytes, or nil for no tile, in the order requested.
        var got: [String?]
        /// Every tile by `z/x/y`, or nil when the package has no `all_tiles`.
        var walked: [String: String]?
    }

    private func readWithPython(_ archive: URL, requests: [TileID], in directory: TemporaryDirectory) throws
        -> PythonView
    {
        let requestsURL = directory.file("requests.json")
        try Data(
            JSONValue.array(
                requests.map { .array([.number(Double($0.z)), .number(Double($0.x)), .number(Double($0.y))]) }
            ).jsonText.utf8
        )
        .write(to: requestsURL)
        let outputURL = directory.file("python-view.json")
        _ = try PythonEnvironment.pmtiles.run(
            Self.readScript, arguments: [archive.path, requestsURL.path, outputURL.path], in: directory.url)
        let output = try JSONValue.parse(Data(contentsOf: outputURL))
        guard case .object(let header)? = output["header"], case .object(let metadata)? = output["metadata"],
            case .array(let got)? = output["get"]
        else {
            throw PythonEnvironment.Failure(
                description: "the Python script's output is not as expected: \(output.jsonText.prefix(300))")
        }
        var walked: [String: String]?
        if case .array(let tiles)? = output["all"] {
            walked = [:]
            for tile in tiles {
                guard case .array(let parts) = tile, parts.count == 4, let hex = parts[3].text else { continue }
                walked?["\(parts[0].text ?? "")/\(parts[1].text ?? "")/\(parts[2].text ?? "")"] = hex
            }
        }
        return PythonView(header: header, metadata: metadata, got: got.map(\.text), walked: walked)
    }

    /// Lowercase hexadecimal digits, as Python's `bytes.hex()` writes them.
    private static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8](repeating: 0, count: data.count * 2)
        for (index, byte) in data.enumerated() {
            text[2 * index] = digits[Int(byte >> 4)]
            text[2 * index + 1] = digits[Int(byte & 0x0F)]
        }
        return String(decoding: text, as: UTF8.self)
    }

    @Test func pythonReadsEveryTileOfOurArchive() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("ours.pmtiles")
        // Zooms 0 to 5 in a shuffled order; at zoom 5 every other row is ocean, so the archive
        // has runs and deduplicated blobs as well as distinct tiles.
        var random = SeededGenerator(seed: 7)
        let tiles = TestArchives.pyramid(0...5).shuffled(using: &random)
        func bytes(_ tile: TileID) -> Data {
            tile.z == 5 && tile.y % 2 == 0 ? TestArchives.ocean : TestArchives.bytes(tile)
        }
        let metadata = TileMetadata(
            name: "Ours", format: .png, attribution: "Mapwright", otherValues: ["note": "ünïcode"])
        let header = try TestArchives.write(tiles.map { ($0, bytes($0)) }, to: url, metadata: metadata)
        #expect(header.tileContentCount < header.addressedTileCount)

        let missing = try [TileID(z: 6, x: 0, y: 0), TileID(z: 9, x: 100, y: 200)]
        let view = try readWithPython(url, requests: tiles + missing, in: directory)
        #expect(view.got == tiles.map { Self.hex(bytes($0)) } + [nil, nil])
        if let walked = view.walked {
            #expect(walked == Dictionary(uniqueKeysWithValues: tiles.map { ("\($0)", Self.hex(bytes($0))) }))
        }
        #expect(view.header["addressed_tiles_count"] == .number(Double(tiles.count)))
        #expect(view.header["tile_contents_count"] == .number(Double(header.tileContentCount)))
        #expect(view.header["clustered"] == .bool(true))
        #expect(view.header["tile_type"] == .number(2))
        #expect(view.header["min_zoom"] == .number(0) && view.header["max_zoom"] == .number(5))
        #expect(view.metadata["name"] == .string("Ours"))
        #expect(view.metadata["note"] == .string("ünïcode"))
        #expect(view.metadata["attribution"] == .string("Mapwright"))
    }

    @Test func pythonReadsOurLeafDirectories() throws {
        let directory = try TemporaryDirectory()
        let archive = try LargeArchive(in: directory)
        #expect(archive.header.leafDirectories.byteCount > 0)
        var random = SeededGenerator(seed: 8)
        let sample = (0..<100).map { _ in
            TileID(pmtilesID: UInt64.random(in: 0..<UInt64(LargeArchive.tileCount), using: &random))!
        }
        let view = try readWithPython(archive.url, requests: sample, in: directory)
        #expect(view.got == sample.map { Self.hex(archive.tiles[Int($0.pmtilesID)]) })
        if let walked = view.walked {
            #expect(walked.count == LargeArchive.tileCount)
            let wrong = walked.filter { key, hex in
                let parts = key.split(separator: "/").compactMap { Int($0) }
                guard parts.count == 3, let tile = try? TileID(z: parts[0], x: parts[1], y: parts[2]) else {
                    return true
                }
                return Self.hex(archive.tiles[Int(tile.pmtilesID)]) != hex
            }
            #expect(wrong.isEmpty, "\(wrong.count) tiles differ, e.g. \(wrong.keys.sorted().prefix(3))")
        }
    }

    /// Writes zooms 0 to 8 (87,381 tiles) with `pmtiles.writer`: `z/x/y` as the bytes, but the
    /// same `ocean` bytes where x + y is a multiple of 3 from zoom 6.
    private static let writeScript = #"""
        import sys
        from pmtiles.tile import zxy_to_tileid, TileType, Compression
        from pmtiles.writer import write

        tiles = []
        for z in range(0, 9):
            for x in range(1 << z):
                for y in range(1 << z):
                    data = b"ocean" if z >= 6 and (x + y) % 3 == 0 else f"{z}/{x}/{y}".encode()
                    tiles.append((zxy_to_tileid(z, x, y), data))
        tiles.sort()
        with write(sys.argv[1]) as writer:
            for tile_id, data in tiles:
                writer.write_tile(tile_id, data)
            writer.finalize(
                {"tile_type": TileType.PNG, "tile_compression": Compression.NONE, "center_zoom": 4,
                 "min_lon_e7": -1800000000, "min_lat_e7": -850511287, "max_lon_e7": 1800000000, "max_lat_e7": 850511287,
                 "center_lon_e7": 0, "center_lat_e7": 0},
                {"name": "from python", "attribution": "PyPI pmtiles", "vector_layers": []},
            )
        """#

    @Test func weReadEveryTileOfPythonsArchive() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("theirs.pmtiles")
        _ = try PythonEnvironment.pmtiles.run(Self.writeScript, arguments: [url.path], in: directory.url)

        let reader = try PMTilesReader(url: url)
        let tiles = TestArchives.pyramid(0...8)
        func bytes(_ tile: TileID) -> Data {
            tile.z >= 6 && (tile.x + tile.y) % 3 == 0 ? Data("ocean".utf8) : Data("\(tile)".utf8)
        }
        #expect(reader.header.internalCompression == .gzip)
        #expect(reader.header.tileType == .png)
        #expect(reader.header.addressedTileCount == UInt64(tiles.count))
        #expect((reader.header.minZoom, reader.header.maxZoom, reader.header.centerZoom) == (0, 8, 4))
        #expect(reader.header.leafDirectories.byteCount > 0, "the Python writer made leaf directories")
        #expect(reader.metadata().name == "from python")
        #expect(reader.metadata().json == #"{"vector_layers":[]}"#)
        var wrong: [TileID] = []
        for tile in tiles where try reader.tile(at: tile) != bytes(tile) { wrong.append(tile) }
        #expect(wrong.isEmpty, "\(wrong.count) tiles differ, e.g. \(wrong.prefix(3))")
        #expect(try reader.tile(at: TileID(z: 9, x: 0, y: 0)) == nil)
        var walked = 0
        try reader.forEachTile { tile, data in
            if data != bytes(tile) { Issue.record("\(tile) walks back different bytes") }
            walked += 1
        }
        #expect(walked == tiles.count)
    }
}
