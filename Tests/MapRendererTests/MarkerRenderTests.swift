import Foundation
import ImageCodec
import MapComposer
import MapCore
import MapRenderer
import MapStyle
import MapTestSupport
import Testing

struct MarkerRenderTests {
    private func pin(_ id: String, _ latitude: Double, _ longitude: Double, _ color: String, title: String = "") throws
        -> MapAnnotation
    {
        MapAnnotation(
            id: id, coordinate: try RenderFixtures.coordinate(latitude, longitude), title: title,
            marker: .pin(try Color(css: color)))
    }

    @Test func pinTipSitsExactlyOnItsCoordinate() throws {
        let center = try RenderFixtures.coordinate(48.8566, 2.3522)
        let viewport = try Viewport(center: center, zoomLevel: 14, size: ViewSize(width: 101, height: 101), scale: 2)
        let options = MapSnapshotOptions(
            viewport: viewport, style: try RenderFixtures.plainStyle("#ffffff"),
            annotations: [MapAnnotation(id: "p", coordinate: center, title: "P", marker: .pin(try Color(css: "red")))],
            showsAttribution: false)
        let image = try RenderFixtures.snapshotter.snapshot(options).image
        // The needle is the only thing drawn below the head: find its lowest inked pixel.
        let tip = try #require(viewport.point(for: center))
        var lowest: (x: Int, y: Int)?
        for y in 0..<image.height {
            for x in 0..<image.width where image[x: x, y: y].red < 200 && image[x: x, y: y].blue < 200 {
                if y >= (lowest?.y ?? -1) { lowest = (x, y) }
            }
        }
        let found = try #require(lowest)
        // The tip is at view point (50.5, 50.5): pixels 100...101 at @2x; the round cap reaches 0.75 pt further.
        #expect(
            abs(Double(found.y) + 0.5 - tip.y * 2) <= 2.5, "lowest needle pixel row \(found.y), tip at \(tip.y * 2)")
        #expect(abs(Double(found.x) + 0.5 - tip.x * 2) <= 2, "needle pixel column \(found.x), tip at \(tip.x * 2)")
    }

    @Test func pinsOfSeveralColoursOverlapSouthOverNorth() throws {
        let center = try RenderFixtures.coordinate(40.0, -105.0)
        let viewport = try Viewport(center: center, zoomLevel: 12, size: ViewSize(width: 240, height: 160))
        let annotations = [
            try pin("north", 40.003, -105.001, "red"),
            try pin("south", 40.0, -105.0, "green"),
            try pin("east", 40.001, -104.992, "purple"),
            try pin("west", 39.998, -105.012, "#ff9500"),
        ]
        let options = MapSnapshotOptions(
            viewport: viewport, style: try RenderFixtures.plainStyle(), annotations: annotations,
            showsAttribution: false)
        assertRenderMatches(try RenderFixtures.snapshotter.snapshot(options).image, named: "pins-colours")
    }

    @Test func selectedCalloutShowsThumbnailTitleAndSubtitleAboveItsPin() throws {
        let center = try RenderFixtures.coordinate(37.7456, -119.5936)
        let viewport = try Viewport(center: center, zoomLevel: 13, size: ViewSize(width: 360, height: 220), scale: 2)
        let annotation = MapAnnotation(
            id: "half-dome", coordinate: try RenderFixtures.coordinate(37.73, -119.59),
            title: "Half Dome from Glacier Point",
            subtitle: "Ansel Adams · 1927-04-10", marker: .pin(try Color(css: "red")),
            thumbnail: RenderFixtures.thumbnail())
        let options = MapSnapshotOptions(
            viewport: viewport, style: try RenderFixtures.plainStyle(), annotations: [annotation],
            selectedAnnotationID: "half-dome", showsAttribution: false)
        assertRenderMatches(try RenderFixtures.snapshotter.snapshot(options).image, named: "callout-thumbnail@2x")
    }

    @Test func calloutShiftsToStayInsideTheImageAndTruncatesLongTitles() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(0, 0), zoomLevel: 10, size: ViewSize(width: 260, height: 160))
        // A pin near the left edge with a title far too long for the callout.
        let annotation = MapAnnotation(
            id: "edge", coordinate: try RenderFixtures.coordinate(-0.05, -0.16),
            title: "Ο Παρθενώνας και η Ακρόπολη της Αθήνας τη νύχτα, από τον λόφο του Φιλοπάππου",
            subtitle: "李明 · 北京", marker: .pin(try Color(css: "purple")))
        let options = MapSnapshotOptions(
            viewport: viewport, style: try RenderFixtures.plainStyle(), annotations: [annotation],
            selectedAnnotationID: "edge", showsAttribution: false)
        let image = try RenderFixtures.snapshotter.snapshot(options).image
        assertRenderMatches(image, named: "callout-edge-unicode")
        // The bubble shifted right to stay inside the image: it starts 4 points in, its shadow before it.
        let row = 35
        #expect(image[x: 8, y: row] == RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(image[x: 0, y: row] != RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255))
    }

    @Test func untitledAnnotationsStillGetATitle() throws {
        let plain = MapAnnotation(
            id: "a", coordinate: try RenderFixtures.coordinate(0, 0), title: " ", subtitle: "", marker: .pin(.black))
        #expect(plain.calloutTitle == "Untitled")
        let subtitled = MapAnnotation(
            id: "b", coordinate: try RenderFixtures.coordinate(0, 0), title: "", subtitle: "Sunset",
            marker: .pin(.black))
        #expect(subtitled.calloutTitle == "Sunset")
    }

    @Test func onlyMarkersThatCanTouchTheImageAreDrawn() throws {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(0, 0), zoomLevel: 10, size: ViewSize(width: 100, height: 100))
        let far = try pin("far", 10, 10, "red")
        let options = MapSnapshotOptions(
            viewport: viewport, style: try RenderFixtures.plainStyle("#ffffff"), annotations: [far],
            showsAttribution: false)
        let image = try RenderFixtures.snapshotter.snapshot(options).image
        #expect(Set(stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] }) == [255])
    }
}
