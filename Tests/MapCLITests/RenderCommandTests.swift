import Foundation
import ImageCodec
import Testing

@testable import MapCLI

/// `mapwright render` run as a process, as a person runs it: exit statuses, one-line errors, and
/// output files written whole or not at all.
struct RenderCommandTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mapwright-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func rendersTheSamplePhotographerWithHerTrack() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("map.png")
        let result = try MapwrightProcess.run([
            "render", "--photos", "Samples/photos", "--photographer", "Ansel Adams", "--select", "first",
            "--track", "Samples/track.gpx", "--size", "600x400", "--scale", "2", "-o", output.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("2 photos have no GPS location and were skipped"))
        let image = try RGBAImage(contentsOf: output)
        #expect(image.width == 1200 && image.height == 800)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["map.png"])
    }

    /// README's first command: the Helsinki photographer's photos and walk over the streets of
    /// the sample setup puts in Tiles/streets/, with no warning (street-level data covers it).
    @Test func readmesFirstMapHasStreetsUnderThePhotosAndTheWalk() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let readme = try String(
            contentsOf: MapwrightProcess.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let command = try #require(
            readme.split(separator: "\n").first { $0.hasPrefix("bash scripts/setup.sh && swift run mapwright render") })
        #expect(
            command.contains("--photos Samples/helsinki/photos.csv")
                && command.contains("--track Samples/helsinki/walk.gpx"))
        let output = directory.appendingPathComponent("map.png")
        let result = try MapwrightProcess.run([
            "render", "--photos", "Samples/helsinki/photos.csv", "--photographer", "Signe Brander", "--select", "first",
            "--track", "Samples/helsinki/walk.gpx", "--size", "760x720", "--scale", "2", "-o", output.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        let image = try RGBAImage(contentsOf: output)
        #expect(image.width == 1520 && image.height == 1440)
        // Streets, buildings, parks, water, the walk and pins: many colours, not beige land.
        let colours = Set(
            stride(from: 0, to: image.pixels.count, by: 4 * 97).map { image.pixels[$0..<$0 + 3].map { Int($0) / 16 } })
        #expect(colours.count > 40, "\(colours.count) colour groups")
    }

    /// A track is known by its content, not its name: the sample walk as `.gpx.xml`, gzip'd as
    /// `.gpx.gz`, and with no extension draws exactly as `walk.gpx` does.
    @Test func tracksAreKnownByTheirContent() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let walk = MapwrightProcess.repository.appendingPathComponent("Samples/helsinki/walk.gpx")
        try FileManager.default.copyItem(at: walk, to: directory.appendingPathComponent("walk.gpx.xml"))
        try FileManager.default.copyItem(at: walk, to: directory.appendingPathComponent("walk"))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["sh", "-c", "gzip -c walk.gpx.xml > walk.gpx.gz"]
        gzip.currentDirectoryURL = directory
        try gzip.run()
        gzip.waitUntilExit()
        var images: [Data] = []
        for track in [walk.path, "walk.gpx.xml", "walk.gpx.gz", "walk"] {
            let result = try MapwrightProcess.run(
                ["render", "--track", track, "--size", "300x200", "-o", "map.png"], in: directory)
            #expect(result.status == 0, "\(track): \(result.standardError)")
            images.append(try Data(contentsOf: directory.appendingPathComponent("map.png")))
        }
        #expect(images.count == 4 && images.allSatisfy { $0 == images[0] }, "the same walk draws the same map")
    }

    @Test func sameArgumentsGiveIdenticalFiles() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [Data] = []
        for name in ["a.png", "b.png"] {
            let output = directory.appendingPathComponent(name)
            let result = try MapwrightProcess.run([
                "render", "--photos", "Samples/flickr-photos.json", "--select", "first", "--size", "300x200", "-o",
                output.path,
            ])
            #expect(result.status == 0, "\(result.standardError)")
            files.append(try Data(contentsOf: output))
        }
        #expect(files[0] == files[1])
    }

    @Test func writesPDFWhenTheOutputSaysSo() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("map.pdf")
        let result = try MapwrightProcess.run(["render", "--place", "Greece", "--size", "300x200", "-o", output.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Data(contentsOf: output).prefix(4) == Data("%PDF".utf8))
    }

    @Test(arguments: [
        (["--size", "0x100"], "--size"),
        (["--size", "10000x100", "--scale", "2"], "larger than 16384"),
        (["--region", "1,2,3"], "--region"),
        (["--bbox", "10,50,20,40"], "--bbox"),
        (["--center", "1,2"], "--zoom"),
        (["--scale", "5"], "--scale"),
        (["--circle", "1,2,-5"], "--circle"),
        (["--pin-color", "blu"], "--pin-color"),
        (["-o", "map.gif"], "--output"),
        (["--photos", "Samples/missing.csv"], "Samples/missing.csv"),
        (["--photos", "Samples/photos", "--photographer", "Nobody"], "Ansel Adams"),
        (["--photos", "Samples/photos", "--select", "no such photo"], "--select"),
        (["--place", "Lilliput"], "Lilliput"),
        (["--style", "sepia"], "standard"),
        (["--style", "satellite", "--place", "Greece"], "--raster-source"),
        (
            ["--style", "satellite", "--place", "Greece", "--raster-source", "http://127.0.0.1:1/{z}/{x}/{y}.png"],
            "offline"
        ),
        (["--style", "hybrid", "--place", "Greece", "--raster-source", "tiles.png"], "--raster-source"),
        (["--track", "Samples/photos/li-ming"], "li-ming"),
    ])
    func badInputFailsWithOneLineNamingIt(arguments: [String], fragment: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("map.png")
        // A map from an earlier run must survive a failed one.
        try Data("earlier map".utf8).write(to: output)
        let explicitOutput = arguments.contains("-o") ? [] : ["-o", output.path]
        let result = try MapwrightProcess.run(["render"] + arguments + explicitOutput)
        #expect(result.status == 2, "\(arguments): status \(result.status), \(result.standardError)")
        let lines = result.standardError.split(separator: "\n").filter { !$0.contains("warning:") }
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(result.standardError.contains(fragment), "\(result.standardError)")
        #expect(try Data(contentsOf: output) == Data("earlier map".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["map.png"])
    }

    @Test func photosWithoutALocationExitWithStatusOne() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("photos.csv")
        try Data("latitude,longitude,title\n".utf8).write(to: csv)
        let result = try MapwrightProcess.run([
            "render", "--photos", csv.path, "-o", directory.appendingPathComponent("map.png").path,
        ])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("no photo has a location"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("map.png").path))
    }

    /// The style the executable prefetches while it parses (`Mapwright.prepare(for:)`) is the one
    /// the parser will find: the last `--style`, in either form, before a `--`.
    @Test func theStyleArgumentIsFoundBeforeParsing() {
        #expect(Mapwright.lastValue(of: "--style", in: ["--style", "dark", "--zoom", "3"]) == "dark")
        #expect(Mapwright.lastValue(of: "--style", in: ["--style=a b.json", "--style", "muted"]) == "muted")
        #expect(Mapwright.lastValue(of: "--style", in: ["--styles-directory", "S", "--style=x.json"]) == "x.json")
        #expect(Mapwright.lastValue(of: "--style", in: ["--zoom", "3", "--", "--style", "dark"]) == nil)
        #expect(Mapwright.lastValue(of: "--style", in: ["--style"]) == nil)
    }
}
