import Foundation
import MapCore
import MapTestSupport
import PhotoSources
import Testing

struct PhotoCollectionTests {
    private func photo(_ id: String, by photographer: String?) throws -> Photo {
        Photo(id: id, title: id, coordinate: try Coordinate(latitude: 1, longitude: 1), photographer: photographer)
    }

    @Test func photographersAreSortedAndUnique() throws {
        let collection = PhotoCollection(photos: [
            try photo("1", by: "Dorothea Lange"), try photo("2", by: "Ansel Adams"),
            try photo("3", by: "Dorothea Lange"), try photo("4", by: nil), try photo("5", by: "李明"),
        ])
        #expect(collection.photographers == ["Ansel Adams", "Dorothea Lange", "李明"])
    }

    @Test func filterKeepsOnePhotographersPhotosIgnoringCase() throws {
        let collection = PhotoCollection(
            photos: [
                try photo("1", by: "Ansel Adams"), try photo("2", by: "Dorothea Lange"),
                try photo("3", by: "Ansel Adams"),
            ],
            report: PhotoLoadReport(skippedWithoutLocation: 2)
        )
        let adams = try collection.filtered(byPhotographer: " ansel ADAMS ")
        #expect(adams.photos.map(\.id) == ["1", "3"])
        #expect(adams.report.skippedWithoutLocation == 2)
        #expect(try collection.filtered(byPhotographer: "Dorothea Lange").photos.map(\.id) == ["2"])
    }

    @Test func unknownPhotographerListsThePhotographersFound() throws {
        let collection = PhotoCollection(photos: [
            try photo("1", by: "Dorothea Lange"), try photo("2", by: "Ansel Adams"), try photo("3", by: "Ansel Adams"),
        ])
        let error = #expect(
            throws: PhotoSourceError.unknownPhotographer(
                "Cartier-Bresson", found: ["Ansel Adams", "Dorothea Lange"])
        ) { try collection.filtered(byPhotographer: "Cartier-Bresson") }
        #expect(
            error?.description == "no photos by 'Cartier-Bresson'; photographers found: Ansel Adams, Dorothea Lange")
        #expect(error?.errorDescription == error?.description)
    }

    @Test func unknownPhotographerWhenNoneIsNamedSaysSo() throws {
        let collection = PhotoCollection(photos: [try photo("1", by: nil)])
        let error = #expect(throws: PhotoSourceError.self) { try collection.filtered(byPhotographer: "Anyone") }
        #expect(error?.description == "no photos by 'Anyone': no photo names its photographer")
    }

    @Test func loadChoosesTheSourceByFileType() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try JPEGFixture.write("jpegs/a.jpg", in: folder, exif: .located(latitude: 1, longitude: 2))
        let csv = try writeFile("photos.CSV", in: folder, "latitude,longitude\n3,4\n")
        let flickr = try writeFile(
            "flickr.json", in: folder, #"{"photos": {"photo": [{"id": "1", "latitude": 5, "longitude": 6}]}}"#)
        let geojson = try writeFile(
            "points.geojson", in: folder,
            """
            {"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [8, 7]}}]}
            """)
        func latitudes(_ url: URL) throws -> [Double] {
            try PhotoCollection.load(from: url).photos.map(\.coordinate.latitude)
        }
        #expect(try latitudes(folder.appendingPathComponent("jpegs")) == [1])
        #expect(try latitudes(csv) == [3])
        #expect(try latitudes(flickr) == [5])
        #expect(try latitudes(geojson) == [7])
    }

    @Test func otherFileTypesAndMissingFilesAreErrors() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let kml = try writeFile("track.kml", in: folder, "<kml/>")
        let error = #expect(throws: PhotoSourceError.unsupportedFormat(file: kml)) {
            try PhotoCollection.load(from: kml)
        }
        #expect(
            error?.description == "\(kml.path): is not a photo source: expected a folder of photos, "
                + "a Flickr-style .json, a .geojson, a .csv or a .gpx file")
        // A GPX file is read for its waypoints; one without any says so.
        let gpx = try writeFile("track.gpx", in: folder, "<gpx/>")
        #expect(throws: PhotoSourceError.malformed(file: gpx, reason: "has no waypoints (<wpt>) to show as points")) {
            try PhotoCollection.load(from: gpx)
        }
        let missing = folder.appendingPathComponent("missing.csv")
        #expect(throws: PhotoSourceError.unreadable(file: missing, reason: "no such file or folder")) {
            try PhotoCollection.load(from: missing)
        }
    }
}
