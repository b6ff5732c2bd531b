import Foundation
import MapComposer
import MapCore
import PhotoSources
import Testing

/// Framing never leaves things out silently: photos outside the requested region, the selected
/// one among them, and a callout too large for the image are warnings.
struct PhotoMapBuilderFramingWarningsTests {
    private let builder = PhotoMapBuilder(
        data: RenderFixtures.data,
        thumbnails: ThumbnailCache(
            directory: FileManager.default.temporaryDirectory
                .appendingPathComponent("mapwright-thumbnails-tests")))

    private func photos() throws -> [Photo] {
        [
            Photo(
                id: "paris", title: "Pont Neuf", coordinate: try RenderFixtures.coordinate(48.857, 2.341),
                photographer: "A"),
            Photo(
                id: "lyon", title: "Fourvière", coordinate: try RenderFixtures.coordinate(45.762, 4.822),
                photographer: "A"),
            Photo(
                id: "tokyo", title: "Shibuya crossing at night",
                coordinate: try RenderFixtures.coordinate(35.659, 139.700), photographer: "B"),
        ]
    }

    private func warnings(_ request: PhotoMapRequest) throws -> [String] {
        var warnings: [PhotoMapWarning] = []
        _ = try builder.options(for: request, warnings: &warnings)
        return warnings.map(\.description)
    }

    @Test func photosOutsideAnExplicitRegionAreCounted() throws {
        let france = try CoordinateRegion(west: -5, south: 42, east: 8, north: 51)
        let request = PhotoMapRequest(
            photos: try photos(), style: try RenderFixtures.plainStyle(), framing: .region(france))
        #expect(try warnings(request) == ["1 of 3 photos lie outside the map's region and are not shown"])
    }

    @Test func aSelectedPhotoOutsideTheRegionIsNamed() throws {
        let request = PhotoMapRequest(
            photos: try photos(), style: try RenderFixtures.plainStyle(), selection: .photo("tokyo"),
            framing: .center(try RenderFixtures.coordinate(48.857, 2.341), zoomLevel: 6))
        let lines = try warnings(request)
        #expect(
            lines.contains(
                "the selected photo 'Shibuya crossing at night' lies outside the map's region; its callout is not shown"
            ), "\(lines)")
    }

    @Test func aCalloutLargerThanTheImageIsAWarning() throws {
        let request = PhotoMapRequest(
            photos: try photos(), style: try RenderFixtures.plainStyle(), selection: .photo("tokyo"),
            size: ViewSize(width: 90, height: 60))
        let lines = try warnings(request)
        #expect(
            lines.contains {
                $0.hasPrefix("the callout of 'Shibuya crossing at night' does not fit in a 90x60-point map")
            }, "\(lines)")
    }

    @Test func aFittedMapWithRoomWarnsOfNothing() throws {
        let request = PhotoMapRequest(
            photos: try photos(), style: try RenderFixtures.plainStyle(), selection: .first,
            size: ViewSize(width: 800, height: 500))
        #expect(try warnings(request).isEmpty)
    }
}
