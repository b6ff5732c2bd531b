import Foundation
import MapCore
import MapTestSupport
import PhotoSources
import Testing

struct FlickrJSONSourceTests {
    private func load(_ json: String) throws -> PhotoCollection {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try FlickrJSONSource(url: writeFile("photos.json", in: folder, json)).load()
    }

    /// The error loading `json` throws, as a person reads it, without the file's folder.
    private func message(loading json: String) throws -> String? {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try writeFile("photos.json", in: folder, json)
        let error = #expect(throws: PhotoSourceError.self) { try FlickrJSONSource(url: file).load() }
        return error?.description.replacingOccurrences(of: folder.path + "/", with: "")
    }

    @Test func readsNumbersAndStringsForCoordinates() throws {
        let collection = try load(
            """
            {"photos": {"page": 1, "photo": [
              {"id": "8123", "title": "Golden Gate", "description": {"_content": "Fog at dawn"},
               "latitude": 37.8199, "longitude": -122.4783, "ownername": "Dorothea Lange",
               "datetaken": "1936-03-01 10:12:00",
               "url_sq": "https://live.staticflickr.com/1/8123_sq.jpg", "url_l": "https://live.staticflickr.com/1/8123_l.jpg"},
              {"id": 8124, "title": "Ferry Building", "latitude": "37.7955", "longitude": "-122.3937",
               "ownername": "Dorothea Lange", "url_s": "https://live.staticflickr.com/1/8124_s.jpg"}
            ]}, "stat": "ok"}
            """)
        #expect(collection.photos.count == 2)
        let gate = collection.photos[0]
        #expect(gate.id == "8123")
        #expect(gate.title == "Golden Gate")
        #expect(gate.subtitle == "Fog at dawn")
        #expect(gate.coordinate == (try Coordinate(latitude: 37.8199, longitude: -122.4783)))
        #expect(gate.photographer == "Dorothea Lange")
        #expect(gate.dateTaken == ISO8601DateFormatter().date(from: "1936-03-01T10:12:00Z"))
        #expect(gate.image == .remote(URL(string: "https://live.staticflickr.com/1/8123_l.jpg")!))
        #expect(gate.thumbnail == .remote(URL(string: "https://live.staticflickr.com/1/8123_sq.jpg")!))
        let ferry = collection.photos[1]
        #expect(ferry.id == "8124")
        #expect(ferry.coordinate == (try Coordinate(latitude: 37.7955, longitude: -122.3937)))
        #expect(ferry.image == ferry.thumbnail)
    }

    @Test func emptyTitleFallsBackToDescriptionThenUntitled() throws {
        let collection = try load(
            """
            {"photos": {"photo": [
              {"id": "1", "title": "", "description": {"_content": "Ferry Building at noon"}, "latitude": 37.79, "longitude": -122.39},
              {"id": "2", "title": " ", "description": {"_content": ""}, "latitude": 37.79, "longitude": -122.39}
            ]}}
            """)
        #expect(collection.photos.map(\.calloutTitle) == ["Ferry Building at noon", "Untitled"])
        #expect(collection.photos.map(\.calloutSubtitle) == [nil, nil])
    }

    @Test func photosNeverGeotaggedAreSkippedAndCounted() throws {
        let collection = try load(
            """
            {"photos": {"photo": [
              {"id": "1", "title": "a", "latitude": 0, "longitude": 0},
              {"id": "2", "title": "b", "latitude": "0", "longitude": "0", "accuracy": "0"},
              {"id": "3", "title": "c"},
              {"id": "4", "title": "d", "latitude": "", "longitude": ""},
              {"id": "5", "title": "e", "latitude": -33.8568, "longitude": 151.2153}
            ]}}
            """)
        #expect(collection.photos.map(\.id) == ["5"])
        #expect(collection.report.skippedWithoutLocation == 4)
    }

    @Test func malformedEntriesNameTheEntry() throws {
        let valid = #"{"id": "1", "latitude": 1, "longitude": 1}"#
        func list(_ bad: String) -> String { #"{"photos": {"photo": [\#(valid), \#(valid), \#(valid), \#(bad)]}}"# }
        #expect(
            try message(loading: list(#"{"id": "9", "latitude": "abc", "longitude": 1}"#))
                == "photos.json: photos.photo[3]: latitude 'abc' is not a number")
        #expect(
            try message(loading: list(#"{"id": "9", "latitude": 91, "longitude": 1}"#))
                == "photos.json: photos.photo[3]: latitude 91.0 is outside [-90, 90]")
        #expect(
            try message(loading: list(#"{"id": "9", "latitude": 1}"#))
                == "photos.json: photos.photo[3]: has a latitude but no longitude")
        #expect(
            try message(loading: list(#"{"id": "9", "latitude": true, "longitude": 1}"#))
                == "photos.json: photos.photo[3]: latitude is a boolean, expected a number or a string")
        #expect(
            try message(loading: list(#"{"latitude": 1, "longitude": 1}"#))
                == "photos.json: photos.photo[3]: has no id")
        #expect(
            try message(loading: list(#""just a string""#))
                == "photos.json: photos.photo[3]: is a string, expected an object")
        #expect(
            try message(loading: list(#"{"id": "9", "latitude": 1, "longitude": 1, "url_l": "ftp://x/y.jpg"}"#))
                == "photos.json: photos.photo[3]: url_l 'ftp://x/y.jpg' is neither a path nor an http(s) URL")
    }

    @Test func malformedDocumentsNameTheFile() throws {
        let syntax = try message(loading: "{\"photos\": {\"photo\": [\n  {\"id\": 1 \"x\"}\n]}}")
        #expect(syntax == "photos.json: is not valid JSON: invalid value at line 2, column 12")
        #expect(
            try message(loading: #"{"stat": "fail", "code": 100, "message": "Invalid API Key"}"#)
                == "photos.json: is a failed Flickr answer: Invalid API Key")
        #expect(
            try message(loading: #"{"photoset": {}}"#)
                == "photos.json: has no 'photos.photo' list: expected a Flickr-style photo list or a GeoJSON FeatureCollection"
        )
    }
}
