import Foundation
import MapComposer
import MapCore
import MapRenderer
import MapTestSupport
import PhotoSources
import Testing

/// Problems with the selected photo's thumbnail are warnings: the map is still made.
struct PhotoMapBuilderWarningsTests {
    private func request(for image: URL) throws -> PhotoMapRequest {
        let photo = Photo(
            id: "a", title: "Coit Tower", coordinate: try RenderFixtures.coordinate(37.8, -122.4),
            image: .file(image), thumbnail: .file(image))
        return PhotoMapRequest(photos: [photo], style: try RenderFixtures.style("standard"), selection: .first)
    }

    @Test func anUnwritableThumbnailCacheIsAWarningAndTheCalloutKeepsItsThumbnail() throws {
        let directory = try TemporaryDirectory()
        let image = directory.file("a.jpg")
        try FileManager.default.copyItem(
            at: RepositoryFiles.root.appendingPathComponent("Samples/photos/ansel-adams/el-capitan.jpg"), to: image)
        let blocker = try directory.write("not a folder", to: "cache")
        let builder = PhotoMapBuilder(
            data: RenderFixtures.data, thumbnails: ThumbnailCache(directory: URL(fileURLWithPath: blocker)))
        var warnings: [PhotoMapWarning] = []
        let options = try builder.options(for: request(for: image), warnings: &warnings)
        #expect(options.annotations.first?.thumbnail != nil)
        #expect(warnings.count == 1)
        #expect(warnings.first?.description.hasPrefix("thumbnail cache \(blocker): cannot be written: ") == true)
        #expect(warnings.first?.description.hasSuffix("; thumbnails are made again on every run") == true)
    }

    @Test func aSelectedPhotoThatCannotBeDecodedIsDrawnWithoutAThumbnail() throws {
        let directory = try TemporaryDirectory()
        let image = URL(fileURLWithPath: try directory.write("not a JPEG", to: "broken.jpg"))
        let builder = PhotoMapBuilder(
            data: RenderFixtures.data, thumbnails: ThumbnailCache(directory: directory.file("cache")))
        var warnings: [PhotoMapWarning] = []
        let options = try builder.options(for: request(for: image), warnings: &warnings)
        #expect(options.selectedAnnotationID == "a")
        #expect(options.annotations.first?.thumbnail == nil)
        #expect(warnings.map(\.description).first?.hasPrefix("\(image.path): cannot be decoded as a photo") == true)
    }
}
