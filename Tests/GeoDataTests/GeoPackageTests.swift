import Foundation
import GeoData
import MapCore
import MapJSON
import MapSQLite
import MapTestSupport
import Testing

struct GeoPackageTests {
    /// Three squares one degree wide, far apart: around Paris, New York and Sydney, plus a
    /// row without geometry.
    private static let places: [GeoPackageFixture.Place] = [
        .init(name: "Paris", geometry: square(west: 2, south: 48), population: 2_100_000),
        .init(name: "New York", geometry: square(west: -74, south: 40), population: 8_300_000),
        .init(name: "Sydney", geometry: square(west: 151, south: -34)),
        .init(name: "Nowhere", geometry: nil),
    ]

    private static func square(west: Double, south: Double) -> Geometry {
        .polygon([
            [(west, south), (west + 1, south), (west + 1, south + 1), (west, south + 1), (west, south)].map(
                Position.init)
        ])
    }

    private static let europe = BoundingBox(west: -10, south: 35, east: 30, north: 60)

    private func makeGeoPackage(
        _ fixture: GeoPackageFixture = GeoPackageFixture(),
        places: [GeoPackageFixture.Place] = GeoPackageTests.places,
        in directory: TemporaryDirectory
    ) throws -> GeoPackage {
        try GeoPackage(path: fixture.write(places, to: directory.path("places.gpkg")))
    }

    private func names(_ features: [Feature]) -> [String] {
        features.compactMap { $0.properties["name"]?.stringValue }
    }

    @Test func featureTablesAreListedWithTheirColumnsAndIndex() throws {
        let directory = try TemporaryDirectory()
        let geoPackage = try makeGeoPackage(in: directory)
        let tables = try geoPackage.featureTables()
        #expect(tables.map(\.name) == ["places"])
        let table = try #require(tables.first)
        #expect(table.geometryColumn == "geom")
        #expect(table.srsID == 4326)
        #expect(table.srsDefinition == "EPSG:4326")
        #expect(table.spatialIndexTable == "rtree_places_geom")
        #expect(table.primaryKeyColumn == "fid")
        #expect(table.attributeColumns == ["name", "population", "area", "thumbnail"])
    }

    @Test(arguments: [true, false])
    func boundingBoxQueryReturnsOnlyTheFeaturesInside(spatialIndex: Bool) throws {
        let directory = try TemporaryDirectory()
        let geoPackage = try makeGeoPackage(GeoPackageFixture(spatialIndex: spatialIndex), in: directory)
        let table = try geoPackage.featureTable(named: "places")
        #expect((table.spatialIndexTable != nil) == spatialIndex)

        #expect(names(try geoPackage.features(in: table, intersecting: Self.europe)) == ["Paris"])
        let americas = BoundingBox(west: -170, south: -60, east: -30, north: 75)
        #expect(names(try geoPackage.features(in: table, intersecting: americas)) == ["New York"])
        let pacific = BoundingBox(west: -170, south: -50, east: -120, north: 0)
        #expect(try geoPackage.features(in: table, intersecting: pacific).isEmpty)
        #expect(names(try geoPackage.features(in: table)) == ["Paris", "New York", "Sydney", "Nowhere"])
    }

    @Test func rowsBecomeFeaturesWithPropertiesAndIdentifier() throws {
        let directory = try TemporaryDirectory()
        let geoPackage = try makeGeoPackage(in: directory)
        let features = try geoPackage.features(in: geoPackage.featureTable(named: "PLACES"))
        let paris = try #require(features.first)
        #expect(paris.id == .number(1))
        #expect(paris.geometry == Self.square(west: 2, south: 48))
        #expect(paris.properties["name"] == .string("Paris"))
        #expect(paris.properties["population"] == .number(2_100_000))
        #expect(paris.properties["area"] == .number(12.5))
        #expect(paris.properties["thumbnail"] == nil, "BLOB columns are left out")
        #expect(features[2].properties["population"] == .null)
        #expect(features[3].geometry == nil)
    }

    @Test(arguments: [(false, false), (false, true), (true, false), (true, true)])
    func headerAndWKBByteOrdersAreBothRead(bigEndianHeader: Bool, bigEndianWKB: Bool) throws {
        let directory = try TemporaryDirectory()
        var fixture = GeoPackageFixture()
        fixture.blobWriter.bigEndianHeader = bigEndianHeader
        fixture.blobWriter.wkb.bigEndian = bigEndianWKB
        let geoPackage = try makeGeoPackage(fixture, in: directory)
        let features = try geoPackage.features(in: geoPackage.featureTable(named: "places"))
        #expect(features.map(\.geometry) == Self.places.map(\.geometry))
    }

    @Test(arguments: 0...4)
    func everyEnvelopeTypeIsRead(indicator: UInt8) throws {
        var writer = GeoPackageBlobWriter(envelopeIndicator: indicator)
        writer.wkb.hasZ = indicator == 2 || indicator == 4
        let geometry = Self.square(west: 2, south: 48)
        let decoded = try GeoPackageGeometry(decoding: writer.encode(geometry))
        #expect(decoded.geometry == geometry)
        #expect(decoded.srsID == 4326)
        #expect(decoded.isEmpty == false)
        #expect(decoded.envelope == (indicator == 0 ? nil : BoundingBox(west: 2, south: 48, east: 3, north: 49)))

        // Without the R-tree, the query filters on those envelopes (or on the geometry).
        let directory = try TemporaryDirectory()
        var fixture = GeoPackageFixture(spatialIndex: false)
        fixture.blobWriter = writer
        let geoPackage = try makeGeoPackage(fixture, in: directory)
        let found = try geoPackage.features(in: geoPackage.featureTable(named: "places"), intersecting: Self.europe)
        #expect(names(found) == ["Paris"])
    }

    @Test func invalidEnvelopeIndicatorIsRejected() throws {
        let bytes: [UInt8] = [0x47, 0x50, 0, 0b0000_1011, 0xE6, 0x10, 0, 0]
        #expect(throws: GeoDataError.invalidWKB(offset: 3, reason: "envelope contents indicator 5 is not in 0-4")) {
            try GeoPackageGeometry(decoding: bytes)
        }
    }

    @Test func emptyGeometryIsReadAsEmptyAndNotIndexed() throws {
        let directory = try TemporaryDirectory()
        let places = Self.places + [.init(name: "Empty", geometry: nil, isEmpty: true)]
        let geoPackage = try makeGeoPackage(places: places, in: directory)
        let table = try geoPackage.featureTable(named: "places")
        let empty = try #require(try geoPackage.features(in: table).last)
        #expect(empty.properties["name"] == .string("Empty"))
        #expect(empty.geometry?.isEmpty == true)
        #expect(try !names(geoPackage.features(in: table, intersecting: .world)).contains("Empty"))

        let decoded = try GeoPackageGeometry(decoding: GeoPackageBlobWriter().encodeEmpty())
        #expect(decoded.isEmpty)
        #expect(decoded.envelope == nil)
    }

    @Test func anSRSPROJCannotTransformIsReportedWithTheTableAndFile() throws {
        let directory = try TemporaryDirectory()
        let geoPackage = try makeGeoPackage(GeoPackageFixture(srsID: 990001), in: directory)
        let table = try geoPackage.featureTable(named: "places")
        #expect(table.srsDefinition == "A grid of nobody's")
        let error = try #require(throws: GeoDataError.self) { try geoPackage.features(in: table) }
        #expect(
            error.description
                == "\(geoPackage.path): table 'places': its SRS is A grid of nobody's (srs_id 990001), which PROJ cannot transform to EPSG:4326"
        )
    }

    @Test func malformedBlobNamesTheFileTableAndFeature() throws {
        let directory = try TemporaryDirectory()
        let path = try GeoPackageFixture().write(Self.places, to: directory.path("broken.gpkg"))
        let database = try Database(path: path, mode: .readWrite)
        try database.execute("UPDATE places SET geom = x'47500001000000000103' WHERE fid = 2")
        let geoPackage = try GeoPackage(path: path)
        let error = try #require(throws: GeoDataError.self) {
            try geoPackage.features(in: geoPackage.featureTable(named: "places"))
        }
        guard case .invalidGeometry(let errorPath, let table, let featureID, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(errorPath == path)
        #expect(table == "places")
        #expect(featureID == 2)
        #expect(error.description.hasPrefix("\(path): table 'places', feature 2: invalid WKB at byte 9"))
    }

    @Test func missingTableListsTheTablesThereAre() throws {
        let directory = try TemporaryDirectory()
        let geoPackage = try makeGeoPackage(in: directory)
        #expect(throws: GeoDataError.featureTableNotFound(path: geoPackage.path, table: "roads", available: ["places"]))
        {
            try geoPackage.featureTable(named: "roads")
        }
    }

    @Test func filesThatAreNotGeoPackagesAreRefused() throws {
        let directory = try TemporaryDirectory()
        let text = try directory.write("not a database, just text long enough to have a header page", to: "notes.gpkg")
        #expect(throws: GeoDataError.invalidGeoPackage(path: text, reason: "it is not an SQLite database")) {
            try GeoPackage(path: text)
        }
        let plain = directory.path("plain.sqlite")
        try Database(path: plain, mode: .readWriteCreate).execute("CREATE TABLE t (a)")
        #expect(throws: GeoDataError.invalidGeoPackage(path: plain, reason: "it has no gpkg_contents table")) {
            try GeoPackage(path: plain)
        }
        let absent = directory.path("absent.gpkg")
        #expect(throws: GeoDataError.unreadableFile(path: absent, reason: "no such readable file")) {
            try GeoPackage(path: absent)
        }
    }

    @Test func sourceAnswersRectQueriesThroughTheIndex() throws {
        let directory = try TemporaryDirectory()
        let geoPackage = try makeGeoPackage(in: directory)
        let source = try GeoPackageSource(geoPackage: geoPackage, table: "places")
        #expect(source.name == "places.gpkg:places")
        #expect(source.features.count == 4)
        #expect(names(try source.features(in: Self.europe.mapRect)) == ["Paris"])
        #expect(names(try source.features(in: .world)) == ["Paris", "New York", "Sydney"])
    }
}
