import Foundation
import MapTestSupport
import Testing

/// `mapwright tiles merge, info, validate, convert, extract, import, diff` run as processes from
/// a temporary folder on exported tilesets.
@Suite(.serialized) struct TilesFileCommandsTests {
    static let export = ["tiles", "export", "--bbox", "-10,35,5,45", "--zoom", "0-7", "--metatile", "2"]

    @Test func fourShardsRunAtOnceMergeIntoTheSingleExport() throws {
        let folder = try TemporaryDirectory()
        let single = try MapwrightProcess.run(Self.export + ["-o", "single.mbtiles"], in: folder.url)
        #expect(single.status == 0, "\(single.standardError)")
        // Four shard processes at once, as four pods of the Indexed Job would run.
        let processes = try (0..<4).map { index in
            let process = Process()
            process.executableURL = try MapwrightProcess.executableURL()
            process.arguments =
                Self.export + [
                    "--jobs", "1", "--shard", "\(index)/4", "--name", "single", "-o", "shard-\(index).mbtiles",
                ]
            process.currentDirectoryURL = folder.url
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let merged = try MapwrightProcess.run(
            [
                "tiles", "merge", "shard-0.mbtiles", "shard-1.mbtiles", "shard-2.mbtiles", "shard-3.mbtiles", "-o",
                "merged.mbtiles",
            ], in: folder.url)
        #expect(merged.status == 0, "\(merged.standardError)")
        let count = try #require(
            single.standardError.components(separatedBy: "wrote ").last?.split(separator: " ").first)
        #expect(merged.standardError == "wrote \(count) tiles to merged.mbtiles from 4 tilesets\n")
        let diff = try MapwrightProcess.run(
            ["tiles", "diff", "single.mbtiles", "merged.mbtiles", "--threshold", "0"], in: folder.url)
        #expect(diff.status == 0, "\(diff.standardOutput)")
        #expect(
            diff.standardOutput
                == "\(count) identical, 0 with the same pixels but other bytes, 0 different, 0 only in single.mbtiles, 0 only in merged.mbtiles\n"
        )
        let hashes = try ["single", "merged"].map { name in
            try MapwrightProcess.run(["tiles", "info", "\(name).mbtiles", "--json"], in: folder.url).standardOutput
                .components(separatedBy: "\"agg_tiles_hash\":\"")[1].prefix(32)
        }
        #expect(hashes[0] == hashes[1])
    }

    @Test func convertExtractImportAndDiffAsAPersonTypesThem() throws {
        let folder = try TemporaryDirectory()
        #expect(
            try MapwrightProcess.run(Self.export + ["--zoom", "0-4", "-o", "iberia.mbtiles"], in: folder.url).status
                == 0)
        let converted = try MapwrightProcess.run(
            ["tiles", "convert", "iberia.mbtiles", "iberia copy.pmtiles"], in: folder.url)
        #expect(
            converted.status == 0 && converted.standardError == "wrote 13 tiles to iberia copy.pmtiles\n",
            "\(converted.standardError)")
        let valid = try MapwrightProcess.run(["tiles", "validate", "iberia copy.pmtiles"], in: folder.url)
        #expect(valid.status == 0 && valid.standardOutput == "iberia copy.pmtiles: valid\n")
        let info = try MapwrightProcess.run(["tiles", "info", "iberia copy.pmtiles"], in: folder.url)
        #expect(info.standardOutput.contains("total 13 tiles"))
        #expect(
            try MapwrightProcess.run(["tiles", "extract", "iberia copy.pmtiles", "xyz tiles"], in: folder.url).status
                == 0)
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("xyz tiles/4/7/6.png").path))
        let again = try MapwrightProcess.run(["tiles", "extract", "iberia copy.pmtiles", "xyz tiles"], in: folder.url)
        #expect(again.status == 2 && again.standardError.hasPrefix("mapwright: xyz tiles: the folder is not empty"))
        #expect(try MapwrightProcess.run(["tiles", "import", "xyz tiles", "back.mbtiles"], in: folder.url).status == 0)
        let same = try MapwrightProcess.run(["tiles", "diff", "iberia.mbtiles", "back.mbtiles"], in: folder.url)
        #expect(same.status == 0, "\(same.standardOutput)")

        // Another style differs: the diff says by how much, with exit status 1.
        #expect(
            try MapwrightProcess.run(
                Self.export + ["--zoom", "0-4", "--style", "dark", "-o", "dark.mbtiles"], in: folder.url
            ).status == 0)
        let differs = try MapwrightProcess.run(
            ["tiles", "diff", "iberia.mbtiles", "dark.mbtiles", "--json"], in: folder.url)
        #expect(differs.status == 1)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(differs.standardOutput.utf8)) as? [String: Any])
        let different = try #require(json["different"] as? [[String: Any]])
        #expect(different.count == 13)  // 1 + 2 + 2 + 4 + 4 tiles at zooms 0 to 4
        #expect(different.allSatisfy { ($0["differentPixels"] as? Int ?? 0) > 1_000 })
    }

    @Test(arguments: [
        (["tiles", "info", "missing.mbtiles"], "mapwright: missing.mbtiles: there is no such file\n"),
        (
            ["tiles", "info", "notes.mbtiles"],
            "mapwright: notes.mbtiles: not a tileset (MBTiles or PMTiles): it is neither an SQLite database nor a PMTiles archive\n"
        ),
        (["tiles", "validate", "folder"], "mapwright: folder: it is a folder, not a tileset file\n"),
        (["tiles", "convert", "notes.mbtiles", "out.zip"], "mapwright: 'out.zip' must end in .mbtiles or .pmtiles\n"),
        (["tiles", "merge", "notes.mbtiles", "-o", "out.mbtiles"], "mapwright: give two or more tilesets to merge\n"),
        (
            ["tiles", "diff", "notes.mbtiles", "notes.mbtiles", "--threshold", "2"],
            "mapwright: --threshold: 2.0 is not between 0 and 1\n"
        ),
        (
            ["tiles", "import", "folder", "out.mbtiles"],
            "mapwright: folder: the folder holds no z/x/y tiles (such as 3/4/2.png)\n"
        ),
    ])
    func badInputIsOneLineNamingTheFile(arguments: [String], message: String) throws {
        let folder = try TemporaryDirectory()
        try Data("not tiles\n".utf8).write(to: folder.url.appendingPathComponent("notes.mbtiles"))
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        let run = try MapwrightProcess.run(arguments, in: folder.url)
        #expect(run.status == 2)
        #expect(run.standardError == message)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == before)
    }

    @Test func theBasemapGeoPackageIsRefusedAndLeftAlone() throws {
        let geopackage = MapwrightProcess.repository.appendingPathComponent("Tiles/basemap/world_map.gpkg")
        let before = try Data(contentsOf: geopackage)
        let run = try MapwrightProcess.run(["tiles", "info", geopackage.path])
        #expect(run.status == 2)
        #expect(run.standardError.contains("world_map.gpkg: not an MBTiles file"))
        #expect(try Data(contentsOf: geopackage) == before)
    }

    /// `tiles validate`'s whole output, with both streams in one place as a log has them: each
    /// problem on its own line, then the one-line verdict; "valid" ends its line.
    @Test func validateWritesWholeLinesInOrder() throws {
        let folder = try TemporaryDirectory()
        #expect(
            try MapwrightProcess.run(Self.export + ["--zoom", "0-2", "-o", "t.mbtiles"], in: folder.url).status == 0)
        func combined() throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", "exec \"$0\" tiles validate t.mbtiles 2>&1", try MapwrightProcess.executableURL().path,
            ]
            process.currentDirectoryURL = folder.url
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        let valid = try combined()
        #expect(valid.status == 0 && valid.output == "t.mbtiles: valid\n", "\(valid.output)")
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = [
            "python3", "-c",
            "import sqlite3; c = sqlite3.connect('t.mbtiles'); c.execute(\"DELETE FROM metadata WHERE name = 'name'\"); c.commit()",
        ]
        sqlite.currentDirectoryURL = folder.url
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        let invalid = try combined()
        #expect(invalid.status == 1)
        #expect(
            invalid.output == """
                t.mbtiles: metadata lacks `name`, which MBTiles 1.3 requires
                mapwright: t.mbtiles is not valid: 1 problem(s)

                """, "\(invalid.output)")
    }
}
