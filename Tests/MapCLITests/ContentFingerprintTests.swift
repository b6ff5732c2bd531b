import Foundation
import MapCore
import PhotoSources
import Testing

@testable import MapCLI

/// What `serve` keys and marks its overlay cache by, and `tiles export --resume` checks: every
/// field of a photo that an overlay tile or its callout may draw changes the fingerprint.
struct ContentFingerprintTests {
    @Test func everyDrawnFieldOfAPhotoChangesTheFingerprint() throws {
        let base = Photo(
            id: "a", title: "Half Dome", subtitle: "Moonrise", coordinate: try Coordinate(latitude: 37.7459, longitude: -119.5332),
            altitudeMeters: 2_000, horizontalAccuracyMeters: 5, dateTaken: Date(timeIntervalSince1970: 0), photographer: "Ansel Adams",
            storedImage: "/photos/a.jpg", storedThumbnail: "/photos/a.thumbnail.jpg")
        var changes: [String: Photo] = [:]
        func change(_ name: String, _ body: (inout Photo) throws -> Void) rethrows {
            var photo = base
            try body(&photo)
            changes[name] = photo
        }
        try change("id") { $0.id = "b" }
        try change("latitude") { $0.coordinate = try Coordinate(latitude: 37.75, longitude: -119.5332) }
        try change("longitude") { $0.coordinate = try Coordinate(latitude: 37.7459, longitude: -119.53) }
        change("title") { $0.title = "El Capitan" }
        change("no title") { $0.title = nil }
        change("subtitle") { $0.subtitle = "Dawn" }
        change("photographer") { $0.photographer = "Dorothea Lange" }
        change("altitude") { $0.altitudeMeters = 2_001 }
        change("accuracy") { $0.horizontalAccuracyMeters = 50 }
        change("date") { $0.dateTaken = Date(timeIntervalSince1970: 1) }
        change("image") { $0 = Photo(id: "a", title: "Half Dome", subtitle: "Moonrise", coordinate: $0.coordinate, altitudeMeters: 2_000,
                                     horizontalAccuracyMeters: 5, dateTaken: Date(timeIntervalSince1970: 0), photographer: "Ansel Adams",
                                     storedImage: "/photos/b.jpg", storedThumbnail: "/photos/a.thumbnail.jpg") }
        change("thumbnail") { $0 = Photo(id: "a", title: "Half Dome", subtitle: "Moonrise", coordinate: $0.coordinate, altitudeMeters: 2_000,
                                         horizontalAccuracyMeters: 5, dateTaken: Date(timeIntervalSince1970: 0), photographer: "Ansel Adams",
                                         storedImage: "/photos/a.jpg", storedThumbnail: "/photos/b.thumbnail.jpg") }
        let fingerprint = ContentFingerprint.photos([base])
        #expect(ContentFingerprint.photos([base]) == fingerprint)
        #expect(fingerprint.hasPrefix("1:"))
        for (name, photo) in changes.sorted(by: { $0.key < $1.key }) {
            #expect(ContentFingerprint.photos([photo]) != fingerprint, "\(name)")
        }
        #expect(Set(changes.values.map { ContentFingerprint.photos([$0]) }).count == changes.count)
        // Fields cannot run into one another: "ab" + "" is not "a" + "b".
        var joined = base, split = base
        joined.title = "ab"
        joined.subtitle = nil
        split.title = "a"
        split.subtitle = "b"
        #expect(ContentFingerprint.photos([joined]) != ContentFingerprint.photos([split]))
    }
}
