import ArgumentParser
import Foundation
import Testing

@testable import MapCLI
@testable import MapCore

/// Coordinates as people type them: southern and western values with a plain leading minus
/// (`--center -33.9,18.4`), in every command, and errors that say what was expected.
struct NegativeNumberTests {
    /// Every option of every command, from ArgumentParser's own description of the tool (the
    /// JSON behind `--experimental-dump-help`), with its parsing strategy.
    private func options() throws -> [(command: String, option: String, strategy: String)] {
        let dump = try #require(
            try JSONSerialization.jsonObject(with: Data(Mapwright._dumpHelp().utf8)) as? [String: Any])
        let root = try #require(dump["command"] as? [String: Any])
        var found: [(String, String, String)] = []
        func visit(_ command: [String: Any], path: String) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "option"
            {
                let name = ((argument["names"] as? [[String: Any]])?.first?["name"] as? String) ?? "?"
                found.append((path, name, argument["parsingStrategy"] as? String ?? "default"))
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                visit(sub, path: "\(path) \(sub["commandName"] as? String ?? "?")")
            }
        }
        visit(root, path: "mapwright")
        return found
    }

    /// Now and later: an option added without `parsing: .unconditional` (or
    /// `.unconditionalSingleValue` for repeated options) fails here, because its users in the
    /// southern or western hemisphere would have to write `--option=-33.9,…`.
    @Test func everyOptionOfEveryCommandTakesAValueStartingWithAMinus() throws {
        let all = try options()
        #expect(all.count > 30, "the tool description lists too few options: \(all.count)")
        let conditional = all.filter { $0.strategy != "unconditional" }.map { "\($0.command) --\($0.option)" }
        #expect(conditional.isEmpty, "options that refuse a value starting with '-': \(conditional)")
    }

    @Test func renderTakesSouthernAndWesternCoordinatesInEveryForm() throws {
        let center = try RenderCommand.parse(["--center", "-33.9,18.4", "--zoom", "10"])
        #expect(try center.region.choice() == .centerZoom(Coordinate(latitude: -33.9, longitude: 18.4), 10))
        let bbox = try RenderCommand.parse(["--bbox", "-10,35,5,45"])
        #expect(try bbox.region.choice() == .region(CoordinateRegion(west: -10, south: 35, east: 5, north: 45)))
        let region = try RenderCommand.parse(["--region", "-33.9,-70.6,1,2"])
        guard case .region(let parsed) = try region.region.choice() else {
            Issue.record("no region")
            return
        }
        #expect(parsed.center == (try Coordinate(latitude: -33.9, longitude: -70.6)))
        let shapes = try RenderCommand.parse([
            "--circle", "-33.9,18.4,5000", "--great-circle", "-33.94,151.18,51.47,-0.45", "--span", "0.2,0.3",
            "--center", "-1,-1",
        ])
        #expect(
            shapes.overlayOptions.circles == ["-33.9,18.4,5000"]
                && shapes.overlayOptions.greatCircles == ["-33.94,151.18,51.47,-0.45"])
        #expect(
            try ArgumentValues.circle(shapes.overlayOptions.circles[0]).center
                == Coordinate(latitude: -33.9, longitude: 18.4))
        #expect(
            try ArgumentValues.greatCircle(shapes.overlayOptions.greatCircles[0])[1]
                == Coordinate(latitude: 51.47, longitude: -0.45))
    }

    @Test func locateAndClusterTakeThemToo() throws {
        let locate = try LocateCommand.parse([
            "--center", "-33.9,18.4", "--zoom", "10", "--size", "200x100", "--heading", "-30",
            "--coordinate", "-33.91,18.41", "--point", "-5,-6",
        ])
        #expect(locate.camera.center == (try Coordinate(latitude: -33.9, longitude: 18.4)))
        #expect(locate.coordinates == [try Coordinate(latitude: -33.91, longitude: 18.41)])
        #expect(locate.points == [ViewPoint(x: -5, y: -6)])
        #expect(try locate.camera.viewport().camera.headingDegrees == 330)
        let cluster = try ClusterCommand.parse(["--photos", "x.csv", "--zoom", "3", "--bbox", "-130,-50,30,60"])
        #expect(try cluster.area.area() == .region(CoordinateRegion(west: -130, south: -50, east: 30, north: 60)))
    }

    @Test(arguments: [
        (["--bbox", "0,50,10,40"], "--bbox: SOUTH 50 is north of NORTH 40 (the order is WEST,SOUTH,EAST,NORTH)"),
        (
            ["--bbox", "10,40"],
            "--bbox: expected WEST,SOUTH,EAST,NORTH (4 numbers in degrees, separated by commas), e.g. -10,35,5,45; got '10,40'"
        ),
        (["--bbox", "-190,40,10,50"], "--bbox: WEST -190 is not a longitude between -180 and 180"),
        (["--region", "10,10,-1,2"], "--region: LATDELTA -1 must be more than 0 and at most 180 degrees"),
        (["--center", "1,1", "--span", "0,0"], "--span: LATDELTA 0 must be more than 0"),
        (["--circle", "10,10"], "--circle: expected LAT,LON,METERS"),
        (["--circle", "95,10,100"], "--circle: LAT 95 is not a latitude between -90 and 90"),
        (["--great-circle", "10,10,20,200"], "--great-circle: second LON 200 is not a longitude"),
        (["--center", "-91,0", "--zoom", "3"], "LAT -91 is not a latitude between -90 and 90"),
        (["--center", "-33.9,18.4", "--zoom", "-1"], "--zoom: -1 is not a zoom level from 0 to 30"),
    ])
    func coordinateErrorsNameTheOptionAndTheExpectedForm(arguments: [String], message: String) throws {
        let result = try MapwrightProcess.run(
            ["render", "--photos", "Samples/photos", "-o", "/nonexistent/never.png"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        let lines = result.standardError.split(separator: "\n").filter { !$0.contains("warning:") }
        #expect(lines.count == 1 && lines[0].contains(message), "\(arguments): \(result.standardError)")
        #expect(!result.standardError.contains("Missing value"), "\(result.standardError)")
    }

    @Test func theBinaryTakesANegativeCenterWrittenNaturally() throws {
        let result = try MapwrightProcess.run([
            "locate", "--center", "-33.9,18.4", "--zoom", "10", "--size", "200x100", "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let center = try #require((object["visibleRegion"] as? [String: Any])?["center"] as? [String: Double])
        #expect(abs(center["latitude", default: 0] + 33.9) < 1e-4 && abs(center["longitude", default: 0] - 18.4) < 1e-6)
    }

    /// Printed coordinates carry no binary noise: at most 7 decimal places (about 1 cm), so a
    /// photo at 37.8106 prints as 37.8106 even after a trip through Web Mercator.
    @Test func printedCoordinatesHaveNoBinaryNoise() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-noise-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("photos.csv")
        try Data("latitude,longitude,title\n37.8106,-122.4194,Pier\n-33.8568,151.2153,Opera\n".utf8).write(to: csv)
        let text = try MapwrightProcess.run(["cluster", "--photos", csv.path, "--zoom", "3"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(
            text.standardOutput.contains("at 37.8106,-122.4194")
                && text.standardOutput.contains("at -33.8568,151.2153"), "\(text.standardOutput)")
        let json = try MapwrightProcess.run(["cluster", "--photos", csv.path, "--zoom", "3", "--json"])
        #expect(
            json.standardOutput.contains("[-122.4194,37.8106]") || json.standardOutput.contains("-122.4194"),
            "\(json.standardOutput)")
        for output in [text.standardOutput, json.standardOutput] {
            // No run of 8 or more decimal digits anywhere.
            #expect(output.firstMatch(of: /\.\d{8,}/) == nil, "\(output)")
        }
        let locate = try MapwrightProcess.run([
            "locate", "--center", "37.8106,-122.4194", "--zoom", "12.3", "--size", "333x222", "--coordinate",
            "37.81,-122.42", "--point", "10,10",
        ])
        #expect(locate.standardOutput.firstMatch(of: /\.\d{8,}/) == nil, "\(locate.standardOutput)")
        #expect(locate.standardOutput.contains("coordinate 37.81,-122.42:"), "\(locate.standardOutput)")
    }

    @Test(arguments: [
        (37.810599999999994, "37.8106"), (-58.362700000000004, "-58.3627"), (48.0, "48"), (-0.00000001, "0"),
        (1e-7, "0.0000001"),
    ])
    func degreesPrintAsShortDecimals(value: Double, text: String) {
        #expect(value.decimalText(maximumFractionDigits: Double.displayedDegreeDecimalPlaces) == text)
        #expect(value.rounded(toDecimalPlaces: 7).description == Double(text)!.description)
    }
}
