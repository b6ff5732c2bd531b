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
            let altitude = Camera.altitudeMeters(
                forZoomLevel: 13.25, latitude: 47.3, pitchDegrees: pitch, viewportHeightPoints: 900)
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

    @Test func lookingAtACentreFromAnEyeGivesHeadingPitchAndAltitude() throws {
        let center = try Coordinate(latitude: 46.5, longitude: 6.6)
        // 1 km south of the centre, 1 km up: looking north, 45° from straight down.
        let south = center.coordinate(at: 1000, facing: 180)
        let fromSouth = try Camera(lookingAt: center, fromEye: south, eyeAltitudeMeters: 1000)
        #expect(abs(fromSouth.headingDegrees) < 1e-6 || abs(fromSouth.headingDegrees - 360) < 1e-6)
        #expect(abs(fromSouth.pitchDegrees - 45) < 1e-9)
        #expect(fromSouth.altitudeMeters == 1000)
        // From the east, √3 km away at 1 km up: looking west, 60° from straight down. On the
        // equator the parallel is a great circle, so the heading is exactly west.
        let onEquator = try Coordinate(latitude: 0, longitude: 6.6)
        let east = onEquator.coordinate(at: 1000 * 3.0.squareRoot(), facing: 90)
        let fromEast = try Camera(lookingAt: onEquator, fromEye: east, eyeAltitudeMeters: 1000)
        #expect(abs(fromEast.headingDegrees - 270) < 1e-9)
        #expect(abs(fromEast.pitchDegrees - 60) < 1e-9)
        // Straight above: heading 0, pitch 0.
        let above = try Camera(lookingAt: center, fromEye: center, eyeAltitudeMeters: 500)
        #expect(above.headingDegrees == 0 && above.pitchDegrees == 0)
    }

    @Test func anEyeTooFarAndLowIsRejected() throws {
        let center = try Coordinate(latitude: 0, longitude: 0)
        let far = center.coordinate(at: 100_000, facing: 0)
        #expect(throws: MapCoreError.self) { try Camera(lookingAt: center, fromEye: far, eyeAltitudeMeters: 10) }
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
