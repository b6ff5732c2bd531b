import ArgumentParser
import Foundation
import MapCore

/// `mapwright locate`: where coordinates appear in a view and what lies under view points, for
/// people debugging maps.
struct LocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Convert between coordinates and view points for a camera over a view.",
        discussion: """
            For each --coordinate, prints its view point, its Web Mercator map point and the tile \
            containing it at the zoom level; for each --point, the coordinate under it (none above \
            the horizon); and the visible region. View points have their origin at the top-left, y down.
            """
    )

    @OptionGroup var camera: CameraOptions

    @Option(
        name: .customLong("coordinate"), parsing: .unconditionalSingleValue,
        help: "A coordinate to locate in the view, as LAT,LON.", transform: ArgumentValues.coordinate)
    var coordinates: [Coordinate] = []

    @Option(
        name: .customLong("point"), parsing: .unconditionalSingleValue,
        help: "A view point to locate on the map, as X,Y in points.", transform: ArgumentValues.viewPoint)
    var points: [ViewPoint] = []

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        _ = try camera.viewport()
    }

    func run() throws {
        let report = try LocateReport(viewport: camera.viewport(), coordinates: coordinates, points: points)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
    }
}

/// What `locate` prints, shaped for its JSON output.
struct LocateReport: Encodable {
    struct RegionReport: Encodable {
        var center: Coordinate
        var span: CoordinateSpan
        var north: Double, south: Double, west: Double, east: Double
    }

    struct CoordinateReport: Encodable {
        var latitude: Double
        var longitude: Double
        /// `nil` (JSON null) when the coordinate is behind the camera.
        var point: ViewPoint?
        var mapPoint: MapPoint
        var tile: TileID

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(latitude, forKey: .latitude)
            try container.encode(longitude, forKey: .longitude)
            try container.encode(point, forKey: .point)
            try container.encode(mapPoint, forKey: .mapPoint)
            try container.encode(tile, forKey: .tile)
        }

        private enum CodingKeys: String, CodingKey { case latitude, longitude, point, mapPoint, tile }
    }

    struct PointReport: Encodable {
        var x: Double
        var y: Double
        /// `nil` (JSON null) above the horizon or off the world.
        var coordinate: Coordinate?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(x, forKey: .x)
            try container.encode(y, forKey: .y)
            try container.encode(coordinate, forKey: .coordinate)
        }

        private enum CodingKeys: String, CodingKey { case x, y, coordinate }
    }

    var visibleRegion: RegionReport
    var coordinates: [CoordinateReport]
    var points: [PointReport]

    init(viewport: Viewport, coordinates: [Coordinate], points viewPoints: [ViewPoint]) throws {
        // Degrees to 7 decimal places (about 1 cm) and points to 3, so nothing prints binary
        // noise such as 37.810599999999994.
        let region = viewport.visibleRegion
        let degrees = { (value: Double) in value.rounded(toDecimalPlaces: Double.displayedDegreeDecimalPlaces) }
        let points = { (value: Double) in value.rounded(toDecimalPlaces: 3) }
        visibleRegion = RegionReport(
            center: region.center.rounded(),
            span: (try? CoordinateSpan(
                latitudeDelta: degrees(region.span.latitudeDelta), longitudeDelta: degrees(region.span.longitudeDelta)))
                ?? region.span,
            north: degrees(region.north), south: degrees(region.south), west: degrees(region.west),
            east: degrees(region.east)
        )
        let tileZoom = Int(viewport.zoomLevel.rounded(.down))
        self.coordinates = try coordinates.map { coordinate in
            CoordinateReport(
                latitude: coordinate.latitude,
                longitude: coordinate.longitude,
                point: viewport.point(for: coordinate).map { ViewPoint(x: points($0.x), y: points($0.y)) },
                mapPoint: MapPoint(coordinate).rounded(points),
                tile: try TileID(coordinate: coordinate, zoom: tileZoom)
            )
        }
        self.points = viewPoints.map {
            PointReport(x: $0.x, y: $0.y, coordinate: viewport.coordinate(for: $0)?.rounded())
        }
    }

    /// The report as lines of text.
    var text: String {
        var lines = [
            "visible region: center \(visibleRegion.center), span \(Self.text(visibleRegion.span.latitudeDelta)) x "
                + "\(Self.text(visibleRegion.span.longitudeDelta)) degrees (N \(Self.text(visibleRegion.north)), S \(Self.text(visibleRegion.south)), "
                + "W \(Self.text(visibleRegion.west)), E \(Self.text(visibleRegion.east)))"
        ]
        for entry in coordinates {
            let point = entry.point.map { "(\(Self.text($0.x)), \(Self.text($0.y)))" } ?? "behind the camera"
            lines.append(
                "coordinate \(Self.text(entry.latitude)),\(Self.text(entry.longitude)): point \(point), "
                    + "map point (\(Self.text(entry.mapPoint.x)), \(Self.text(entry.mapPoint.y))), tile \(entry.tile)"
            )
        }
        for entry in points {
            let coordinate = entry.coordinate.map(\.description) ?? "none (above the horizon or off the map)"
            lines.append("point \(Self.text(entry.x)),\(Self.text(entry.y)): coordinate \(coordinate)")
        }
        return lines.joined(separator: "\n")
    }

    /// A number as short decimal text (values are already rounded).
    private static func text(_ value: Double) -> String {
        value.decimalText(maximumFractionDigits: Double.displayedDegreeDecimalPlaces)
    }
}
