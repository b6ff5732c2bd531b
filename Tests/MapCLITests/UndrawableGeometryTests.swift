import Foundation
import MapCore
import MapTestSupport
import Testing

@testable import MapCLI

/// Shapes Web Mercator cannot draw as asked are refused with one line naming the option, before
/// any photo is read: circles that reach a pole or are larger than the Earth allows, great
/// circles between antipodes or from a place to itself, an empty span.
struct UndrawableGeometryTests {
    @Test(arguments: [
        (
            ["--circle", "80,0,2000000"],
            "mapwright: --circle: the circle around 80,0 reaches the North Pole, which Web Mercator cannot show: its ring would not close on the map; use a radius under 1111950 m"
        ),
        (["--circle", "-85,10,1000000"], "mapwright: --circle: the circle around -85,10 reaches the South Pole"),
        (["--circle", "90,0,1"], "mapwright: --circle: the circle around 90,0 reaches the North Pole"),
        (["--circle", "0,0,20000000"], "mapwright: --circle: the circle around 0,0 reaches the North Pole"),
        (
            ["--circle", "0,0,25000000"],
            "mapwright: --circle: METERS 25000000 is more than half the Earth's circumference (about 20,015 km): no circle is that large"
        ),
        (
            ["--great-circle", "0,0,0,180"],
            "mapwright: --great-circle: the ends 0,0 and 0,180 are antipodal: every great circle joins them, so the line has no one path; move an end"
        ),
        (["--great-circle", "45,-30,-45,150"], "mapwright: --great-circle: the ends 45,-30 and -45,150 are antipodal"),
        (
            ["--great-circle", "10,10,10,10"],
            "mapwright: --great-circle: the ends 10,10 and 10,10 are the same place: the line has no length"
        ),
        (
            ["--great-circle", "0,180,0,-180"],
            "mapwright: --great-circle: the ends 0,180 and 0,-180 are the same place"
        ),
        (["--great-circle", "90,0,90,120"], "mapwright: --great-circle: the ends 90,0 and 90,120 are the same place"),
        (
            ["--center", "0,0", "--span", "0,0"],
            "mapwright: --span: LATDELTA 0 must be more than 0 and at most 180 degrees"
        ),
    ])
    func refusedWithOneLineNamingTheOption(arguments: [String], message: String) throws {
        let result = try MapwrightProcess.run(["render", "--photos", "/nonexistent-mapwright-photos"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        #expect(result.standardError.hasPrefix(message), "\(arguments): \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }

    /// Just inside the limits, the shapes are drawn.
    @Test func shapesJustInsideTheLimitsAreTaken() throws {
        #expect(try ArgumentValues.circle("80,0,1111000").radiusMeters == 1_111_000)
        #expect(try ArgumentValues.circle("-60,170,3000000").center == Coordinate(latitude: -60, longitude: 170))
        #expect(try ArgumentValues.greatCircle("0,0,0,179.9").count == 2)
        #expect(try ArgumentValues.greatCircle("0,0,0,0.0001").count == 2)
        #expect(ArgumentValues.halfCircumferenceMeters == Earth.meanRadiusMeters * .pi)
        #expect(ArgumentValues.kilometers(20_015_114) == "20,015 km")
        #expect(ArgumentValues.kilometers(999) == "1 km" && ArgumentValues.kilometers(1_234_567_000) == "1,234,567 km")
    }

    /// A circle that comes near the pole without reaching it renders: its ring closes on the map.
    @Test func aCircleNearThePoleRenders() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        let output = directory.appendingPathComponent("map.png")
        let result = try MapwrightProcess.run([
            "render", "--circle", "70,20,1000000", "--great-circle", "51.47,-0.45,-33.94,151.18", "--size", "300x200",
            "-o", output.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: output.path))
    }
}
