import Foundation

/// The smooth, optimal zoom-and-pan path between two views of the map: the camera rises (zooms
/// out) to see more of the way, pans, and descends onto the destination, as MapLibre's `flyTo`
/// animates it.
///
/// The path is the one of Jarke J. van Wijk and Wim A. A. Nuij, "Smooth and efficient zooming and
/// panning" (IEEE InfoVis 2003): with `w` the width of the view and `u` the position of its centre
/// along the straight line between the two centres, it is the shortest path in the metric
/// ds² = ρ²·du²/w² + dw²/(ρ²·w²), where ρ, the ``curvature``, weighs zooming against panning
/// (ρ = 1.42 is MapLibre's default and what the paper's users preferred; larger values zoom out
/// further). The centres are taken in Web Mercator map points scaled to screen points at the start's
/// zoom level, and `w` starts as the larger side of the view. Going across the antimeridian is taken
/// when it is the shorter way.
///
/// ``stop(at:)`` gives the camera at a fraction of the path's ``length``, so equal steps of
/// progress move at a constant perceived speed; ease the progress first for a gentler start and
/// end. Heading turns the shorter way round and pitch changes evenly, both in proportion to the
/// progress.
///
/// For example, 60 frames from Paris to Sydney in a 1024 × 768 view:
///
/// ```swift
/// let path = try FlightPath(
///     from: FlightPath.Stop(centerCoordinate: paris, zoomLevel: 12),
///     to: FlightPath.Stop(centerCoordinate: sydney, zoomLevel: 12),
///     viewSize: ViewSize(width: 1024, height: 768))
/// let frames = path.stops(count: 60)
/// ```
public struct FlightPath: Hashable, Sendable {
    /// A camera on the path: the map's centre, zoom level, heading and pitch.
    public struct Stop: Hashable, Sendable, Codable {
        /// The coordinate at the centre of the view.
        public var centerCoordinate: Coordinate
        /// The zoom level at the centre of the view, in ``Viewport/zoomLevelRange``.
        public var zoomLevel: Double
        /// The direction the view faces, in degrees clockwise from true north.
        public var headingDegrees: Double
        /// The tilt of the view from looking straight down, in degrees, in
        /// [0, ``Camera/maximumPitchDegrees``].
        public var pitchDegrees: Double

        /// Creates a stop; ``FlightPath/init(from:to:viewSize:curvature:)`` checks its values.
        ///
        /// - Parameters:
        ///   - centerCoordinate: The coordinate at the centre of the view.
        ///   - zoomLevel: The zoom level at the centre of the view.
        ///   - headingDegrees: Clockwise from true north. The default is 0, north up.
        ///   - pitchDegrees: From straight down. The default is 0.
        public init(
            centerCoordinate: Coordinate, zoomLevel: Double, headingDegrees: Double = 0, pitchDegrees: Double = 0
        ) {
            self.centerCoordinate = centerCoordinate
            self.zoomLevel = zoomLevel
            self.headingDegrees = headingDegrees
            self.pitchDegrees = pitchDegrees
        }

        /// The stop a viewport shows: its camera's centre, heading and pitch, and its zoom level.
        public init(_ viewport: Viewport) {
            self.init(
                centerCoordinate: viewport.camera.centerCoordinate, zoomLevel: viewport.zoomLevel,
                headingDegrees: viewport.camera.headingDegrees, pitchDegrees: viewport.camera.pitchDegrees)
        }
    }

    /// MapLibre's default curvature ρ: 1.42, the value the paper's users found best.
    public static let defaultCurvature: Double = 1.42

    /// MapLibre's default speed along a path: 1.2 units of ``length`` per second.
    public static let defaultSpeed: Double = 1.2

    /// Where the path starts: the stop given, its heading wrapped into [0, 360).
    public let start: Stop
    /// Where the path ends: the stop given, its heading wrapped into [0, 360).
    public let end: Stop
    /// The view's size in points; its larger side is the paper's starting width w0.
    public let viewSize: ViewSize
    /// The paper's ρ: how much the path zooms out to pan; positive.
    public let curvature: Double
    /// The path's length S in the paper's metric: dimensionless, about ρ times the number of view
    /// widths panned at a constant zoom, or ln(w1/w0)/ρ for a pure zoom; 0 when the two stops show
    /// the same centre at the same zoom level. MapLibre's `flyTo` lasts `1000 · length / speed`
    /// milliseconds (see ``durationSeconds(speed:)``).
    public let length: Double

    /// The start's centre in map points.
    private let startPoint: MapPoint
    /// From the start's centre to the end's, in map points, across the antimeridian when shorter.
    private let offsetX: Double
    private let offsetY: Double
    /// How heading turns from start to end, in degrees, in [-180, 180).
    private let headingChangeDegrees: Double
    /// The shape of the zoom and pan.
    private let shape: Shape

    private enum Shape: Hashable, Sendable {
        /// The centres coincide: the zoom level changes evenly, the centre stays (the paper's
        /// special case u1 = 0, where w grows or shrinks exponentially with s).
        case zoom
        /// The general path: `r0` is the paper's r0, `startWidth` is w0 and `distance` u1, both in
        /// screen points at the start's zoom level.
        case flight(r0: Double, startWidth: Double, distance: Double)
    }

    /// The path from one stop to another.
    ///
    /// - Parameters:
    ///   - start: Where the path starts.
    ///   - end: Where it ends.
    ///   - viewSize: The view's size in points.
    ///   - curvature: The paper's ρ; positive. The default is ``defaultCurvature``, 1.42.
    /// - Throws: ``MapCoreError/invalidZoomLevel(_:range:)`` for a zoom level outside
    ///   ``Viewport/zoomLevelRange``, ``MapCoreError/invalidCamera(name:value:range:)`` for a heading
    ///   that is not finite or a pitch outside [0, ``Camera/maximumPitchDegrees``],
    ///   ``MapCoreError/invalidViewportSize(width:height:)``, or
    ///   ``MapCoreError/invalidCurvature(_:)``.
    public init(from start: Stop, to end: Stop, viewSize: ViewSize, curvature: Double = defaultCurvature)
        throws(MapCoreError)
    {
        for stop in [start, end] {
            guard stop.zoomLevel.isFinite, Viewport.zoomLevelRange.contains(stop.zoomLevel) else {
                throw .invalidZoomLevel(stop.zoomLevel, range: Viewport.zoomLevelRange)
            }
            guard stop.headingDegrees.isFinite else {
                throw .invalidCamera(name: "heading", value: stop.headingDegrees, range: 0...360)
            }
            guard stop.pitchDegrees.isFinite, (0...Camera.maximumPitchDegrees).contains(stop.pitchDegrees) else {
                throw .invalidCamera(name: "pitch", value: stop.pitchDegrees, range: 0...Camera.maximumPitchDegrees)
            }
        }
        guard viewSize.width.isFinite, viewSize.height.isFinite, viewSize.width > 0, viewSize.height > 0 else {
            throw .invalidViewportSize(width: viewSize.width, height: viewSize.height)
        }
        guard curvature.isFinite, curvature > 0 else { throw .invalidCurvature(curvature) }

        var start = start
        var end = end
        start.headingDegrees = start.headingDegrees.degreesWrappedTo360
        end.headingDegrees = end.headingDegrees.degreesWrappedTo360
        self.start = start
        self.end = end
        self.viewSize = viewSize
        self.curvature = curvature
        headingChangeDegrees = (end.headingDegrees - start.headingDegrees + 180).degreesWrappedTo360 - 180

        let world = WebMercator.worldSize
        startPoint = MapPoint(start.centerCoordinate)
        let endPoint = MapPoint(end.centerCoordinate)
        var dx = endPoint.x - startPoint.x
        dx -= (dx / world).rounded() * world
        offsetX = dx
        offsetY = endPoint.y - startPoint.y

        // The paper's quantities, in screen points at the start's zoom level.
        let rho = curvature
        let zoomScale = ZoomLevel.zoomScale(atZoomLevel: start.zoomLevel)
        let w0 = max(viewSize.width, viewSize.height)
        let w1 = w0 * exp2(start.zoomLevel - end.zoomLevel)
        let u1 = (offsetX * offsetX + offsetY * offsetY).squareRoot() * zoomScale
        // Below a billionth of the narrower view, the centres are the same place: the general
        // formulas would divide by almost nothing.
        if u1 <= 1e-9 * min(w0, w1) {
            shape = .zoom
            length = abs(end.zoomLevel - start.zoomLevel) * log(2.0) / rho
        } else {
            // b_i = (w1² − w0² ± ρ⁴·u1²) / (2·w_i·ρ²·u1), r_i = ln(−b_i + √(b_i² + 1)) = −asinh(b_i),
            // which stays exact where the logarithm's form cancels.
            let rho2 = rho * rho
            let b0 = (w1 * w1 - w0 * w0 + rho2 * rho2 * u1 * u1) / (2 * w0 * rho2 * u1)
            let b1 = (w1 * w1 - w0 * w0 - rho2 * rho2 * u1 * u1) / (2 * w1 * rho2 * u1)
            let r0 = -asinh(b0)
            let r1 = -asinh(b1)
            shape = .flight(r0: r0, startWidth: w0, distance: u1)
            length = (r1 - r0) / rho
        }
    }

    /// The camera at a fraction of the way along the path.
    ///
    /// `progress` is the fraction s/S of the path's ``length`` travelled, so equal steps move at
    /// a constant speed in the paper's metric; apply an easing to it first for a gentler start and
    /// end. The zoom level follows w(s) = w0·cosh(r0)/cosh(ρ·s + r0) and the centre moves
    /// u(s) = w0/ρ²·(cosh(r0)·tanh(ρ·s + r0) − sinh(r0)) along the straight line between the
    /// centres in map space; where the centres coincide, the zoom level changes evenly with the
    /// progress. A path that would zoom out below level 0 (far apart places in a small view) stays
    /// at level 0 for that stretch. The heading turns the shorter way round, returned wrapped into
    /// [0, 360); the pitch changes evenly.
    ///
    /// - Parameter progress: From 0 (``start``) to 1 (``end``); values outside are clamped.
    /// - Returns: ``start`` for 0 and ``end`` for 1, exactly as stored.
    public func stop(at progress: Double) -> Stop {
        precondition(!progress.isNaN, "a flight path's progress must be a number")
        if progress <= 0 { return start }
        if progress >= 1 { return end }
        let zoomLevel: Double
        let panFraction: Double
        switch shape {
        case .zoom:
            zoomLevel = start.zoomLevel + (end.zoomLevel - start.zoomLevel) * progress
            panFraction = 0
        case .flight(let r0, let w0, let u1):
            let rho = curvature
            let s = progress * length
            // w(s)/w0, and u(s)/u1 with cosh(r0)·tanh(x) − sinh(r0) = sinh(x − r0)/cosh(x), which
            // does not cancel where |r0| is large.
            let widthRatio = cosh(r0) / cosh(rho * s + r0)
            panFraction = w0 / (rho * rho) * sinh(rho * s) / cosh(rho * s + r0) / u1
            zoomLevel = max(Viewport.zoomLevelRange.lowerBound, start.zoomLevel - log2(widthRatio))
        }
        let center = MapPoint(x: startPoint.x + offsetX * panFraction, y: startPoint.y + offsetY * panFraction)
        return Stop(
            centerCoordinate: center.coordinate,
            zoomLevel: zoomLevel,
            headingDegrees: (start.headingDegrees + headingChangeDegrees * progress).degreesWrappedTo360,
            pitchDegrees: start.pitchDegrees + (end.pitchDegrees - start.pitchDegrees) * progress
        )
    }

    /// `count` stops evenly spaced along the path, at progress i / (count − 1): the frames of an
    /// animation at a constant speed.
    ///
    /// - Parameter count: How many stops; not negative. Two or more begin with ``start`` and end
    ///   with ``end`` exactly; one gives ``start``; zero gives none.
    public func stops(count: Int) -> [Stop] {
        precondition(count >= 0, "a flight path cannot be cut into \(count) stops")
        guard count > 1 else { return count == 1 ? [start] : [] }
        return (0..<count).map { index in
            index == count - 1 ? end : stop(at: Double(index) / Double(count - 1))
        }
    }

    /// How long the flight lasts at `speed` units of ``length`` per second, as MapLibre's `flyTo`
    /// times it: `length / speed` seconds.
    ///
    /// - Parameter speed: Positive. The default is ``defaultSpeed``, 1.2, MapLibre's.
    public func durationSeconds(speed: Double = defaultSpeed) -> Double {
        precondition(speed > 0, "a flight's speed must be positive")
        return length / speed
    }
}
