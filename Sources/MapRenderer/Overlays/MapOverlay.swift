public import MapCore
public import MapStyle

/// A shape drawn over the map in coordinates: a track, an area, a circle, a named waypoint
/// (MapKit's MKOverlay with its renderer's stroke and fill).
public struct MapOverlay: Hashable, Sendable {
    /// The geometry of an overlay.
    public enum Shape: Hashable, Sendable {
        /// Straight lines in map space between the coordinates (MKPolyline).
        case polyline([Coordinate])
        /// Great-circle arcs between the coordinates (MKGeodesicPolyline).
        case geodesicPolyline([Coordinate])
        /// An area: the exterior ring, then holes cut out of it (MKPolygon with interiorPolygons).
        case polygon(exterior: [Coordinate], holes: [[Coordinate]])
        /// Every point within `radiusMeters` of `center` on the Earth's surface, drawn
        /// geodesically (MKCircle).
        case circle(center: Coordinate, radiusMeters: Double)
        /// A named place (a GPX waypoint): a round marker on the coordinate, filled in the
        /// stroke colour and ringed in white, its name beside it to the right in the renderer's
        /// sans serif with a white halo, as GPS maps (Garmin BaseCamp, MapKit's point
        /// annotations with visible titles) show waypoints. The marker's diameter is twice
        /// ``lineWidthPoints`` plus 4 points; no name draws the marker alone.
        case waypoint(Coordinate, name: String?)
    }

    /// Where an overlay sits among the map's layers (MKOverlayLevel).
    public enum Level: String, Hashable, Sendable, CaseIterable {
        /// Above the basemap's lines and areas, under its labels.
        case aboveRoads
        /// Above everything but annotations.
        case aboveLabels
    }

    /// What the overlay draws, in coordinates.
    public var shape: Shape
    /// The stroke colour; `nil` draws no outline.
    public var strokeColor: Color?
    /// The stroke width in points.
    public var lineWidthPoints: Double
    /// Dash and gap lengths in points; empty for a solid line.
    public var lineDashPattern: [Double]
    /// How the ends of lines are drawn. The default is round.
    public var lineCap: LineCap
    /// How lines are drawn where they bend. The default is round.
    public var lineJoin: LineJoin
    /// The fill colour of polygons and circles; `nil` fills nothing.
    public var fillColor: Color?
    /// Where the overlay sits among the map's layers. The default is ``Level/aboveRoads``.
    public var level: Level

    /// Creates an overlay. The defaults draw a 3-point round-capped line above roads.
    public init(
        shape: Shape,
        strokeColor: Color? = Color(red: 0, green: 0.478, blue: 1, alpha: 0.9),
        lineWidthPoints: Double = 3,
        lineDashPattern: [Double] = [],
        lineCap: LineCap = .round,
        lineJoin: LineJoin = .round,
        fillColor: Color? = nil,
        level: Level = .aboveRoads
    ) {
        self.shape = shape
        self.strokeColor = strokeColor
        self.lineWidthPoints = lineWidthPoints
        self.lineDashPattern = lineDashPattern
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.fillColor = fillColor
        self.level = level
    }
}
