import Foundation
import MapAssembly
import MapCore
import Testing

/// What `mapwright locate` prints, as JSON and as text.
struct LocateReportTests {
    @Test func jsonReportHasTheDocumentedShape() throws {
        // mapwright locate --center 48.8566,2.3522 --zoom 12 --size 800x600 --pitch 60
        //   --coordinate 48.8584,2.2945 --point 400,300 --point 400,-5000
        let viewport = try Viewport(
            center: Coordinate(latitude: 48.8566, longitude: 2.3522), zoomLevel: 12,
            size: ViewSize(width: 800, height: 600), pitchDegrees: 60)
        let report = try LocateReport(
            viewport: viewport, coordinates: [Coordinate(latitude: 48.8584, longitude: 2.2945)],
            points: [ViewPoint(x: 400, y: 300), ViewPoint(x: 400, y: -5000)])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(report.jsonText.utf8)) as? [String: Any])
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
}
