import Foundation
public import MapCore

/// What `locate` prints: where coordinates appear in a view and what lies under view points,
/// as text or as one JSON object (keys sorted).
public struct LocateReport: Encodable, Sendable {
    /// The visible region, degrees rounded to 7 places.
    public struct RegionReport: Encodable, Sendable {
        public var center: Coordinate
        public var span: CoordinateSpan
        public var north: Double, south: Double, west: Double, east: Double
    }

    /// A coordinate located in the view.
    public struct CoordinateReport: Encodable, Sendable {
        public var latitude: Double
        public var longitude: Double
        /// `nil` (JSON null) when the coordinate is behind the camera.
        public var point: ViewPoint?
        public var mapPoint: MapPoint
        /// The tile holding it at the view's zoom level, rounded down.
        public var tile: TileID

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(latitude, forKey: .latitude)
            try container.encode(longitude, forKey: .longitude)
            try container.encode(point, forKey: .point)
            try container.encode(mapPoint, forKey: .mapPoint)
            try container.encode(tile, forKey: .tile)
        }

        private enum CodingKeys: String, CodingKey { case latitude, longitude, point, mapPoint, tile }
    }

    /// A view point located on the map.
    public struct PointReport: Encodable, Sendable {
        public var x: Double
        public var y: Double
        /// `nil` (JSON null) above the horizon or off the world.
        public var coordinate: Coordinate?

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(x, forKey: .x)
            try container.encode(y, forKey: .y)
            try container.encode(coordinate, forKey: .coordinate)
        }

        private enum CodingKeys: String, CodingKey { case x, y, coordinate }
    }

    public var visibleRegion: RegionReport
    public var coordinates: [CoordinateReport]
    public var points: [PointReport]

    /// Locates `coordinates` and view points in `viewport`.
    ///
    /// - Throws: `MapCoreError` for a coordinate whose tile cannot be named (none in range).
    public init(viewport: Viewport, coordinates: [Coordinate], points viewPoints: [ViewPoint]) throws(MapCoreError) {
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
        self.coordinates = try coordinates.map { coordinate throws(MapCoreError) in
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
    public var text: String {
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

    /// The report as one JSON object, keys sorted.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Numbers, strings and nulls only: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A number as short decimal text (values are already rounded).
    private static func text(_ value: Double) -> String {
        value.decimalText(maximumFractionDigits: Double.displayedDegreeDecimalPlaces)
    }
}
