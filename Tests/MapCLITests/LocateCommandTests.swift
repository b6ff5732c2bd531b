import ArgumentParser
import Foundation
import Testing

@testable import MapCLI
@testable import MapCore

struct LocateCommandTests {
    @Test func parsesCameraCoordinatesAndPoints() throws {
        let command = try LocateCommand.parse([
            "--center", "48.8566,2.3522", "--zoom", "12", "--size", "800x600", "--scale", "2",
            "--heading", "30", "--pitch", "45", "--coordinate", "48.8584,2.2945", "--coordinate", "48.86,2.35",
            "--point", "400,100", "--json",
        ])
        let viewport = try command.camera.viewport()
        #expect(viewport.zoomLevel == 12 && viewport.scale == 2)
        #expect(viewport.camera.headingDegrees == 30 && viewport.camera.pitchDegrees == 45)
        #expect(command.coordinates.count == 2 && command.points == [ViewPoint(x: 400, y: 100)])
        #expect(command.json)
    }

    @Test func jsonReportHasTheDocumentedShape() throws {
        let command = try LocateCommand.parse([
            "--center", "48.8566,2.3522", "--zoom", "12", "--size", "800x600", "--pitch", "60",
            "--coordinate", "48.8584,2.2945", "--point", "400,300", "--point", "400,-5000",
        ])
        let report = try LocateReport(
            viewport: command.camera.viewport(), coordinates: command.coordinates, points: command.points)
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(Set(object.keys) == ["visibleRegion", "coordinates", "points"])
        let coordinate = try #require((object["coordinates"] as? [[String: Any]])?.first)
        #expect(Set(coordinate.keys) == ["latitude", "longitude", "point", "mapPoint", "tile"])
        #expect((coordinate["tile"] as? [String: Int]) == ["z": 12, "x": 2074, "y": 1409])
        #expect(Set((coordinate["point"] as? [String: Double])?.keys ?? [:].keys) == ["x", "y"])
        let points = try #require(object["points"] as? [[String: Any]])
        let center = try #require(points[0]["coordinate"] as? [String: Double])
        #expect(
            abs(center["latitude", default: 0] - 48.8566) < 1e-9 && abs(center["longitude", default: 0] - 2.3522) < 1e-9
        )
        // Far above the horizon there is no ground: the coordinate is null, not missing.
        #expect(points[1]["coordinate"] is NSNull)
        let region = try #require(object["visibleRegion"] as? [String: Any])
        #expect(region["center"] != nil && region["span"] != nil)
    }

    @Test func textReportNamesEveryInput() throws {
        let viewport = try Viewport(
            center: Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 256, height: 256))
        let report = try LocateReport(
            viewport: viewport, coordinates: [Coordinate(latitude: 10, longitude: 20)],
            points: [ViewPoint(x: 128, y: 128)])
        #expect(report.text.contains("coordinate 10,20: point (184.889"))
        #expect(report.text.contains("tile 2/2/1"))
        #expect(report.text.contains("point 128,128: coordinate 0,0"))
    }

    @Test(arguments: [
        (["--center", "98,2", "--zoom", "3", "--size", "10x10"], "LAT 98 is not a latitude"),
        (["--center", "1,2", "--zoom", "31", "--size", "10x10"], "--zoom"),
        (["--center", "1,2", "--zoom", "3", "--size", "10by10"], "WIDTHxHEIGHT"),
        (["--center", "1,2", "--zoom", "3", "--size", "10x10", "--pitch", "89"], "--pitch"),
        (["--center", "1,2", "--zoom", "3", "--size", "10x10", "--point", "4"], "X,Y"),
    ])
    func badArgumentsFailNamingTheArgument(arguments: [String], fragment: String) {
        do {
            _ = try LocateCommand.parse(arguments)
            Issue.record("expected \(arguments) to fail")
        } catch {
            let message = Mapwright.message(for: error)
            #expect(message.contains(fragment), "\(message)")
            #expect(Mapwright.exitCode(for: error).rawValue != 0)
        }
    }
}
