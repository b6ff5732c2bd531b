import Foundation
import MapTestSupport
import Testing

/// Bad input ends `mapwright` with one line in plain words naming the file or option: no
/// Foundation error domains, no libxml2 error numbers, no word said twice.
struct PlainMessagesTests {
    /// The one line `mapwright` printed on standard error, after checking it failed with `status`.
    private func failureLine(_ arguments: [String], status: Int32 = 2) throws -> String {
        let result = try MapwrightProcess.run(arguments)
        #expect(result.status == status, "\(arguments): status \(result.status), \(result.standardError)")
        let lines = result.standardError.split(separator: "\n").filter { !$0.contains("warning:") }
        #expect(lines.count == 1, "\(result.standardError)")
        let line = String(lines.first ?? "")
        for jargon in ["NSCocoaErrorDomain", "libxml2", "error 256", "The operation could not be completed"] {
            #expect(!line.contains(jargon), "\(line)")
        }
        return line
    }

    @Test func aFolderGivenForEachFileOptionSaysItIsAFolder() throws {
        let directory = try TemporaryDirectory()
        let output = directory.file("map.png").path
        for (option, name) in [("--track", "walk.gpx"), ("--overlay", "shapes.geojson"), ("--style", "custom.json")] {
            let folder = directory.file(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let line = try failureLine(["render", option, folder.path, "-o", output])
            #expect(line.hasSuffix("it is a folder, not a file"), "\(option): \(line)")
            #expect(line.contains(name), "\(option): \(line)")
        }
    }

    @Test func aTrackThatEndsEarlySaysSoWithTheLine() throws {
        let directory = try TemporaryDirectory()
        let text = try String(
            contentsOf: MapwrightProcess.repository.appendingPathComponent("Samples/track.gpx"), encoding: .utf8)
        let path = try directory.write(String(text.prefix(400)), to: "cut.gpx")
        let line = try failureLine(["render", "--track", path, "-o", directory.file("map.png").path])
        #expect(line.contains("cut.gpx: line "), "\(line)")
        #expect(line.hasSuffix("the file ends early, before <trkseg> is closed"), "\(line)")
    }

    @Test func trackAndOverlayErrorsNameTheFileAsTyped() throws {
        // Relative names, typed in the folder the command runs in, come back as typed, not as
        // absolute paths.
        let directory = try TemporaryDirectory()
        _ = try directory.write("<gpx><trk><trkseg><trkpt lat='1' lon='2'>", to: "my walk.gpx")
        _ = try directory.write("{\"type\": \"Feature\"", to: "my shapes.geojson")
        for (option, name, reason) in [
            ("--track", "my walk.gpx", ": line 1: the file ends early, before <trkpt> is closed"),
            ("--overlay", "my shapes.geojson", ": is not valid JSON: it ends early, at line 1"),
        ] {
            let result = try MapwrightProcess.run(["render", option, name, "-o", "map.png"], in: directory.url)
            #expect(result.status == 2)
            #expect(result.standardError == "mapwright: \(name)\(reason)\n", "\(option)")
        }
    }

    /// Bad data inside a good file: one broken feature among valid ones is left out and counted
    /// in one warning line, and the map is drawn (at street scale in Edinburgh, where no
    /// street-level data is, with that warning too).
    @Test func aBrokenFeatureInAnOverlayIsSkippedWithOneWarning() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-3.2, 55.9], [-3.1, 56.0]]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-3.2, 55.9], [-3.1, 55.9]]]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon",
               "coordinates": [[[-3.25, 55.95], [-3.15, 55.95], [-3.15, 55.99], [-3.25, 55.95]]]}}
            ]}
            """, to: "my shapes.geojson")
        let result = try MapwrightProcess.run(
            ["render", "--overlay", "my shapes.geojson", "-o", "map.png"], in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: directory.file("map.png").path))
        let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(result.standardError)")
        #expect(
            lines.first == """
                mapwright: warning: my shapes.geojson: 1 broken feature is not drawn \
                (the first: feature 1: geometry.coordinates[0]: a polygon ring needs at least 4 positions, it has 2)
                """)
        #expect(
            lines.dropFirst().first?.hasPrefix("mapwright: warning: no street-level data covers this map (zoom ")
                == true)
    }

    @Test func aTrackWithoutPointsSaysSo() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test"><trk><name>Nothing</name><trkseg></trkseg></trk></gpx>
            """, to: "track.gpx")
        let line = try failureLine(["render", "--track", path, "-o", directory.file("map.png").path])
        #expect(line == "mapwright: \(path): has no track points or waypoints")
    }

    @Test func invalidJSONIsSaidOnce() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("{\"type\": \"FeatureCollection\",", to: "plain.json")
        for option in ["--overlay", "--style", "--photos"] {
            let line = try failureLine(["render", option, path, "-o", directory.file("map.png").path])
            #expect(line.hasSuffix("plain.json: is not valid JSON: it ends early, at line 1"), "\(option): \(line)")
        }
    }

    @Test(arguments: [
        (["--radius", "nan"], "--radius: nan is not a positive number of points"),
        (["--radius", "0"], "--radius: 0 is not a positive number of points"),
        (["--min-points", "1"], "--min-points: 1 is less than 2"),
        (["--max-zoom", "40"], "--max-zoom: 40 is outside [0, 30]"),
    ])
    func clusterOptionProblemsNameTheOption(arguments: [String], message: String) throws {
        let line = try failureLine(["cluster", "--photos", "Samples/photos", "--zoom", "3"] + arguments)
        #expect(line == "mapwright: \(message)")
    }
}
