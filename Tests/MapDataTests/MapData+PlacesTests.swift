import MapCore
import MapData
import MapTestSupport
import Testing

/// `--place` finds places as people name them and frames all of them, checked against the
/// coordinates of well-known cities.
struct MapDataPlacesTests {
    /// The bundled basemap, opened once for every test.
    private static let data = MapData(basemapDirectory: RepositoryFiles.basemap)

    private func region(_ name: String) throws -> CoordinateRegion {
        try #require(try Self.data.region(ofPlaceNamed: name), "no place named \(name)")
    }

    private func city(_ latitude: Double, _ longitude: Double) throws -> Coordinate {
        try Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Towns and cities that are no country or state come from the bundled GeoNames places: the
    /// most populous of the name, or of the name in the country after a comma; their positions
    /// checked against the cities' published coordinates.
    @Test func townsAndCitiesAreFoundByNameAndCountry() throws {
        for (name, latitude, longitude) in [
            ("Espoo", 60.2055, 24.6559), ("jyvaskyla", 62.2415, 25.7209), ("Perth", -31.9523, 115.8613),
            ("Perth, United Kingdom", 56.3950, -3.4308), ("Perth, GB", 56.3950, -3.4308),
            ("Portland, US", 45.5152, -122.6784),
        ] {
            let region = try region(name)
            let expected = try city(latitude, longitude)
            #expect(region.contains(expected), "\(name): \(region)")
            #expect(region.span.latitudeDelta < 0.6, "\(name) is framed as a town: \(region)")
        }
        // Espoo (324,000 people) is framed about 23 km a side; a country's name still wins.
        #expect((0.15...0.25).contains(try region("Espoo").span.latitudeDelta))
        #expect(try region("Finland").span.latitudeDelta > 5)
        #expect(try Self.data.region(ofPlaceNamed: "Espoo, Sweden") == nil)
        #expect(try Self.data.region(ofPlaceNamed: "Espoo, Atlantis") == nil)
        #expect(try Self.data.placeNames(closestTo: "Espo").contains("Espoo"))
    }

    @Test func japanIncludesHokkaidoAndKyushu() throws {
        let japan = try region("Japan")
        for (name, city) in [
            ("Sapporo", try city(43.06, 141.35)), ("Kagoshima", try city(31.60, 130.55)),
            ("Tokyo", try city(35.68, 139.69)),
        ] {
            #expect(japan.contains(city), "\(name) is outside \(japan)")
        }
    }

    @Test func newZealandIncludesBothIslands() throws {
        let zealand = try region("new zealand")
        let auckland = try city(-36.85, 174.76)
        let invercargill = try city(-46.41, 168.35)
        #expect(zealand.contains(auckland) && zealand.contains(invercargill), "\(zealand)")
    }

    @Test func fijiIsFramedTheShortWayAcrossTheAntimeridian() throws {
        let fiji = try region("Fiji")
        #expect(fiji.contains(try city(-18.14, 178.44)), "Suva is outside \(fiji)")
        #expect(fiji.contains(try city(-18.22, -178.80)), "Lakeba (Lau) is outside \(fiji)")
        #expect(fiji.span.longitudeDelta < 20, "\(fiji) goes the long way round")
    }

    @Test func farTerritoriesAreLeftOutNearIslandsKept() throws {
        let france = try region("France")
        let paris = try city(48.86, 2.35)
        let ajaccio = try city(41.93, 8.74)
        #expect(france.contains(paris) && france.contains(ajaccio), "Paris or Ajaccio outside \(france)")
        #expect(!france.contains(try city(4.92, -52.31)), "Cayenne (French Guiana) is inside \(france)")
        let states = try region("United States")
        let seattle = try city(47.61, -122.33)
        let miami = try city(25.76, -80.19)
        #expect(states.contains(seattle) && states.contains(miami), "\(states)")
        #expect(!states.contains(try city(21.31, -157.86)), "Honolulu is inside \(states)")
    }

    @Test(arguments: [
        ("USA", "United States of America"), ("United States", "United States of America"),
        ("usa", "United States of America"),
        ("UK", "United Kingdom"), ("Great Britain", "United Kingdom"), ("Cote d'Ivoire", "Côte d'Ivoire"),
        ("Democratic Republic of the Congo", "Dem. Rep. Congo"), ("Czech Republic", "Czechia"),
    ])
    func commonNamesResolveToTheBasemapsName(typed: String, basemapName: String) throws {
        let typedRegion = try region(typed)
        let basemapRegion = try region(basemapName)
        #expect(typedRegion == basemapRegion)
    }

    @Test func statesResolveByTheirEnglishName() throws {
        let bavaria = try region("Bavaria")
        let bayern = try region("Bayern")
        #expect(bavaria == bayern)
        let munich = try city(48.14, 11.58)
        let berlin = try city(52.52, 13.40)
        #expect(bavaria.contains(munich) && !bavaria.contains(berlin), "\(bavaria)")
    }

    @Test func unknownNamesSuggestTheClosest() throws {
        #expect(try Self.data.region(ofPlaceNamed: "Germny") == nil)
        #expect(try Self.data.placeNames(closestTo: "Germny").first == "Germany")
        #expect(try Self.data.placeNames(closestTo: "Untied States").first == "United States of America")
        #expect(try Self.data.placeNames(closestTo: "Xyzzy").isEmpty)
    }
}
