import Foundation
import MapCore
import PhotoSources
import Testing

struct PhotoTests {
    private let yosemite = try! Coordinate(latitude: 37.7459, longitude: -119.5332)

    @Test func calloutShowsTitleThenSubtitle() {
        let photo = Photo(id: "1", title: "Half Dome", subtitle: "Winter", coordinate: yosemite)
        #expect(photo.calloutTitle == "Half Dome")
        #expect(photo.calloutSubtitle == "Winter")
    }

    @Test func emptyTitleFallsBackToSubtitleWhichIsNotRepeated() {
        let photo = Photo(id: "1", title: " \n", subtitle: "Fog over the valley", coordinate: yosemite)
        #expect(photo.title == nil)
        #expect(photo.calloutTitle == "Fog over the valley")
        #expect(photo.calloutSubtitle == nil)
    }

    @Test func calloutIsNeverBlank() {
        let photo = Photo(id: "1", title: "", subtitle: "  ", coordinate: yosemite)
        #expect(photo.calloutTitle == "Untitled")
        #expect(photo.calloutSubtitle == nil)
    }

    @Test func codableRoundTripKeepsEveryField() throws {
        let photo = Photo(
            id: "adams/half-dome.jpg", title: "Half Dome", subtitle: "Ακρόπολη · 长城 · مكتبة", coordinate: yosemite,
            altitudeMeters: -12.5, horizontalAccuracyMeters: 5, dateTaken: Date(timeIntervalSince1970: 1_000_000),
            photographer: "Ansel Adams", image: .file(URL(fileURLWithPath: "/photos/half-dome.jpg")),
            thumbnail: .remote(URL(string: "https://example.org/s.jpg")!)
        )
        let decoded = try JSONDecoder().decode(Photo.self, from: JSONEncoder().encode(photo))
        #expect(decoded == photo)
    }

    @Test func imageReferencesReadPathsAndURLs() {
        let base = URL(fileURLWithPath: "/data/photos", isDirectory: true)
        #expect(ImageReference("a/b.jpg", relativeTo: base) == .file(URL(fileURLWithPath: "/data/photos/a/b.jpg")))
        #expect(ImageReference("../c.jpg", relativeTo: base) == .file(URL(fileURLWithPath: "/data/c.jpg")))
        #expect(ImageReference("HTTPS://example.org/x.jpg", relativeTo: base)?.url.host == "example.org")
        #expect(ImageReference("ftp://example.org/x.jpg", relativeTo: base) == nil)
        #expect(ImageReference("  ", relativeTo: base) == nil)
    }
}
