import Foundation
import Testing

@testable import MapCore

struct CameraTests {
    @Test func headingIsWrappedIntoZeroToThreeSixty() throws {
        let center = try Coordinate(latitude: 0, longitude: 0)
        #expect(try Camera(centerCoordinate: center, headingDegrees: -90, altitudeMeters: 100).headingDegrees == 270)
        #expect(try Camera(centerCoordinate: center, headingDegrees: 720, altitudeMeters: 100).headingDegrees == 0)
    }

    @Test func altitudeAndZoomLevelAreInverse() throws {
        let center = try Coordinate(latitude: 47.3, longitude: 8.5)
        for pitch in [0.0, 30, 60] {
            let altitude = Camera.altitudeMeters(forZoomLevel: 13.25, latitude: 47.3, pitchDegrees: pitch, viewportHeightPoints: 900)
            let camera = try Camera(centerCoordinate: center, pitchDegrees: pitch, altitudeMeters: altitude)
            #expect(abs(camera.zoomLevel(viewportHeightPoints: 900) - 13.25) < 1e-12)
        }
    }

    @Test func altitudeAtZoomZeroOnTheEquatorMatchesTheFieldOfView() {
        // 256 points tall, 156,543.03 m per point, the eye 1.5 heights away.
        let altitude = Camera.altitudeMeters(forZoomLevel: 0, latitude: 0, pitchDegrees: 0, viewportHeightPoints: 256)
        #expect(abs(altitude - 1.5 * 256 * 156_543.033_928) < 0.01)
        #expect(abs(Camera.verticalFieldOfViewDegrees - 36.869_897_645_844) < 1e-9)
    }

    @Test func viewportFromCameraShowsTheCamerasZoom() throws {
        let center = try Coordinate(latitude: 35.68, longitude: 139.76)
        let camera = try Camera(centerCoordinate: center, headingDegrees: 10, pitchDegrees: 20, altitudeMeters: 1500)
        let viewport = try Viewport(camera: camera, size: ViewSize(width: 1200, height: 800), scale: 2)
        #expect(abs(viewport.zoomLevel - camera.zoomLevel(viewportHeightPoints: 800)) < 1e-12)
        #expect(viewport.pixelWidth == 2400 && viewport.pixelHeight == 1600)
    }

    @Test func invalidCameraValuesAreRejectedWithTheValueInTheMessage() throws {
        let center = try Coordinate(latitude: 0, longitude: 0)
        let cases: [(() throws -> Camera, String)] = [
            ({ try Camera(centerCoordinate: center, pitchDegrees: 95, altitudeMeters: 100) }, "pitch 95.0"),
            ({ try Camera(centerCoordinate: center, pitchDegrees: -1, altitudeMeters: 100) }, "pitch -1.0"),
            ({ try Camera(centerCoordinate: center, headingDegrees: .infinity, altitudeMeters: 100) }, "heading inf"),
            ({ try Camera(centerCoordinate: center, altitudeMeters: 0) }, "altitude 0.0"),
        ]
        for (make, fragment) in cases {
            do {
                _ = try make()
                Issue.record("expected an error mentioning \(fragment)")
            } catch {
                #expect(String(describing: error).contains(fragment), "\(error)")
            }
        }
    }
}
