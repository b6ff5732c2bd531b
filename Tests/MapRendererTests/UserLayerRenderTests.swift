import Foundation
import ImageCodec
import MapCore
import MapData
import MapRenderer
import MapStyle
import MapTestSupport
import Testing

/// A user's own GeoJSON file drawn as a vector layer of a style, over the bundled basemap.
struct UserLayerRenderTests {
    @Test func aStyleDrawsAUsersGeoJSONFileWithItsOwnLabels() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-layer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let park = """
            {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "Parc"},
              "geometry": {"type": "Polygon", "coordinates": [[[2.2, 48.8], [2.4, 48.8], [2.4, 48.9], [2.2, 48.9], [2.2, 48.8]]]}}]}
            """
        try Data(park.utf8).write(to: directory.appendingPathComponent("park.geojson"))
        let style = """
            {"version": 8, "name": "user", "sources": {"parks": {"type": "geojson", "data": "park.geojson"}},
             "layers": [
               {"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
               {"id": "parks", "type": "fill", "source": "parks", "paint": {"fill-color": "#00ff00"}},
               {"id": "park-labels", "type": "symbol", "source": "parks",
                "layout": {"text-field": "{name}", "text-size": 14}, "paint": {"text-color": "#000000"}}]}
            """
        try Data(style.utf8).write(to: directory.appendingPathComponent("user.json"))
        let loaded = try Style.load(from: directory.appendingPathComponent("user.json"))
        #expect(loaded.warnings.isEmpty)
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(48.85, 2.3), zoomLevel: 10, size: ViewSize(width: 200, height: 200))
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)
        ).image
        // The park is filled green inside its edges, white outside, and labelled in black.
        let inside = try #require(viewport.point(for: RenderFixtures.coordinate(48.82, 2.22)))
        let outside = try #require(viewport.point(for: RenderFixtures.coordinate(48.91, 2.3)))
        #expect(image[x: Int(inside.x), y: Int(inside.y)] == RGBAPixel(red: 0, green: 255, blue: 0, alpha: 255))
        #expect(image[x: Int(outside.x), y: Int(outside.y)] == RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255))
        let dark = stride(from: 0, to: image.pixels.count, by: 4).filter {
            image.pixels[$0] < 60 && image.pixels[$0 + 1] < 60
        }
        #expect(dark.count > 20, "the label should draw dark glyphs")
    }

    @Test func inlineGeoJSONDrawsAsTheSameFileDoes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-inline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let park = """
            {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon",
              "coordinates": [[[2.2, 48.8], [2.4, 48.8], [2.4, 48.9], [2.2, 48.9], [2.2, 48.8]]]}}
            """
        try Data(park.utf8).write(to: directory.appendingPathComponent("park.geojson"))
        func style(data: String) throws -> Style {
            let json = """
                {"version": 8, "sources": {"parks": {"type": "geojson", "data": \(data)}},
                 "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
                            {"id": "parks", "type": "fill", "source": "parks", "paint": {"fill-color": "#00ff00", "fill-opacity": 0.5}}]}
                """
            let loaded = try Style.parse(
                Data(json.utf8), file: "inline.json", baseURL: URL(fileURLWithPath: directory.path, isDirectory: true))
            #expect(loaded.warnings.isEmpty)
            return loaded.style
        }
        let inline = try style(data: park)
        guard case .geoJSON(let source)? = inline.sources["parks"], case .inline = source.data else {
            return #expect(Bool(false), "the source should hold its GeoJSON inline")
        }
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(48.85, 2.3), zoomLevel: 10, size: ViewSize(width: 200, height: 200))
        func render(_ style: Style) throws -> RGBAImage {
            try RenderFixtures.snapshotter.snapshot(
                MapSnapshotOptions(viewport: viewport, style: style, showsAttribution: false)
            ).image
        }
        let fromInline = try render(inline)
        #expect(fromInline == (try render(try style(data: "\"park.geojson\""))))
        let inside = try #require(viewport.point(for: RenderFixtures.coordinate(48.82, 2.22)))
        #expect(
            fromInline[x: Int(inside.x), y: Int(inside.y)] == RGBAPixel(red: 127, green: 255, blue: 127, alpha: 255))
        // Data that is not GeoJSON draws nothing, as in MapLibre, with a warning at its path.
        let json = """
            {"version": 8, "sources": {"parks": {"type": "geojson", "data": [1, 2]}},
             "layers": [{"id": "parks", "type": "fill", "source": "parks"}]}
            """
        let invalid = try Style.parse(Data(json.utf8), file: "invalid.json")
        #expect(
            invalid.warnings.map(\.description) == [
                "invalid.json: sources.parks.data: a geojson source's data is a GeoJSON object or the path of a GeoJSON file: this one draws nothing"
            ])
        // A file that is there but is not GeoJSON draws nothing too, and says so once drawn.
        try Data("42".utf8).write(to: directory.appendingPathComponent("number.geojson"))
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        let empty = try MapSnapshotter(data: data).snapshot(
            MapSnapshotOptions(
                viewport: viewport, style: try style(data: "\"number.geojson\""), showsAttribution: false)
        ).image
        #expect(empty[x: Int(inside.x), y: Int(inside.y)] == RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(
            data.skippedDataWarnings().count == 1 && data.skippedDataWarnings()[0].contains("number.geojson"),
            "\(data.skippedDataWarnings())")
    }

    /// One broken feature in a style's GeoJSON source is left out and counted in one warning;
    /// the source's other features draw.
    @Test func aBrokenFeatureInAGeoJSONSourceIsSkippedAndTheRestDraws() throws {
        let json = """
            {"version": 8, "sources": {"parks": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[2.2, 48.8], [2.3, 48.8]]]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon",
                "coordinates": [[[2.2, 48.8], [2.4, 48.8], [2.4, 48.9], [2.2, 48.9], [2.2, 48.8]]]}}]}}},
             "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "parks", "type": "fill", "source": "parks", "paint": {"fill-color": "#00ff00"}}]}
            """
        let style = try Style.parse(Data(json.utf8), file: "broken.json").style
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(48.85, 2.3), zoomLevel: 10, size: ViewSize(width: 200, height: 200))
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        let image = try MapSnapshotter(data: data).snapshot(
            MapSnapshotOptions(viewport: viewport, style: style, showsAttribution: false)
        ).image
        let inside = try #require(viewport.point(for: RenderFixtures.coordinate(48.82, 2.22)))
        #expect(image[x: Int(inside.x), y: Int(inside.y)] == RGBAPixel(red: 0, green: 255, blue: 0, alpha: 255))
        #expect(
            data.skippedDataWarnings() == [
                "inline GeoJSON: 1 broken feature is not drawn (the first: feature 0: geometry.coordinates[0]: a polygon ring needs at least 4 positions, it has 2)"
            ])
    }

    /// `"cluster": true` groups close points into one feature with `point_count`, as MapLibre's
    /// supercluster does at the style's zoom; a point far from the others stands alone.
    @Test func aClusteredGeoJSONSourceDrawsClustersWithTheirCounts() throws {
        let json = """
            {"version": 8, "sources": {"spots": {"type": "geojson", "cluster": true, "clusterRadius": 50, "data": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0.5, 0.5]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [-0.5, 0.2]}},
              {"type": "Feature", "properties": {"name": "far"}, "geometry": {"type": "Point", "coordinates": [30, 0]}}]}}},
             "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "clusters", "type": "circle", "source": "spots", "filter": ["has", "point_count"],
                         "paint": {"circle-radius": ["get", "point_count"], "circle-color": "#ff0000"}},
                        {"id": "points", "type": "circle", "source": "spots", "filter": ["!", ["has", "point_count"]],
                         "paint": {"circle-radius": 4, "circle-color": "#0000ff"}}]}
            """
        let loaded = try Style.parse(Data(json.utf8), file: "clusters.json")
        #expect(loaded.warnings.isEmpty)
        guard case .geoJSON(let source)? = loaded.style.sources["spots"] else { return #expect(Bool(false)) }
        #expect(
            source.clustering?.radius == 50 && source.clustering?.maxZoom == 17 && source.clustering?.minPoints == 2)
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(0, 15), zoomLevel: 3, size: ViewSize(width: 400, height: 100))
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)
        ).image
        let red = RGBAPixel(red: 255, green: 0, blue: 0, alpha: 255)
        let blue = RGBAPixel(red: 0, green: 0, blue: 255, alpha: 255)
        let white = RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255)
        let three = try #require(viewport.point(for: RenderFixtures.coordinate(0.23, 0)))
        let far = try #require(viewport.point(for: RenderFixtures.coordinate(0, 30)))
        #expect(image[x: Int(three.x), y: Int(three.y)] == red, "the three close points are one cluster")
        #expect(
            image[x: Int(three.x) + 2, y: Int(three.y)] == red && image[x: Int(three.x) + 5, y: Int(three.y)] == white,
            "of radius point_count = 3")
        #expect(image[x: Int(far.x), y: Int(far.y)] == blue, "the far point stands alone")
    }

    /// `clusterProperties` accumulate over a cluster's points as MapLibre's do: the operator
    /// form (`["+", map]`) and the reduce-expression form (`[["max", ["accumulated"], ["get",
    /// name]], map]`), read by paint like any property.
    @Test func clusterPropertiesAccumulateOverTheClustersPoints() throws {
        let json = """
            {"version": 8, "sources": {"spots": {"type": "geojson", "cluster": true, "clusterRadius": 50,
              "clusterProperties": {"total": ["+", ["get", "n"]], "largest": [["max", ["accumulated"], ["get", "largest"]], ["get", "n"]]},
              "data": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"n": 1}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
              {"type": "Feature", "properties": {"n": 5}, "geometry": {"type": "Point", "coordinates": [0.5, 0.5]}},
              {"type": "Feature", "properties": {"n": 2}, "geometry": {"type": "Point", "coordinates": [-0.5, 0.2]}}]}}},
             "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "clusters", "type": "circle", "source": "spots", "filter": ["has", "point_count"],
                         "paint": {"circle-radius": ["get", "total"],
                                   "circle-color": ["case", ["==", ["get", "largest"], 5], "#ff0000", "#0000ff"]}}]}
            """
        let loaded = try Style.parse(Data(json.utf8), file: "cluster-properties.json")
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        guard case .geoJSON(let source)? = loaded.style.sources["spots"] else { return #expect(Bool(false)) }
        #expect(source.clustering?.properties.map(\.name) == ["largest", "total"])
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(0, 0), zoomLevel: 3, size: ViewSize(width: 100, height: 100))
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)
        ).image
        let red = RGBAPixel(red: 255, green: 0, blue: 0, alpha: 255)
        let white = RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255)
        let cluster = try #require(viewport.point(for: RenderFixtures.coordinate(0.23, 0)))
        #expect(image[x: Int(cluster.x), y: Int(cluster.y)] == red, "the largest n is 5")
        #expect(
            image[x: Int(cluster.x) + 6, y: Int(cluster.y)] == red
                && image[x: Int(cluster.x) + 10, y: Int(cluster.y)] == white,
            "of radius total = 1 + 5 + 2 = 8")
        let bad =
            #"{"version": 8, "sources": {"s": {"type": "geojson", "cluster": true, "clusterProperties": {"x": ["+"]}, "data": {"type": "Point", "coordinates": [0, 0]}}}, "layers": []}"#
        #expect(throws: StyleError.self) { try Style.parse(Data(bad.utf8), file: "bad.json") }
    }

    /// `within` and `distance` filters read each feature's geometry: only the points inside the
    /// polygon (red layer) and within 300 km of the point (blue layer) are drawn.
    @Test func withinAndDistanceFiltersReadTheFeaturesGeometry() throws {
        let json = """
            {"version": 8, "sources": {"spots": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [-10, 0]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [10, 0]}}]}}},
             "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "inside", "type": "circle", "source": "spots",
                         "filter": ["within", {"type": "Polygon", "coordinates": [[[-15, -5], [-5, -5], [-5, 5], [-15, 5], [-15, -5]]]}],
                         "paint": {"circle-radius": 6, "circle-color": "#ff0000"}},
                        {"id": "near", "type": "circle", "source": "spots",
                         "filter": ["<", ["distance", {"type": "Point", "coordinates": [11, 1]}], 300000],
                         "paint": {"circle-radius": 6, "circle-color": "#0000ff"}}]}
            """
        let loaded = try Style.parse(Data(json.utf8), file: "within.json")
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(0, 0), zoomLevel: 3, size: ViewSize(width: 400, height: 100))
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)
        ).image
        let red = RGBAPixel(red: 255, green: 0, blue: 0, alpha: 255)
        let blue = RGBAPixel(red: 0, green: 0, blue: 255, alpha: 255)
        let west = try #require(viewport.point(for: RenderFixtures.coordinate(0, -10)))
        let east = try #require(viewport.point(for: RenderFixtures.coordinate(0, 10)))
        #expect(image[x: Int(west.x), y: Int(west.y)] == red, "the western point is within the polygon")
        #expect(
            image[x: Int(east.x), y: Int(east.y)] == blue, "the eastern point is 157 km from (11, 1), and not within")
    }

    @Test func circleLayersDrawPointsAndVerticesWithTheirStrokeOutside() throws {
        let json = """
            {"version": 8, "sources": {"spots": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"big": true}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[10, 0], [20, 0]]}}]}}},
             "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "spots", "type": "circle", "source": "spots",
                         "paint": {"circle-radius": ["case", ["has", "big"], 10, 4], "circle-color": "#ff0000",
                                   "circle-stroke-width": 3, "circle-stroke-color": "#0000ff"}}]}
            """
        let loaded = try Style.parse(Data(json.utf8), file: "circles.json")
        #expect(loaded.warnings.isEmpty)
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(0, 10), zoomLevel: 3, size: ViewSize(width: 300, height: 100))
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)
        ).image
        func pixel(_ latitude: Double, _ longitude: Double, dx: Double = 0) throws -> RGBAPixel {
            let point = try #require(viewport.point(for: RenderFixtures.coordinate(latitude, longitude)))
            return image[x: Int(point.x + dx), y: Int(point.y)]
        }
        let red = RGBAPixel(red: 255, green: 0, blue: 0, alpha: 255)
        let blue = RGBAPixel(red: 0, green: 0, blue: 255, alpha: 255)
        // The point's circle is 10 points across its radius, its stroke 3 points outside that.
        #expect(try pixel(0, 0) == red && pixel(0, 0, dx: 8) == red && pixel(0, 0, dx: 11.5) == blue)
        #expect(try pixel(0, 0, dx: 15) == RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255))
        // Each vertex of the line gets a circle of its own, 4 points across; nothing between them.
        #expect(try pixel(0, 10) == red && pixel(0, 20) == red && pixel(0, 10, dx: 5.5) == blue)
        #expect(try pixel(0, 15) == RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255))
    }
}
