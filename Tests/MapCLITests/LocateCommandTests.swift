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
