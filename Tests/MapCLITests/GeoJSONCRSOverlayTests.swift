import Foundation
import ImageCodec
import MapTestSupport
import Testing

/// `--overlay` GeoJSON with a legacy `crs`, as GDAL's ogr2ogr writes it: drawn in place, as the
/// same shapes in longitudes and latitudes are.
struct GeoJSONCRSOverlayTests {
    @Test func anOverlayInFinnishTM35FINDrawsAsTheSameShapesInLongitudesAndLatitudes() throws {
        let directory = try TemporaryDirectory()
        let wgs84 = directory.file("shapes.geojson")
        try Data(
            #"""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "Kaivopuisto"}, "geometry": {"type": "Polygon",
               "coordinates": [[[24.950, 60.155], [24.965, 60.155], [24.965, 60.162], [24.950, 60.162], [24.950, 60.155]]]}},
              {"type": "Feature", "properties": {"name": "walk"}, "geometry": {"type": "LineString",
               "coordinates": [[24.930, 60.165], [24.945, 60.172], [24.958, 60.168], [24.975, 60.175]]}},
              {"type": "Feature", "properties": {"name": "Senate Square"}, "geometry": {"type": "Point", "coordinates": [24.9525, 60.1695]}}
            ]}
            """#.utf8
        ).write(to: wgs84)
        let projected = directory.file("shapes in TM35FIN.geojson")
        let converted = try ExternalCommand.run(
            "ogr2ogr", ["-f", "GeoJSON", "-t_srs", "EPSG:3067", projected.path, wgs84.path])
        try #require(converted.status == 0, "\(converted.transcript)")
        let text = try String(contentsOf: projected, encoding: .utf8)
        try #require(text.contains("urn:ogc:def:crs:EPSG::3067"), "ogr2ogr writes the legacy crs: \(text.prefix(300))")

        let environment = try MapwrightProcess.environmentWithoutStreets(in: directory.url)
        var images: [RGBAImage] = []
        for (file, output) in [(wgs84, "wgs84.png"), (projected, "tm35fin.png")] {
            let result = try MapwrightProcess.run(
                [
                    "render", "--overlay", file.path, "--center", "60.165,24.952", "--zoom", "14", "--size", "400x300",
                    "-o", directory.path(output),
                ],
                environment: environment)
            try #require(result.status == 0, "\(file.lastPathComponent): \(result.standardError)")
            images.append(try RGBAImage(contentsOf: directory.file(output)))
        }
        // PROJ's round trip moves a position by far less than a millimetre: at most a shade
        // of difference in an edge's antialiasing.
        let largest = zip(images[0].pixels, images[1].pixels).map { abs(Int($0) - Int($1)) }.max() ?? 255
        #expect(images[0].width == images[1].width && largest <= 2, "the largest difference is \(largest)")
        // And the overlay is there: the map is not the bare basemap.
        let bare = try MapwrightProcess.run(
            [
                "render", "--center", "60.165,24.952", "--zoom", "14", "--size", "400x300", "-o",
                directory.path("bare.png"),
            ], environment: environment)
        try #require(bare.status == 0)
        #expect(try RGBAImage(contentsOf: directory.file("bare.png")).pixels != images[1].pixels)
    }
}
