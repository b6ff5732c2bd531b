import Foundation
import ImageCodec
import MapComposer
import MapCore
import MapRenderer
import MapStyle
import MapTestSupport
import PhotoSources
import Testing

struct PhotoMapTests {
    private func photo(
        _ id: String, _ latitude: Double, _ longitude: Double, title: String? = nil, accuracy: Double? = nil
    ) throws -> Photo {
        Photo(
            id: id, title: title, coordinate: try RenderFixtures.coordinate(latitude, longitude),
            horizontalAccuracyMeters: accuracy, photographer: "Imogen Cunningham")
    }

    private var builder: PhotoMapBuilder {
        PhotoMapBuilder(
            data: RenderFixtures.data,
            thumbnails: ThumbnailCache(
                directory: FileManager.default.temporaryDirectory
                    .appendingPathComponent("mapwright-thumbnails-tests")))
    }

    @Test func selectionFindsThePhotoByIdThenByTitle() throws {
        let photos = [
            try photo("a", 37.8, -122.4, title: "Coit Tower"), try photo("b", 37.7, -122.5, title: "Ocean Beach"),
        ]
        let style = try RenderFixtures.style("standard")
        for (selection, expected) in [
            (PhotoMapRequest.Selection.first, "a"), (.photo("b"), "b"), (.photo("ocean beach"), "b"),
        ] {
            let options = try builder.options(for: PhotoMapRequest(photos: photos, style: style, selection: selection))
            #expect(options.selectedAnnotationID == expected)
        }
        #expect(throws: PhotoMapError.self) {
            try builder.options(for: PhotoMapRequest(photos: photos, style: style, selection: .photo("Alcatraz")))
        }
    }

    @Test func fittingLeavesRoomForPinsAndTheCallout() throws {
        let photos = [try photo("a", 37.80, -122.45), try photo("b", 37.75, -122.40)]
        let options = try builder.options(
            for: PhotoMapRequest(
                photos: photos, style: try RenderFixtures.style("standard"), selection: .first,
                size: ViewSize(width: 600, height: 400)))
        for photo in photos {
            let point = try #require(options.viewport.point(for: photo.coordinate))
            // Pins stand 35 points tall above their tips, and the callout above that.
            #expect(point.y >= 35 + 80 && point.y <= 400 - 10, "\(point)")
            #expect(point.x >= 20 && point.x <= 580, "\(point)")
        }
    }

    @Test func accuracyCirclesAndCustomMarkersAreDrawn() throws {
        var marker = RGBAImage(width: 24, height: 24)
        for y in 0..<24 {
            for x in 0..<24 where (x - 12) * (x - 12) + (y - 12) * (y - 12) < 100 {
                marker[x: x, y: y] = RGBAPixel(red: 20, green: 120, blue: 220, alpha: 255)
            }
        }
        let photos = [try photo("a", 51.5007, -0.1246, accuracy: 150), try photo("b", 51.5033, -0.1196, accuracy: 60)]
        var request = PhotoMapRequest(
            photos: photos, style: try RenderFixtures.plainStyle(),
            framing: .center(try RenderFixtures.coordinate(51.502, -0.122), zoomLevel: 15),
            size: ViewSize(width: 240, height: 160), markerImage: marker, showsAccuracy: true)
        request.selection = .none
        var options = try builder.options(for: request)
        options.showsAttribution = false
        #expect(options.overlays.count == 2)
        assertRenderMatches(try RenderFixtures.snapshotter.snapshot(options).image, named: "accuracy-custom-markers")
    }
}
