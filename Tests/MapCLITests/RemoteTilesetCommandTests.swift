import Foundation
import MapTestSupport
import Testing

/// A PMTiles archive on a web server (a real nginx on loopback) used as a user would: registered
/// with `basemap add URL` and drawn, given as `--vector-source URL`, and cut with `tiles extract`.
struct RemoteTilesetCommandTests {
    @Test func aRemoteArchiveDrawsAsItsFileDoesAndExtractCutsARegion() throws {
        let directory = try TemporaryDirectory()
        let www = directory.file("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles"),
            to: directory.file("helsinki.mbtiles"))
        var environment = try MapwrightProcess.environmentWithoutStreets(in: directory.url)
        environment["XDG_CACHE_HOME"] = directory.file("user cache").path
        func run(_ arguments: [String]) throws -> MapwrightProcess.Output {
            try MapwrightProcess.run(arguments, in: directory.url, environment: environment)
        }
        #expect(try run(["tiles", "convert", "helsinki.mbtiles", "www/helsinki.pmtiles"]).status == 0)
        let server = try LoopbackNginx(serving: www, in: directory)
        let url = "\(server.baseURL)/helsinki.pmtiles"

        let added = try run(["basemap", "add", url])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(
            added.standardOutput == "registered helsinki: \(url), zooms 0-14, bounds 24.9352,60.1642,24.9534,60.1791\n")
        #expect(
            try run(["basemap", "list"]).standardOutput
                == "helsinki: \(url), zooms 0-14, bounds 24.9352,60.1642,24.9534,60.1791\n")
        let render = ["render", "--center", "60.17165,24.94425", "--zoom", "15", "--size", "400x300"]
        let remote = try run(render + ["-o", "remote.png"])
        #expect(remote.status == 0 && remote.standardError.isEmpty, "\(remote.standardError)")
        #expect(try server.requests().contains { $0.path == "/helsinki.pmtiles" && $0.status == 206 })

        // The same archive registered as a file draws the same map, byte for byte.
        #expect(try run(["basemap", "remove", "helsinki"]).status == 0)
        #expect(try run(["basemap", "add", "www/helsinki.pmtiles"]).status == 0)
        #expect(try run(render + ["-o", "local.png"]).status == 0)
        let same = try Data(contentsOf: directory.file("remote.png")) == Data(contentsOf: directory.file("local.png"))
        #expect(same, "the remote basemap draws another map than its file")

        // --vector-source takes the URL too.
        #expect(try run(["basemap", "remove", "helsinki"]).status == 0)
        let streets = [
            "render", "--style", "streets", "--center", "60.17165,24.94425", "--zoom", "15", "--size", "400x300",
        ]
        #expect(try run(streets + ["--vector-source", url, "-o", "streets-remote.png"]).status == 0)
        #expect(try run(streets + ["--vector-source", "www/helsinki.pmtiles", "-o", "streets-local.png"]).status == 0)
        let sameStreets =
            try Data(contentsOf: directory.file("streets-remote.png"))
            == Data(contentsOf: directory.file("streets-local.png"))
        #expect(sameStreets, "--vector-source URL draws another map than the file")

        // tiles extract cuts the city centre out of the remote archive.
        let extracted = try run([
            "tiles", "extract", url, "centre.pmtiles", "--bbox", "24.94,60.165,24.95,60.175", "--zoom", "12-14",
        ])
        #expect(extracted.status == 0, "\(extracted.standardError)")
        #expect(
            extracted.standardError.hasSuffix(" tiles to centre.pmtiles (zooms 12-14)\n"), "\(extracted.standardError)")
        let info = try run(["tiles", "info", "centre.pmtiles", "--json"])
        #expect(
            info.standardOutput.contains(#""bounds":"24.94,60.165,24.95,60.175""#)
                || info.standardOutput.contains(#""bounds": "24.94,60.165,24.95,60.175""#),
            "\(info.standardOutput.prefix(600))")
        let folderWithBox = try run(["tiles", "extract", url, "folder", "--bbox", "24.94,60.165,24.95,60.175"])
        #expect(folderWithBox.status == 2)
        #expect(
            folderWithBox.standardError.contains(
                "--bbox and --zoom cut a tileset: 'folder' must end in .mbtiles or .pmtiles"))
    }
}
