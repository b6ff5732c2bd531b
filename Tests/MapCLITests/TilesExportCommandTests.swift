import Foundation
import MBTiles
import MapCore
import MapTestSupport
import Testing
import TileSources

/// `mapwright tiles export` run as a person runs it: from another folder, relative paths with
/// spaces, negative coordinates, killed and resumed; the files checked with Python's sqlite3
/// module and GDAL, not only through our own reader.
@Suite(.serialized) struct TilesExportCommandTests {
    /// Runs python3 with a script and arguments; its standard output, trimmed.
    static func python(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Python's own view of an MBTiles file: integrity_check, tiles, distinct addresses, stored images.
    static func sqliteFacts(_ path: String) throws -> [String] {
        try python(
            """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            print(c.execute('pragma integrity_check').fetchone()[0])
            print(c.execute('select count(*) from tiles').fetchone()[0])
            print(c.execute('select count(*) from (select distinct zoom_level, tile_column, tile_row from tiles)').fetchone()[0])
            print(c.execute('select count(*) from images').fetchone()[0])
            """, [path]
        ).components(separatedBy: "\n")
    }

    @Test func exportFromAnotherFolderWithSpacesAndNegativeCoordinates() throws {
        let folder = try TemporaryDirectory()
        let result = try MapwrightProcess.run(
            [
                "tiles", "export", "--bbox", "-10,35,5,45", "--zoom", "0-5", "--metatile", "2", "-o",
                "my tiles/iberia west.mbtiles",
            ],
            in: folder.url)
        // The output's folder must exist, as for render.
        #expect(result.status == 2)
        #expect(result.standardError.contains("--output"))
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("my tiles"), withIntermediateDirectories: true)
        let run = try MapwrightProcess.run(
            [
                "tiles", "export", "--bbox", "-10,35,5,45", "--zoom", "0-5", "--metatile", "2", "-o",
                "my tiles/iberia west.mbtiles",
            ],
            in: folder.url)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("wrote 17 tiles to my tiles/iberia west.mbtiles"))
        let path = folder.url.appendingPathComponent("my tiles/iberia west.mbtiles").path
        let facts = try Self.sqliteFacts(path)
        #expect(facts == ["ok", "17", "17", facts[3]])
        let metadata = try MBTilesStore(url: URL(fileURLWithPath: path)).metadata()
        #expect(metadata.name == "iberia west")
        #expect(metadata.format == .png)
        #expect(metadata.minZoom == 0 && metadata.maxZoom == 5)
        #expect(metadata.bounds == BoundingBox(west: -10, south: 35, east: 5, north: 45))
        // Madrid (40.42 N, 3.70 W) at zoom 5 is XYZ tile 15/12, TMS row 2^5 - 1 - 12 = 19.
        let madrid = try Self.python(
            "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('select length(tile_data) from tiles where zoom_level=5 and tile_column=15 and tile_row=19').fetchone()[0])",
            [path])
        #expect((Int(madrid) ?? 0) > 100)
    }

    /// An export across the antimeridian has whole-world bounds (MBTiles bounds cannot cross it)
    /// and its centre on the antimeridian, where the area is, not at 0° in the other ocean; in
    /// MBTiles and in the PMTiles header alike.
    @Test func anExportAcrossTheAntimeridianIsCentredOnIt() throws {
        let folder = try TemporaryDirectory()
        for file in ["pacific.mbtiles", "pacific.pmtiles"] {
            let run = try MapwrightProcess.run(
                ["tiles", "export", "--style", "muted", "--bbox", "170,-50,-170,-30", "--zoom", "0-2", "-o", file],
                in: folder.url)
            #expect(run.status == 0, "\(run.standardError)")
            let info = try MapwrightProcess.run(["tiles", "info", file, "--json"], in: folder.url)
            let json = try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any]
            let metadata = json?["metadata"] as? [String: Any]
            let center = (metadata?["center"] as? String ?? "").split(separator: ",").compactMap { Double($0) }
            #expect(
                center.count == 3 && abs(abs(center[0]) - 180) < 1e-6 && abs(center[1] + 40) < 1e-6,
                "\(file): \(info.standardOutput)")
        }
    }

    @Test func gdalReadsTheExportsBoundsAndZooms() throws {
        let gdalinfo = ["/usr/bin/gdalinfo", "/usr/local/bin/gdalinfo"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let gdalinfo else {
            Issue.record("gdalinfo is missing: scripts/setup.sh installs gdal-bin")
            return
        }
        let folder = try TemporaryDirectory()
        let run = try MapwrightProcess.run(
            ["tiles", "export", "--bbox", "-10,35,5,45", "--zoom", "2-5", "-o", "out.mbtiles"], in: folder.url)
        #expect(run.status == 0, "\(run.standardError)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gdalinfo)
        process.arguments = ["-json", folder.url.appendingPathComponent("out.mbtiles").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let info = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let metadata = try #require((info["metadata"] as? [String: Any])?[""] as? [String: String])
        #expect(metadata["ZOOM_LEVEL"] == "5")
        #expect(metadata["minzoom"] == "2" && metadata["maxzoom"] == "5")
        #expect(metadata["bounds"] == "-10,35,5,45")
        // GDAL crops the zoom 5 mosaic to the bounds: its corners, in EPSG:3857 metres, are the
        // bounds' (x = R·λ, y = R·ln tan(π/4 + φ/2)) within one zoom 5 pixel (4,892 m).
        let corners = try #require(info["cornerCoordinates"] as? [String: [Double]])
        let radius = 6_378_137.0
        func x(_ longitude: Double) -> Double { radius * longitude * .pi / 180 }
        func y(_ latitude: Double) -> Double { radius * log(tan(.pi / 4 + latitude * .pi / 360)) }
        let upperLeft = try #require(corners["upperLeft"])
        let lowerRight = try #require(corners["lowerRight"])
        for (found, expected) in zip(upperLeft + lowerRight, [x(-10), y(45), x(5), y(35)]) {
            #expect(abs(found - expected) < 4_892, "\(upperLeft) \(lowerRight)")
        }
    }

    @Test func aKilledExportResumesWithEveryTileOnce() throws {
        let folder = try TemporaryDirectory()
        let arguments = [
            "tiles", "export", "--bbox", "-10,35,30,60", "--zoom", "0-7", "--metatile", "2", "--jobs", "1",
        ]
        let whole = try MapwrightProcess.run(arguments + ["-o", "whole.mbtiles"], in: folder.url)
        #expect(whole.status == 0, "\(whole.standardError)")

        // A child export, killed with SIGKILL once it has committed tiles.
        let process = Process()
        process.executableURL = try MapwrightProcess.executableURL()
        process.arguments = arguments + ["-o", "killed.mbtiles"]
        process.currentDirectoryURL = folder.url
        process.standardError = FileHandle.nullDevice
        try process.run()
        let workFile = folder.url.appendingPathComponent("killed.mbtiles.partial")
        let deadline = Date().addingTimeInterval(120)
        var committed = 0
        while committed == 0, process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            committed = (try? MBTilesStore(url: workFile).count()) ?? 0
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(committed > 0)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("killed.mbtiles").path))

        // Without --resume the work file is refused, named, and left as it is.
        let before = try Data(contentsOf: workFile)
        let refused = try MapwrightProcess.run(arguments + ["-o", "killed.mbtiles"], in: folder.url)
        #expect(refused.status == 2)
        #expect(
            refused.standardError
                == "mapwright: killed.mbtiles.partial: an interrupted run left this file: add --resume to finish it, or delete it to start again\n"
        )
        #expect(try Data(contentsOf: workFile) == before)

        let resumed = try MapwrightProcess.run(arguments + ["-o", "killed.mbtiles", "--resume"], in: folder.url)
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(resumed.standardError.contains("from the interrupted run"))
        #expect(!FileManager.default.fileExists(atPath: workFile.path))
        let expected = try Self.sqliteFacts(folder.url.appendingPathComponent("whole.mbtiles").path)
        let facts = try Self.sqliteFacts(folder.url.appendingPathComponent("killed.mbtiles").path)
        #expect(facts[0] == "ok")
        #expect(facts[1] == expected[1] && facts[2] == expected[1])
        let hashes = try [("whole", folder), ("killed", folder)].map { name, folder in
            try MBTilesStore(url: folder.url.appendingPathComponent("\(name).mbtiles")).metadataValue(
                forKey: "agg_tiles_hash")
        }
        #expect(hashes[0] != nil && hashes[0] == hashes[1])
    }

    @Test func ctrlCCommitsWhatIsRenderedAndSaysHowToResume() throws {
        let folder = try TemporaryDirectory()
        let process = Process()
        process.executableURL = try MapwrightProcess.executableURL()
        // Zooms 0-9 are about 5,000 tiles: minutes on one job, so the interrupt always lands mid-run.
        // It is sent once the first progress line shows tiles are being written (a fixed sleep
        // raced a fast machine: the run finished before the signal came).
        process.arguments = [
            "tiles", "export", "--bbox", "-10,35,30,60", "--zoom", "0-9", "--jobs", "1", "-o", "x.pmtiles",
        ]
        process.currentDirectoryURL = folder.url
        let error = Pipe()
        process.standardError = error
        try process.run()
        var received = Data()
        while !String(decoding: received, as: UTF8.self).contains(" tiles ("), process.isRunning {
            let chunk = error.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        kill(process.processIdentifier, SIGINT)
        received.append(error.fileHandleForReading.readDataToEndOfFile())
        let message = String(decoding: received, as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(
            message.hasSuffix("tiles are safe in x.pmtiles.partial; run the same command with --resume to finish\n"))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("x.pmtiles.partial").path))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("x.pmtiles").path))
    }

    @Test func dryRunCountsTilesAsTheSlippyMapFormulasDo() throws {
        let folder = try TemporaryDirectory()
        let run = try MapwrightProcess.run(
            ["tiles", "export", "--bbox", "-10,35,5,45", "--zoom", "0-9", "--dry-run", "-o", "x.mbtiles"],
            in: folder.url)
        #expect(run.status == 0, "\(run.standardError)")
        let rows = run.standardOutput.split(separator: "\n").dropFirst().prefix(10).map { $0.split(separator: " ") }
        for zoom in 0...9 {
            let n = Double(1 << zoom)
            func column(_ longitude: Double) -> Int { Int(((longitude + 180) / 360 * n).rounded(.down)) }
            func row(_ latitude: Double) -> Int {
                let radians = latitude * .pi / 180
                return Int(((1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2 * n).rounded(.down))
            }
            let expected = (column(5) - column(-10) + 1) * (row(35) - row(45) + 1)
            #expect(rows[zoom].first == "\(zoom)")
            #expect(
                rows[zoom].dropFirst().first.map { $0.replacingOccurrences(of: ",", with: "") } == "\(expected)",
                "zoom \(zoom)")
        }
        #expect(run.standardOutput.contains("estimate: about"))
        #expect((try FileManager.default.contentsOfDirectory(atPath: folder.url.path)).isEmpty)
    }

    @Test func anOceanStoresOneImageForAllItsTiles() throws {
        let folder = try TemporaryDirectory()
        // The South Pacific west of Chile, with no land nor label at zoom 8: 7 x 9 tiles.
        let run = try MapwrightProcess.run(
            [
                "tiles", "export", "--bbox", "-125,-45,-116,-36", "--zoom", "8", "--layers", "basemap", "-o",
                "ocean.mbtiles",
            ], in: folder.url)
        #expect(run.status == 0, "\(run.standardError)")
        let facts = try Self.sqliteFacts(folder.url.appendingPathComponent("ocean.mbtiles").path)
        #expect(facts[0] == "ok")
        #expect((Int(facts[1]) ?? 0) > 40)
        #expect(facts[3] == "1")
    }

    @Test(arguments: [
        (["-o", "x.png"], "mapwright: --output: 'x.png' must end in .mbtiles or .pmtiles\n"),
        (
            ["--zoom", "9-3"],
            "mapwright: --zoom: MINZOOM 9 is above MAXZOOM 3 (the form is MINZOOM-MAXZOOM or ZOOM, e.g. 0-8)\n"
        ),
        (
            ["--shard", "4/4"],
            "mapwright: --shard: shard 4 is not among 0...3 (the form is K/N with 0 <= K < N, e.g. 0/4 for the first of four shards)\n"
        ),
        (["--tile-size", "300"], "mapwright: --tile-size: 300 is not 256 or 512\n"),
        (
            ["--no-area"],
            "mapwright: choose the area to export: --bbox, --region or --place (--bbox -180,-85.0511,180,85.0511 is the world)\n"
        ),
        (["--place", "Lilliput"], "mapwright: --place: no country, state/province or town named 'Lilliput'"),
    ])
    func badInputIsOneLineAndWritesNothing(change: [String], message: String) throws {
        let folder = try TemporaryDirectory()
        var arguments = ["tiles", "export", "--bbox", "-10,35,5,45", "--zoom", "0-2", "-o", "x.mbtiles"]
        if change == ["--no-area"] {
            arguments.removeSubrange(2...3)
        } else if change.first == "--place" {
            arguments.removeSubrange(2...3)
            arguments += change
        } else if let index = arguments.firstIndex(of: change[0]) {
            arguments[index + 1] = change[1]
        } else {
            arguments += change
        }
        let run = try MapwrightProcess.run(arguments, in: folder.url)
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix(message), "\(run.standardError)")
        #expect(run.standardError.split(separator: "\n").count == 1)
        #expect((try FileManager.default.contentsOfDirectory(atPath: folder.url.path)).isEmpty)
    }
}
