import Foundation
import MapTestSupport
import Testing

@testable import PhotoSources

/// GeoJSON and Flickr files whose entries are read in parts give what one pass gives.
struct JSONPhotoDocumentTests {
    /// 400 features, every third without an id, so ids name the index in the whole array.
    private func features(badAt bad: Int? = nil) -> String {
        let entries = (0..<400).map { index -> String in
            let id = index % 3 == 0 ? "" : "\"id\": \"f\(index)\", "
            let latitude = index == bad ? "\"north\"" : "\(Double(index % 80) + 0.5)"
            return
                "{\"type\": \"Feature\", \(id)\"geometry\": {\"type\": \"Point\", \"coordinates\": [\(index % 170), \(latitude)]}, "
                + "\"properties\": {\"title\": \"Photo \(index)\"}}"
        }
        return "{\"type\": \"FeatureCollection\", \"features\": [\n" + entries.joined(separator: ",\n") + "\n]}"
    }

    private func load(_ text: String, in folder: URL) throws -> PhotoCollection {
        try JSONPhotoDocument.load(
            from: writeFile("photos.json", in: folder, text), formats: [.geoJSON, .flickr], minimumBytesForParts: 1_024)
    }

    @Test func partsGiveTheIdsAndOrderOfOnePass() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = try load(features(), in: folder).photos
        #expect(photos.map(\.title) == (0..<400).map { "Photo \($0)" })
        #expect(photos.map(\.id) == (0..<400).map { $0 % 3 == 0 ? "photos.json#features[\($0)]" : "f\($0)" })
        #expect(try GeoJSONPhotoSource(url: folder.appendingPathComponent("photos.json")).load().photos == photos)
    }

    @Test func theFirstBadEntryIsNamedByItsIndexInTheWholeArray() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for bad in [5, 250, 399] {
            let error = #expect(throws: PhotoSourceError.self) { try load(features(badAt: bad), in: folder) }
            #expect(
                error?.description.hasSuffix(
                    "photos.json: features[\(bad)]: coordinates must be numbers, found a string") == true,
                "\(String(describing: error))")
        }
    }
}
