import Foundation
import ImageCodec
import ImageCompare
import MapComposer
import MapCore
import MapRenderer
import MapStyle
import MapTestSupport
import Testing

/// A tileset made to put everything on tile and metatile edges: the standard style plus a layer
/// of place names centred on edges, pins and a cluster on edges, a selected pin whose callout
/// crosses a metatile edge, a track, a circle and an area crossing them.
///
/// At zoom 6, tiles of 256 points, metatiles of 8: the metatile edges nearby are longitude 0
/// (tile column 32) and latitude 40.98° (tile row 24); tile column 33 starts at longitude 5.625
/// and tile row 23 at latitude 45.08°. The 3 × 3 block of columns 31...33 and rows 22...24 (Spain,
/// France, Italy) holds tiles of four metatiles.
enum TileFixtures {
    static let zoom = 6
    static let columns = 31...33
    static let rows = 22...24
    /// The longitude of column 32's west edge, a metatile edge: 0.
    static let metatileEdgeLongitude = 0.0
    /// The latitude of row 24's north edge, a metatile edge.
    static let metatileEdgeLatitude = MapPoint(x: 0, y: 24 * WebMercator.worldSize / 64).coordinate.latitude
    /// The longitude of column 33's west edge, a tile edge inside a metatile: 5.625.
    static let tileEdgeLongitude = 5.625

    /// The standard style with a `places` layer on top, labelling the points of a GeoJSON file
    /// (each label centred on its point); written into `directory`.
    static func style(in directory: URL) throws -> Style {
        let places: [(String, Double, Double)] = [
            ("Meridian Crossing", metatileEdgeLongitude, 44.2),  // on the vertical metatile edge
            ("Parallel Crossing", 8.4, metatileEdgeLatitude),  // on the horizontal metatile edge
            ("Tile Edge Town", tileEdgeLongitude, 46.6),  // on a tile edge inside a metatile
        ]
        let features = places.map { name, longitude, latitude in
            """
            {"type": "Feature", "properties": {"name": "\(name)"}, "geometry": {"type": "Point", "coordinates": [\(longitude), \(latitude)]}}
            """
        }
        try Data(#"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#.utf8)
            .write(to: directory.appendingPathComponent("places.geojson"))
        var standard =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: RepositoryFiles.styles.appendingPathComponent("standard.json")))
            as! [String: Any]
        var sources = standard["sources"] as! [String: Any]
        sources["places"] = ["type": "geojson", "data": "places.geojson"]
        standard["sources"] = sources
        var layers = standard["layers"] as! [Any]
        layers.append(
            [
                "id": "places", "type": "symbol", "source": "places",
                "layout": ["text-field": "{name}", "text-font": ["DejaVu Sans Bold"], "text-size": 13],
                "paint": ["text-color": "#203050", "text-halo-color": "#ffffff", "text-halo-width": 1.5],
            ] as [String: Any])
        standard["layers"] = layers
        let url = directory.appendingPathComponent("tiles.json")
        try JSONSerialization.data(withJSONObject: standard, options: [.sortedKeys]).write(to: url)
        return try Style.load(from: url).style
    }

    /// Pins on the edges, a cluster of six at the corner of four metatiles, and the selected pin
    /// on the vertical metatile edge.
    static func content(style: Style) throws -> MapTileContent {
        let red = style.mapwright.pins.color(forKey: "Ansel Adams")
        let blue = style.mapwright.pins.color(forKey: "Dorothea Lange")
        func pin(_ id: String, _ latitude: Double, _ longitude: Double, _ color: Color, _ who: String) throws
            -> MapAnnotation
        {
            MapAnnotation(
                id: id, coordinate: try Coordinate(latitude: latitude, longitude: longitude), title: "Photo \(id)",
                subtitle: "\(who) · 2024-05-01", marker: .pin(color), clusteringIdentifier: who)
        }
        var annotations = [
            try pin("meridian", 45.6, metatileEdgeLongitude, red, "Ansel Adams"),  // tip on the metatile edge
            // shadow crosses it
            try pin("west-of-meridian", 39.4, metatileEdgeLongitude - 0.08, blue, "Dorothea Lange"),
            try pin("tile-edge", 38.2, tileEdgeLongitude, blue, "Dorothea Lange"),  // on a tile edge
            try pin("parallel", metatileEdgeLatitude, 3.3, red, "Ansel Adams"),  // tip on the horizontal edge
            try pin("below-parallel", metatileEdgeLatitude - 0.25, 10.2, red, "Ansel Adams"),  // head crosses it
        ]
        // Six photos a few kilometres apart, just north-east of the corner at 0°, 40.98°.
        for index in 0..<6 {
            annotations.append(
                try pin(
                    "corner-\(index)", metatileEdgeLatitude + 0.04 + 0.05 * Double(index % 3),
                    0.05 + 0.06 * Double(index / 3), red, "Ansel Adams"))
        }
        let index = ClusterIndex(
            annotations.map { ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: $0.clusteringIdentifier) })
        let track = try [(37.2, -4.5), (39.0, -1.5), (41.5, 0.8), (43.0, 3.0), (44.6, 5.7), (46.2, 9.5), (47.8, 10.8)]
            .map {
                try Coordinate(latitude: $0.0, longitude: $0.1)
            }
        let area = try [(42.6, 6.0), (42.6, 8.6), (40.2, 8.6), (40.2, 6.0)].map {
            try Coordinate(latitude: $0.0, longitude: $0.1)
        }
        return MapTileContent(
            annotations: annotations, clusterIndex: index, clusterMemberName: "photos",
            selectedAnnotationID: "meridian",
            overlays: [
                MapOverlay(
                    shape: .polyline(track), strokeColor: Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.9),
                    lineWidthPoints: 3),
                MapOverlay(
                    shape: .circle(
                        center: try Coordinate(latitude: metatileEdgeLatitude, longitude: 0), radiusMeters: 90_000),
                    strokeColor: Color(red: 0, green: 0.478, blue: 1, alpha: 0.8), lineWidthPoints: 2,
                    fillColor: Color(red: 0, green: 0.478, blue: 1, alpha: 0.15)),
                MapOverlay(
                    shape: .polygon(exterior: area, holes: []),
                    strokeColor: Color(red: 0.2, green: 0.6, blue: 0.2, alpha: 0.9),
                    lineWidthPoints: 2, lineDashPattern: [6, 4],
                    fillColor: Color(red: 0.2, green: 0.6, blue: 0.2, alpha: 0.12),
                    level: .aboveLabels),
            ])
    }

    /// Tiles pasted side by side into one image, `block` columns × rows of tiles.
    static func stitch(_ tiles: [RenderedTile], columns: ClosedRange<Int>, rows: ClosedRange<Int>) -> RGBAImage {
        let side = tiles[0].image.width
        var pixels = [UInt8](repeating: 0, count: columns.count * side * rows.count * side * 4)
        let rowBytes = columns.count * side * 4
        for tile in tiles {
            let left = (tile.tile.x - columns.lowerBound) * side
            let top = (tile.tile.y - rows.lowerBound) * side
            for y in 0..<side {
                let source = y * side * 4
                let target = (top + y) * rowBytes + left * 4
                pixels.replaceSubrange(target..<target + side * 4, with: tile.image.pixels[source..<source + side * 4])
            }
        }
        return RGBAImage(width: columns.count * side, height: rows.count * side, pixels: pixels)
    }

    /// A part of an image.
    static func crop(_ image: RGBAImage, x: Int, y: Int, width: Int, height: Int) -> RGBAImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for row in y..<y + height {
            let start = (row * image.width + x) * 4
            pixels += image.pixels[start..<start + width * 4]
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The most two renders of the same area may differ by in one colour channel, in levels of
    /// 255: 10 (4 %). Cairo computes a pixel row's antialiasing analytically or by subsampling
    /// depending on every edge crossing that row of the render, so an edge pixel can come out a
    /// few levels apart in renders of different extents (5 at most in these tests); a seam (a cut
    /// label, half a pin, dashes out of step) is tens to hundreds of levels.
    static let largestChannelDeltaLevels = 10

    /// Expects two renders of the same area to agree: the compare engine (pixelmatch, threshold
    /// 0.1) finds no differing pixel, antialiased ones included, and no channel of any pixel is
    /// more than ``largestChannelDeltaLevels`` apart.
    static func expectSameRender(
        _ expected: RGBAImage, _ actual: RGBAImage, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try compare(expected, actual, options: DiffOptions(threshold: 0.1, includeAntiAliased: true))
        #expect(
            result.differentPixels == 0, "\(what): \(result.differentPixels) pixels differ",
            sourceLocation: sourceLocation)
        let largest = zip(expected.pixels, actual.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
        #expect(
            largest <= largestChannelDeltaLevels, "\(what): a channel differs by \(largest) levels",
            sourceLocation: sourceLocation)
    }
}
