import Foundation
import GeoData
import MapCore
import MapJSON
import MapTestSupport
import Testing

struct GeoJSONReaderTests {
    private func read(_ text: String, name: String = "test.geojson") throws -> FeatureCollection {
        let directory = try TemporaryDirectory()
        return try GeoJSONReader.read(path: directory.write(text, to: name))
    }

    /// The error reading `text` from a file, and the file's path.
    private func failure(_ text: String) throws -> (GeoDataError, String) {
        let directory = try TemporaryDirectory()
        let path = try directory.write(text, to: "broken.geojson")
        let error = try #require(throws: GeoDataError.self) { try GeoJSONReader.read(path: path) }
        return (error, path)
    }

    @Test func polygonWithAHoleKeepsItsRings() throws {
        let collection = try read(
            """
            {"type": "FeatureCollection", "features": [{
              "type": "Feature", "id": "park",
              "properties": {"name": "Park"},
              "geometry": {"type": "Polygon", "coordinates": [
                [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]],
                [[4, 4], [4, 6], [6, 6], [6, 4], [4, 4]]
              ]}
            }]}
            """)
        let park = try #require(collection.features.first)
        #expect(park.id == .string("park"))
        guard case .polygon(let rings)? = park.geometry else {
            Issue.record("not a polygon: \(String(describing: park.geometry))")
            return
        }
        #expect(rings.count == 2)
        #expect(rings[1].first == Position((4, 4)))
        #expect(collection.boundingBox == BoundingBox(west: 0, south: 0, east: 10, north: 10))

        let prepared = PreparedGeometry(projecting: try #require(park.geometry), tolerance: 0)
        #expect(prepared.contains(MapPoint(try Coordinate(latitude: 2, longitude: 2))))
        #expect(!prepared.contains(MapPoint(try Coordinate(latitude: 5, longitude: 5))), "the hole is outside")
    }

    @Test func lineStringWithElevationDropsTheThirdValue() throws {
        let collection = try read(
            """
            {"type": "Feature", "id": 12, "properties": null,
             "geometry": {"type": "LineString", "coordinates": [[2.35, 48.85, 35], [2.29, 48.86, 40]]}}
            """)
        #expect(
            collection.features == [
                Feature(id: .number(12), geometry: .lineString([Position((2.35, 48.85)), Position((2.29, 48.86))]))
            ])
    }

    @Test func pointsKeepTheirProperties() throws {
        let collection = try read(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.2945, 48.8584]},
               "properties": {"title": "Eiffel Tower", "subtitle": "Paris", "photographer": "Ann",
                              "thumbnail": "thumbs/eiffel.jpg", "image": "photos/eiffel.jpg",
                              "rating": 4.5, "public": true, "note": null, "tags": ["iron", "tower"]}},
              {"type": "Feature", "geometry": null, "properties": {"title": "Lost"}}
            ]}
            """)
        #expect(collection.features.count == 2)
        let tower = collection.features[0]
        #expect(tower.geometry == .point(Position((2.2945, 48.8584))))
        #expect(tower.properties["title"] == .string("Eiffel Tower"))
        #expect(tower.properties["subtitle"]?.stringValue == "Paris")
        #expect(tower.properties["photographer"]?.stringValue == "Ann")
        #expect(tower.properties["thumbnail"]?.stringValue == "thumbs/eiffel.jpg")
        #expect(tower.properties["image"]?.stringValue == "photos/eiffel.jpg")
        #expect(tower.properties["rating"]?.numberValue == 4.5)
        #expect(tower.properties["public"]?.boolValue == true)
        #expect(tower.properties["note"] == .null)
        #expect(tower.properties["tags"] == .string(#"["iron","tower"]"#))
        #expect(collection.features[1].geometry == nil)
    }

    @Test func propertyValuesDescribeThemselvesAsLabels() {
        #expect(FeatureValue.string("Paris").description == "Paris")
        #expect(FeatureValue.number(2_100_000).description == "2100000")
        #expect(FeatureValue.number(4.5).description == "4.5")
        #expect(FeatureValue.bool(false).description == "false")
        #expect(FeatureValue.null.description == "null")
    }

    @Test func bareGeometryBecomesOneFeature() throws {
        let collection = try read(
            """
            {"type": "GeometryCollection", "geometries": [
              {"type": "MultiPoint", "coordinates": [[1, 2], [3, 4]]},
              {"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 1], [0, 0]]]]}
            ]}
            """)
        #expect(collection.features.count == 1)
        #expect(collection.features[0].properties.isEmpty)
        guard case .geometryCollection(let members)? = collection.features[0].geometry else {
            Issue.record("not a collection")
            return
        }
        #expect(members.count == 2)
    }

    @Test func invalidJSONNamesTheFile() throws {
        let (error, path) = try failure(#"{"type": "FeatureCollection", "features": [}"#)
        guard case .invalidJSON(let errorPath, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(errorPath == path)
        #expect(error.description.hasPrefix("\(path): is not valid JSON: "))
        #expect(!error.description.contains("JSON: is not valid JSON"), "\(error)")
    }

    /// One broken feature among valid ones is left out and counted, never a failed file; its
    /// error names the feature's index.
    @Test func aBrokenFeatureAmongValidOnesIsSkippedAndCounted() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 1]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [10, 95]]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0]]]}}
            ]}
            """, to: "mixed.geojson")
        let collection = try GeoJSONReader.read(path: path)
        #expect(collection.features.count == 2)
        #expect(
            collection.skippedFeatures == [
                .invalidGeoJSON(
                    path: path, featureIndex: 2, reason: "geometry.coordinates[1]: latitude 95.0 is outside [-90, 90]"),
                .invalidGeoJSON(
                    path: path, featureIndex: 3,
                    reason: "geometry.coordinates[0]: a polygon ring needs at least 4 positions, it has 2"),
            ])
        #expect(
            collection.skippedFeaturesWarning
                == "\(path): 2 broken features are not drawn (the first: feature 2: geometry.coordinates[1]: latitude 95.0 is outside [-90, 90])"
        )
    }

    /// A collection of nothing but broken features is not the file the user meant: the first
    /// error is thrown, naming the feature.
    @Test func aCollectionOfOnlyBrokenFeaturesNamesTheFirst() throws {
        let (error, path) = try failure(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [10, 95]]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1]}}
            ]}
            """)
        #expect(
            error
                == .invalidGeoJSON(
                    path: path,
                    featureIndex: 0,
                    reason: "geometry.coordinates[1]: latitude 95.0 is outside [-90, 90]"
                ))
        #expect(error.description == "\(path): feature 0: geometry.coordinates[1]: latitude 95.0 is outside [-90, 90]")
    }

    /// A ring that does not end where it starts is closed, as MapLibre and GDAL read it; one
    /// too short to be a ring even then is still refused.
    @Test func anUnclosedRingIsClosedAsMapLibreReadsIt() throws {
        let collection = try GeoJSONReader.read(
            data: Data(
                """
                {"type": "Feature", "properties": {},
                 "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}}
                """.utf8), path: "unclosed.geojson")
        guard case .polygon(let rings) = collection.features.first?.geometry else {
            Issue.record("not a polygon: \(collection.features)")
            return
        }
        #expect(rings[0].count == 5)
        #expect(rings[0].first == rings[0].last)
        let (error, _) = try failure(
            """
            {"type": "Feature", "properties": {},
             "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0]]]}}
            """)
        #expect(
            error.description.hasSuffix("geometry.coordinates[0]: a polygon ring needs at least 4 positions, it has 2"))
    }

    @Test func unknownTypeIsRejected() throws {
        let (error, path) = try failure(#"{"type": "Circle", "coordinates": [0, 0]}"#)
        #expect(
            error.description
                == "\(path): not valid GeoJSON: the top level: type \"Circle\" is not a GeoJSON geometry type")
    }

    @Test func missingFileIsReported() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("absent.geojson")
        let error = try #require(throws: GeoDataError.self) { try GeoJSONReader.read(path: path) }
        guard case .unreadableFile(let errorPath, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(errorPath == path)
    }
}
