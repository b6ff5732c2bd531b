import Foundation
import GeoData
import MapCore
import MapTestSupport
import Testing

/// GeoJSON files of the 2008 specification with a legacy `crs`, read through PROJ and checked
/// against PROJ's own `cs2cs`, run here.
struct GeoJSONCRSTests {
    /// Where cs2cs puts `points` of `crs`, as (longitude, latitude).
    private func cs2cs(_ points: [(Double, Double)], from crs: String) throws -> [(longitude: Double, latitude: Double)]
    {
        let input = points.map { "\($0.0) \($0.1)" }.joined(separator: "\n") + "\n"
        let run = try ExternalCommand.run("cs2cs", ["-f", "%.10f", crs, "EPSG:4326"], standardInput: Data(input.utf8))
        try #require(run.status == 0, "\(run.transcript)")
        // cs2cs prints EPSG:4326 in its official order: latitude, longitude, height.
        let rows = run.standardOutput.split(separator: "\n").map { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
        }
        try #require(rows.count == points.count && rows.allSatisfy { $0.count >= 2 }, "\(run.transcript)")
        return rows.map { ($0[1], $0[0]) }
    }

    /// A FeatureCollection of one point per position and a line through them all, in `crs`.
    private func document(_ points: [(Double, Double)], crs: String) -> Data {
        let features = points.enumerated().map { index, point in
            #"{"type":"Feature","properties":{"n":\#(index)},"geometry":{"type":"Point","coordinates":[\#(point.0),\#(point.1)]}}"#
        }
        let line =
            #"{"type":"Feature","properties":{"n":-1},"geometry":{"type":"LineString","coordinates":[\#(points.map { "[\($0.0),\($0.1)]" }.joined(separator: ","))]}}"#
        return Data(
            #"{"type":"FeatureCollection","crs":\#(crs),"features":[\#((features + [line]).joined(separator: ","))]}"#
                .utf8)
    }

    private func check(_ points: [(Double, Double)], epsg: Int, crsMembers: [String]) throws {
        let expected = try cs2cs(points, from: "EPSG:\(epsg)")
        for crs in crsMembers {
            let read = try GeoJSONReader.read(data: document(points, crs: crs), path: "places.geojson")
            for (index, want) in expected.enumerated() {
                guard case .point(let position)? = read.features[index].geometry else {
                    Issue.record("\(crs): point \(index): \(String(describing: read.features[index].geometry))")
                    continue
                }
                #expect(abs(position.longitude - want.longitude) < 1e-7, "\(crs): point \(index)")
                #expect(abs(position.latitude - want.latitude) < 1e-7, "\(crs): point \(index)")
            }
            guard case .lineString(let line)? = read.features.last?.geometry else {
                Issue.record("\(crs): the line is \(String(describing: read.features.last?.geometry))")
                continue
            }
            #expect(
                zip(line, expected).allSatisfy {
                    abs($0.longitude - $1.longitude) < 1e-7 && abs($0.latitude - $1.latitude) < 1e-7
                }, "\(crs)")
        }
    }

    @Test func finnishTM35FINPositionsAreWhereCS2CSPutsThem() throws {
        // Helsinki's Senate Square, Rovaniemi, Utsjoki and Hanko in ETRS-TM35FIN (EPSG:3067).
        let points = [
            (385_873.0, 6_672_210.0), (443_000.5, 7_375_000.25), (500_000.0, 7_750_000.0), (280_000.0, 6_640_000.0),
        ]
        try check(
            points, epsg: 3067,
            crsMembers: [
                #"{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3067"}}"#,
                #"{"type":"name","properties":{"name":"EPSG:3067"}}"#,
                #"{"type":"name","properties":{"name":"http://www.opengis.net/def/crs/EPSG/0/3067"}}"#,
                #"{"type":"EPSG","properties":{"code":3067}}"#,
            ])
    }

    @Test func swissLV95AndBritishNationalGridPositionsAreWhereCS2CSPutsThem() throws {
        // Bern, Zürich and Lugano in CH1903+ / LV95 (EPSG:2056); London, Edinburgh and Land's End
        // in the British National Grid (EPSG:27700), whose datum shift PROJ applies.
        try check(
            [(2_600_000.0, 1_200_000.0), (2_683_000.0, 1_248_000.0), (2_717_500.5, 1_095_800.0)], epsg: 2056,
            crsMembers: [
                #"{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::2056"}}"#
            ])
        try check(
            [(530_000.0, 180_000.0), (325_000.0, 673_500.0), (134_500.0, 25_300.0)], epsg: 27700,
            crsMembers: [
                #"{"type":"name","properties":{"name":"EPSG:27700"}}"#
            ])
    }

    @Test func crs84AndEPSG4326AreReadLongitudeFirstAsGDALReadsThem() throws {
        // GDAL's GeoJSON driver reads urn:ogc:def:crs:EPSG::4326 in the traditional GIS order
        // too, as every writer of such files writes it.
        for crs in [
            #"{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}}"#,
            #"{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::4326"}}"#,
            #"{"type":"name","properties":{"name":"EPSG:4326"}}"#,
            "null",
        ] {
            let read = try GeoJSONReader.read(data: document([(24.95, 60.17)], crs: crs), path: "helsinki.geojson")
            #expect(read.features.first?.geometry == .point(Position(longitude: 24.95, latitude: 60.17)), "\(crs)")
        }
    }

    @Test func aLinkedOrUnknownCRSIsOneLineNamingTheFileAndTheCRS() throws {
        let linked = #"{"type":"link","properties":{"href":"http://example.com/crs/42","type":"proj4"}}"#
        #expect { try GeoJSONReader.read(data: document([(1, 2)], crs: linked), path: "old.geojson") } throws: {
            error in
            let text = "\(error)"
            return text.hasPrefix("old.geojson: its crs cannot be used: a linked crs (type link)")
                && !text.contains("\n")
        }
        let unknown = #"{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::999999"}}"#
        #expect { try GeoJSONReader.read(data: document([(1, 2)], crs: unknown), path: "odd.geojson") } throws: {
            error in
            let text = "\(error)"
            return text.hasPrefix("odd.geojson: its crs 'EPSG:999999' is not a coordinate system PROJ knows")
                && !text.contains("\n")
        }
    }
}
