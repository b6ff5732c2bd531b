import Foundation
import MapAssembly
import MapCore
import MapTestSupport
import PhotoSources
import Testing

/// What `serve` keys and marks its overlay cache by, and `tiles export --resume` checks: every
/// field of a photo that an overlay tile or its callout may draw changes the fingerprint.
struct ContentFingerprintTests {
    @Test func everyDrawnFieldOfAPhotoChangesTheFingerprint() throws {
        let base = Photo(
            id: "a", title: "Half Dome", subtitle: "Moonrise",
            coordinate: try Coordinate(latitude: 37.7459, longitude: -119.5332),
            altitudeMeters: 2_000, horizontalAccuracyMeters: 5, dateTaken: Date(timeIntervalSince1970: 0),
            photographer: "Ansel Adams",
            storedImage: "/photos/a.jpg", storedThumbnail: "/photos/a.thumbnail.jpg")
        var changes: [String: Photo] = [:]
        func change(_ name: String, _ body: (inout Photo) throws -> Void) rethrows {
            var photo = base
            try body(&photo)
            changes[name] = photo
        }
        change("id") { $0.id = "b" }
        try change("latitude") { $0.coordinate = try Coordinate(latitude: 37.75, longitude: -119.5332) }
        try change("longitude") { $0.coordinate = try Coordinate(latitude: 37.7459, longitude: -119.53) }
        change("title") { $0.title = "El Capitan" }
        change("no title") { $0.title = nil }
        change("subtitle") { $0.subtitle = "Dawn" }
        change("photographer") { $0.photographer = "Dorothea Lange" }
        change("altitude") { $0.altitudeMeters = 2_001 }
        change("accuracy") { $0.horizontalAccuracyMeters = 50 }
        change("date") { $0.dateTaken = Date(timeIntervalSince1970: 1) }
        change("image") {
            $0 = Photo(
                id: "a", title: "Half Dome", subtitle: "Moonrise", coordinate: $0.coordinate, altitudeMeters: 2_000,
                horizontalAccuracyMeters: 5, dateTaken: Date(timeIntervalSince1970: 0), photographer: "Ansel Adams",
                storedImage: "/photos/b.jpg", storedThumbnail: "/photos/a.thumbnail.jpg")
        }
        change("thumbnail") {
            $0 = Photo(
                id: "a", title: "Half Dome", subtitle: "Moonrise", coordinate: $0.coordinate, altitudeMeters: 2_000,
                horizontalAccuracyMeters: 5, dateTaken: Date(timeIntervalSince1970: 0), photographer: "Ansel Adams",
                storedImage: "/photos/a.jpg", storedThumbnail: "/photos/b.thumbnail.jpg")
        }
        let fingerprint = ContentFingerprint.photos([base])
        #expect(ContentFingerprint.photos([base]) == fingerprint)
        #expect(fingerprint.hasPrefix("1:"))
        for (name, photo) in changes.sorted(by: { $0.key < $1.key }) {
            #expect(ContentFingerprint.photos([photo]) != fingerprint, "\(name)")
        }
        #expect(Set(changes.values.map { ContentFingerprint.photos([$0]) }).count == changes.count)
        // Fields cannot run into one another: "ab" + "" is not "a" + "b".
        var joined = base
        var split = base
        joined.title = "ab"
        joined.subtitle = nil
        split.title = "a"
        split.subtitle = "b"
        #expect(ContentFingerprint.photos([joined]) != ContentFingerprint.photos([split]))
    }

    /// The line is the same for the same inputs, and changes with the style file's bytes, an
    /// overlay file's bytes, a shape, the raster source and what is drawn.
    @Test func theLineIsStableAndFollowsEachInput() throws {
        let temporary = try TemporaryDirectory()
        let style = temporary.url.appendingPathComponent("plain.json")
        try Data(#"{"version": 8, "sources": {}, "layers": []}"#.utf8).write(to: style)
        let track = temporary.url.appendingPathComponent("track.gpx")
        try Data("<gpx/>".utf8).write(to: track)
        let overlays = OverlayInputs(files: [track.path], shapeTexts: ["48.85,2.35,1000", "above-roads"])
        // A user without street-level data (the checkout's Tiles/streets/ would enter the line).
        let plain = MapInputs(
            locations: DataLocations(
                environment: ["HOME": temporary.url.path, "MAPWRIGHT_NO_CHECKOUT": "1"], executableURL: nil))
        func line(
            map: MapInputs = plain, overlays: OverlayInputs = overlays, drawn: String = "-,-,false,false,photographer"
        ) -> String {
            ContentFingerprint.text(
                style: style.path, map: map, photosFingerprint: "0:x", overlays: overlays, drawn: drawn)
        }
        let first = line()
        #expect(line() == first)
        #expect(
            first.hasPrefix("style ") && first.contains(" raster - vector - photos 0:x overlays ")
                && first.hasSuffix(" drawn -,-,false,false,photographer"))
        #expect(line(map: MapInputs(rasterSource: "tiles.mbtiles")) != first)
        #expect(
            line(overlays: OverlayInputs(files: [track.path], shapeTexts: ["48.85,2.35,2000", "above-roads"])) != first)
        #expect(line(drawn: "first,-,false,false,photographer") != first)
        try Data("<gpx></gpx>".utf8).write(to: track)
        let overlayChanged = line()
        #expect(overlayChanged != first)
        try Data(#"{"version": 8, "sources": {}, "layers": [], "name": "x"}"#.utf8).write(to: style)
        #expect(line() != overlayChanged)
        // The photos' fingerprint of no photos is FNV-1a's offset basis: fixed across versions and machines.
        #expect(ContentFingerprint.photos([]) == "0:cbf29ce484222325")
    }
}
