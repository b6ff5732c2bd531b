import Foundation
import MapCore
import MapTestSupport
import PhotoSources
import Testing

/// The committed samples (made by scripts/tools/make-samples.py) load as README's commands expect.
struct SamplesTests {
    private let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples", isDirectory: true)

    @Test func samplePhotosHaveThreePhotographersAndTwoPhotosWithoutGPS() throws {
        let collection = try PhotoCollection.load(from: samples.appendingPathComponent("photos"))
        #expect(collection.photographers == ["Ansel Adams", "Dorothea Lange", "李明"])
        #expect(collection.photos.count == 21)
        #expect(collection.report.warningLine == "2 photos have no GPS location and were skipped")
        let adams = try collection.filtered(byPhotographer: "Ansel Adams")
        #expect(adams.photos.count == 7)
        #expect(adams.photos.allSatisfy { $0.altitudeMeters != nil && $0.dateTaken != nil })
    }

    @Test func samplePhotosSpanEveryHemisphereAndScript() throws {
        let photos = try PhotoCollection.load(from: samples.appendingPathComponent("photos")).photos
        func photo(_ id: String) throws -> Photo { try #require(photos.first { $0.id == id }) }
        let sydney = try photo("li-ming/sydney-opera-house.jpg")  // big-endian EXIF, XPTitle only
        #expect(sydney.title == "悉尼歌剧院")
        #expect(abs(sydney.coordinate.latitude - -33.8568) < 1e-5 && abs(sydney.coordinate.longitude - 151.2153) < 1e-5)
        let boca = try photo("li-ming/caminito-la-boca.jpg")
        #expect(boca.coordinate.latitude < 0 && boca.coordinate.longitude < 0)
        #expect(try photo("li-ming/acropolis.jpg").title == "Ακρόπολη την αυγή")
        #expect(try photo("li-ming/alexandria-library.jpg").title == "مكتبة الإسكندرية")
        #expect(try photo("dorothea-lange/oakland-waterfront.jpg").calloutTitle == "oakland-waterfront")
        let tunnelView = try photo("ansel-adams/tunnel-view.jpg")
        #expect(tunnelView.horizontalAccuracyMeters == 4)
        #expect(tunnelView.dateTaken == ISO8601DateFormatter().date(from: "2024-06-15T16:00:00Z"))
    }

    @Test func sampleThumbnailsDecode() throws {
        let cacheFolder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cacheFolder) }
        let cache = ThumbnailCache(directory: cacheFolder)
        let photos = try PhotoCollection.load(from: samples.appendingPathComponent("photos")).photos
        let thumbnails = try photos.prefix(4).map { photo in try cache.thumbnail(for: photo.image!.url, pixelSize: 92) }
        #expect(thumbnails.allSatisfy { $0.width == 92 && $0.height == 92 })
        #expect(Set(thumbnails).count == 4)
    }

    @Test func sampleFlickrJSONLoads() throws {
        let collection = try PhotoCollection.load(from: samples.appendingPathComponent("flickr-photos.json"))
        #expect(collection.photos.count == 5)
        #expect(collection.report.skippedWithoutLocation == 1)
        #expect(collection.photos.map(\.calloutTitle).contains("Cable car climbing Hyde Street"))
        #expect(collection.photographers == ["Maya Chen", "Tomás Rivera", "Νίκος Αντωνίου", "王芳"])
    }
}
