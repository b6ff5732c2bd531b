import Foundation
import GeoData
import MapCore
import MapJSON
import Testing

/// The basemap scripts/setup.sh fetches, found from this file's place in the package.
private let basemapPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tiles/basemap/world_map.gpkg").path

/// Checks against the Natural Earth world map that scripts/setup.sh puts in Tiles/basemap.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: basemapPath),
        "Tiles/basemap/world_map.gpkg is absent: run scripts/setup.sh to fetch it"
    ))
struct BasemapTests {
    static let path = basemapPath

    private func countries() throws -> GeoPackageSource {
        try GeoPackageSource(geoPackage: GeoPackage(path: Self.path), table: "countries")
    }

    @Test func hasTheThreeIndexedFeatureTables() throws {
        let tables = try GeoPackage(path: Self.path).featureTables()
        #expect(tables.map(\.name) == ["countries", "disputed_borders", "states_provinces"])
        for table in tables {
            #expect(table.srsDefinition == "EPSG:4326")
            #expect(table.spatialIndexTable == "rtree_\(table.name)_geom")
        }
        let countries = try #require(tables.first)
        #expect(countries.attributeColumns.contains("NAME"))
        #expect(countries.attributeColumns.contains("ISO_A3"))
    }

    @Test func franceContainsParisButNotLondon() throws {
        let source = try countries()
        let index = try #require(source.features.firstIndex { $0.properties["ISO_A3"] == .string("FRA") })
        #expect(source.features[index].properties["NAME"] == .string("France"))
        let layer = PreparedLayer(source: source, zoomLevel: 6, screenScale: 1)
        let france = layer.features[index].geometry
        #expect(france.contains(MapPoint(try Coordinate(latitude: 48.8566, longitude: 2.3522))))
        #expect(!france.contains(MapPoint(try Coordinate(latitude: 51.5072, longitude: -0.1276))))
    }

    @Test func europeQueryReturnsFranceAndNotBrazil() throws {
        let source = try countries()
        let europe = BoundingBox(west: -10, south: 35, east: 30, north: 60)
        let names = try source.features(in: europe.mapRect).compactMap { $0.properties["NAME"]?.stringValue }
        #expect(names.contains("France"))
        #expect(names.contains("Germany"))
        #expect(!names.contains("Brazil"))
        #expect(names.count < 80)
    }

    @Test func queryAcrossTheAntimeridianFindsBothSides() throws {
        let source = try countries()
        // 170°E to 170°W: maxX is beyond worldSize.
        let west = MapPoint(try Coordinate(latitude: 70, longitude: 170))
        let rect = MapRect(x: west.x, y: west.y, width: WebMercator.worldSize / 18, height: WebMercator.worldSize / 2)
        #expect(rect.crossesAntimeridian)
        let names = try source.features(in: rect).compactMap { $0.properties["NAME"]?.stringValue }
        #expect(names.contains("Russia"))
        #expect(names.contains("Fiji"))
        #expect(names.contains("United States of America"), "Alaska's Aleutians lie in the remainder, west of 170°W")
    }

    @Test func lowZoomSimplificationKeepsFarFewerVertices() throws {
        let source = try countries()
        let world = PreparedLayer(source: source, zoomLevel: 2, screenScale: 1)
        let detailed = PreparedLayer(source: source, zoomLevel: 12, screenScale: 1)
        let coarse = world.features.reduce(0) { $0 + $1.geometry.vertexCount }
        let fine = detailed.features.reduce(0) { $0 + $1.geometry.vertexCount }
        #expect(coarse * 5 < fine)
        #expect(try world.features(in: .world).count > 150)
    }
}
