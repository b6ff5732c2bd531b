import Foundation
import MapCore
import MapTestSupport
import PhotoSources
import Testing

struct GeoJSONPhotoSourceTests {
    private func message(loading json: String, name: String = "photos.geojson") throws -> String? {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try writeFile(name, in: folder, json)
        let error = #expect(throws: PhotoSourceError.self) { try PhotoCollection.load(from: file) }
        return error?.description.replacingOccurrences(of: folder.path + "/", with: "")
    }

    @Test func readsPointFeaturesWithTheirProperties() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try writeFile(
            "photos.geojson", in: folder,
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "acropolis",
               "geometry": {"type": "Point", "coordinates": [23.7257, 37.9715, 156]},
               "properties": {"title": "Ακρόπολη", "subtitle": "Την αυγή", "photographer": "Ελένη Παπαδοπούλου",
                              "image": "images/acropolis.jpg", "thumbnail": "https://example.org/acropolis-s.jpg"}},
              {"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [29.9092, 31.2089]},
               "properties": {"title": "", "subtitle": "مكتبة الإسكندرية"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-70.6693, -33.4489]}, "properties": null},
              {"type": "Feature", "geometry": null, "properties": {"title": "Somewhere"}}
            ]}
            """)
        let collection = try GeoJSONPhotoSource(url: file).load()
        #expect(collection.photos.count == 3)
        #expect(collection.report.skippedWithoutLocation == 1)
        let acropolis = collection.photos[0]
        #expect(acropolis.id == "acropolis")
        #expect(acropolis.coordinate == (try Coordinate(latitude: 37.9715, longitude: 23.7257)))
        #expect(acropolis.altitudeMeters == 156)
        #expect(acropolis.calloutTitle == "Ακρόπολη")
        #expect(acropolis.calloutSubtitle == "Την αυγή")
        #expect(acropolis.photographer == "Ελένη Παπαδοπούλου")
        #expect(acropolis.image == .file(folder.appendingPathComponent("images/acropolis.jpg").standardizedFileURL))
        #expect(acropolis.thumbnail == .remote(URL(string: "https://example.org/acropolis-s.jpg")!))
        #expect(collection.photos[1].id == "7")
        #expect(collection.photos[1].calloutTitle == "مكتبة الإسكندرية")
        #expect(collection.photos[2].id == "photos.geojson#features[2]")
        #expect(collection.photos[2].calloutTitle == "Untitled")
        #expect(collection.photos[2].coordinate.longitude == -70.6693)
    }

    @Test func aJSONFileIsReadAsGeoJSONWhenItIsAFeatureCollection() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try writeFile(
            "photos.json", in: folder,
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.3522, 48.8566]}, "properties": {"title": "Paris"}}
            ]}
            """)
        #expect(try PhotoCollection.load(from: file).photos.map(\.title) == ["Paris"])
    }

    @Test func malformedFeaturesNameTheFeature() throws {
        let point = #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 1]}, "properties": {}}"#
        func collection(_ bad: String) -> String { #"{"type": "FeatureCollection", "features": [\#(point), \#(bad)]}"# }
        #expect(
            try message(
                loading: collection(
                    #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 1], [2, 2]]}}"#))
                == "photos.geojson: features[1]: geometry is a LineString; only Point features are photos")
        #expect(
            try message(
                loading: collection(
                    #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1]}}"#))
                == "photos.geojson: features[1]: coordinates must be [longitude, latitude] or [longitude, latitude, altitude]"
        )
        #expect(
            try message(
                loading: collection(
                    #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": ["1", 2]}}"#))
                == "photos.geojson: features[1]: coordinates must be numbers, found a string")
        #expect(
            try message(
                loading: collection(
                    #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [200, 2]}}"#))
                == "photos.geojson: features[1]: longitude 200.0 is outside [-180, 180]")
        #expect(
            try message(
                loading: collection(
                    #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"title": ["a"]}}"#
                ))
                == "photos.geojson: features[1]: properties.title is an array, expected a string")
        #expect(
            try message(loading: collection(#"{"type": "Point", "coordinates": [1, 2]}"#))
                == "photos.geojson: features[1]: is a Point, expected a Feature")
    }

    @Test func documentsOtherThanAFeatureCollectionAreErrors() throws {
        #expect(
            try message(loading: #"{"type": "Feature", "geometry": null}"#)
                == "photos.geojson: is a GeoJSON Feature, expected a FeatureCollection of Point features")
        #expect(
            try message(loading: #"{"type": "FeatureCollection"}"#)
                == "photos.geojson: is a FeatureCollection without a 'features' array")
        #expect(try message(loading: "[1, 2")?.hasPrefix("photos.geojson: is not valid JSON") == true)
    }
}

/// Photo lists in GeoJSON with a legacy `crs` (GeoJSON 2008), placed through PROJ and checked
/// against PROJ's own cs2cs.
struct GeoJSONPhotoSourceCRSTests {
    @Test func photosInFinnishTM35FINAreWhereCS2CSPutsThem() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let points = [(385_873.0, 6_672_210.0), (443_000.5, 7_375_000.25)]
        // The crs follows the features, as some writers put it.
        let features = points.enumerated().map { index, point in
            #"{"type":"Feature","id":"p\#(index)","geometry":{"type":"Point","coordinates":[\#(point.0),\#(point.1),12]},"properties":{"title":"Photo \#(index)"}}"#
        }
        let file = try writeFile(
            "photos.geojson", in: folder,
            #"""
            {"type":"FeatureCollection","features":[\#(features.joined(separator: ","))],
             "crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3067"}}}
            """#)
        let collection = try GeoJSONPhotoSource(url: file).load()
        let input = points.map { "\($0.0) \($0.1)" }.joined(separator: "\n") + "\n"
        let cs2cs = try ExternalCommand.run(
            "cs2cs", ["-f", "%.10f", "EPSG:3067", "EPSG:4326"], standardInput: Data(input.utf8))
        try #require(cs2cs.status == 0, "\(cs2cs.transcript)")
        let expected = cs2cs.standardOutput.split(separator: "\n").map {
            $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
        }
        try #require(collection.photos.count == 2 && expected.count == 2)
        for (photo, want) in zip(collection.photos, expected) {
            #expect(abs(photo.coordinate.latitude - want[0]) < 1e-7, "\(photo.id)")
            #expect(abs(photo.coordinate.longitude - want[1]) < 1e-7, "\(photo.id)")
            #expect(photo.altitudeMeters == 12)
        }
    }

    @Test func anUnknownCRSIsOneLineNamingTheFileAndTheCRS() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try writeFile(
            "photos.geojson", in: folder,
            #"""
            {"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"EPSG:999999"}},
             "features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}]}
            """#)
        let error = #expect(throws: PhotoSourceError.self) { try PhotoCollection.load(from: file) }
        #expect(
            error?.description.hasPrefix("\(file.path): its crs 'EPSG:999999' is not a coordinate system PROJ knows")
                == true)
        #expect(error?.description.contains("\n") == false)
    }
}
