import Foundation
import GeoData
import MapCore
import MapJSON
import MapTestSupport
import Testing

/// GeoPackage tables in other coordinate systems, read through PROJ and checked against outside
/// tools: GDAL's `ogr2ogr` writes the files, PROJ's `cs2cs` says where their positions are.
struct GeoPackageProjectionTests {
    /// Positions on four continents, with negative longitudes and latitudes.
    private static let cities: [(name: String, longitude: Double, latitude: Double)] = [
        ("Helsinki", 24.9384, 60.1699),
        ("Santiago", -70.6693, -33.4489),
        ("Reykjavík", -21.9426, 64.1466),
        ("Wellington", 174.7762, -41.2865),
    ]

    @Test func aGDALFileInWebMercatorReadsAsTheLongitudesAndLatitudesItWasMadeFrom() throws {
        let directory = try TemporaryDirectory()
        let features = Self.cities.map { city in
            #"{"type":"Feature","properties":{"name":"\#(city.name)"},"geometry":{"type":"Point","coordinates":[\#(city.longitude),\#(city.latitude)]}}"#
        }
        let square =
            #"{"type":"Feature","properties":{"name":"Paris"},"geometry":{"type":"Polygon","coordinates":[[[2,48],[3,48],[3,49],[2,49],[2,48]]]}}"#
        let geoJSON = directory.path("places.geojson")
        try Data(#"{"type":"FeatureCollection","features":[\#((features + [square]).joined(separator: ","))]}"#.utf8)
            .write(to: URL(fileURLWithPath: geoJSON))
        let output = directory.path("places in mercator.gpkg")
        let made = try ExternalCommand.run(
            "ogr2ogr", ["-f", "GPKG", "-t_srs", "EPSG:3857", "-nln", "places", output, geoJSON])
        try #require(made.status == 0, "\(made.transcript)")

        let geoPackage = try GeoPackage(path: output)
        let table = try geoPackage.featureTable(named: "places")
        #expect(table.srsDefinition == "EPSG:3857")
        let read = try geoPackage.features(in: table)
        for city in Self.cities {
            let feature = try #require(read.first { $0.properties["name"]?.stringValue == city.name })
            guard case .point(let position)? = feature.geometry else {
                Issue.record("\(city.name): \(String(describing: feature.geometry))")
                continue
            }
            #expect(abs(position.longitude - city.longitude) < 1e-7, "\(city.name)")
            #expect(abs(position.latitude - city.latitude) < 1e-7, "\(city.name)")
        }
        let paris = try #require(read.first { $0.properties["name"]?.stringValue == "Paris" }?.geometry?.boundingBox)
        #expect(abs(paris.west - 2) < 1e-7 && abs(paris.east - 3) < 1e-7)
        #expect(abs(paris.south - 48) < 1e-7 && abs(paris.north - 49) < 1e-7)

        // GDAL writes an R-tree in metres; a box in degrees finds the features inside it.
        let southern = BoundingBox(west: -80, south: -50, east: 180, north: -30)
        let found = try geoPackage.features(in: table, intersecting: southern).compactMap {
            $0.properties["name"]?.stringValue
        }
        #expect(Set(found) == ["Santiago", "Wellington"])
        let ids = try #require(
            try geoPackage.featureIDs(in: table, intersecting: BoundingBox(west: 20, south: 55, east: 30, north: 65)))
        #expect(ids.count == 1)
    }

    @Test func utmPositionsAreWhereCS2CSPutsThem() throws {
        let directory = try TemporaryDirectory()
        // Eastings and northings in UTM zone 33N, around central Europe and one far outside the zone.
        let grid: [(easting: Double, northing: Double)] = [
            (500_000, 6_000_000), (350_123.25, 5_501_000.5), (710_000, 4_200_000), (166_000, 7_400_000),
        ]
        let places = grid.enumerated().map { index, point in
            GeoPackageFixture.Place(
                name: "point \(index)", geometry: .point(Position(longitude: point.easting, latitude: point.northing)))
        }
        let geoPackage = try GeoPackage(
            path: GeoPackageFixture(srsID: 32633).write(places, to: directory.path("utm.gpkg")))
        let read = try geoPackage.features(in: geoPackage.featureTable(named: "places"))

        let input = grid.map { "\($0.easting) \($0.northing)" }.joined(separator: "\n") + "\n"
        let cs2cs = try ExternalCommand.run(
            "cs2cs", ["-f", "%.10f", "EPSG:32633", "EPSG:4326"], standardInput: Data(input.utf8))
        try #require(cs2cs.status == 0, "\(cs2cs.transcript)")
        // cs2cs prints EPSG:4326 in its official order: latitude, longitude, height.
        let expected = cs2cs.standardOutput.split(separator: "\n").map { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
        }
        try #require(expected.count == grid.count)
        for (index, feature) in read.enumerated() {
            guard case .point(let position)? = feature.geometry else {
                Issue.record("point \(index): \(String(describing: feature.geometry))")
                continue
            }
            #expect(abs(position.latitude - expected[index][0]) < 1e-9, "point \(index)")
            #expect(abs(position.longitude - expected[index][1]) < 1e-9, "point \(index)")
        }
    }
}
