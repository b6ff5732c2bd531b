import Foundation

/// Where a map is seen from: the point looked at, the direction and tilt of the view, and the
/// height of the eye (MapKit's MKMapCamera).
///
/// Mapwright's camera looks at a flat Web Mercator map. Its vertical field of view is
/// ``verticalFieldOfViewDegrees`` (36.87°, as MapLibre's): the eye is 1.5 viewport heights
/// from the centre, so a viewport's zoom level follows from the altitude, the pitch, the
/// centre's latitude and the viewport's height. For example, a camera 1000 m above Paris,
/// looking down, shows about 667 m of ground from top to bottom of any viewport:
///
/// ```swift
/// let camera = try Camera(centerCoordinate: paris, altitudeMeters: 1000)
/// ```
public struct Camera: Hashable, Sendable, Codable {
    /// The vertical field of view: 2·atan(1/3) ≈ 36.8699°, so the eye is 1.5 viewport
    /// heights from the point it looks at.
    public static let verticalFieldOfViewDegrees: Double = 2 * atan(1.0 / 3.0) * 180 / .pi

    /// Distance from the eye to the centre, in viewport heights: 1 / (2·tan(fov/2)) = 1.5.
    public static let centerDistanceInViewportHeights: Double = 1.5

    /// The steepest pitch a camera may have: 80° from looking straight down.
    public static let maximumPitchDegrees: Double = 80

    /// The coordinate at the centre of the view.
    public let centerCoordinate: Coordinate
    /// The direction the camera faces, in degrees clockwise from true north, in [0, 360).
    /// With heading 90 east is up in the view.
    public let headingDegrees: Double
    /// The tilt of the view from looking straight down, in degrees, in [0, ``maximumPitchDegrees``].
    public let pitchDegrees: Double
    /// The height of the eye above the ground, in meters; positive.
    public let altitudeMeters: Double

    /// Creates a camera, rejecting values that are not finite or out of range.
    ///
    /// - Parameters:
    ///   - centerCoordinate: The coordinate at the centre of the view.
    ///   - headingDegrees: Clockwise from true north; wrapped into [0, 360). The default is 0.
    ///   - pitchDegrees: From straight down, in [0, 80]. The default is 0.
    ///   - altitudeMeters: Height of the eye above the ground; positive.
    /// - Throws: ``MapCoreError/invalidCamera(name:value:range:)`` naming the bad field.
    public init(
        centerCoordinate: Coordinate,
        headingDegrees: Double = 0,
        pitchDegrees: Double = 0,
        altitudeMeters: Double
    ) throws(MapCoreError) {
        guard headingDegrees.isFinite else {
            throw .invalidCamera(name: "heading", value: headingDegrees, range: 0...360)
        }
        guard pitchDegrees.isFinite, (0...Camera.maximumPitchDegrees).contains(pitchDegrees) else {
            throw .invalidCamera(name: "pitch", value: pitchDegrees, range: 0...Camera.maximumPitchDegrees)
        }
        guard altitudeMeters.isFinite, altitudeMeters > 0 else {
            throw .invalidCamera(name: "altitude", value: altitudeMeters, range: Double.leastNonzeroMagnitude...1e12)
        }
        self.centerCoordinate = centerCoordinate
        self.headingDegrees = headingDegrees.degreesWrappedTo360
        self.pitchDegrees = pitchDegrees
        self.altitudeMeters = altitudeMeters
    }

    /// Creates a camera that looks at `center` from an eye above another coordinate (MapKit's
    /// MKMapCamera(lookingAtCenter:fromEyeCoordinate:eyeAltitude:)).
    ///
    /// The heading is the initial great-circle bearing from the eye to the centre; the pitch is
    /// the angle between straight down and the line of sight, atan(ground distance / altitude);
    /// the altitude is the eye's. An eye straight above the centre gives heading 0 and pitch 0.
    ///
    /// For example, an eye 1 km south of the centre and 1 km up looks north at a 45° pitch:
    ///
    /// ```swift
    /// let camera = try Camera(lookingAt: center, fromEye: oneKilometerSouth, eyeAltitudeMeters: 1000)
    /// // camera.headingDegrees == 0, camera.pitchDegrees == 45, camera.altitudeMeters == 1000
    /// ```
    ///
    /// - Throws: ``MapCoreError/invalidCamera(name:value:range:)`` when the altitude is not
    ///   positive, or when the eye is so far and low that the pitch exceeds ``maximumPitchDegrees``.
    public init(lookingAt center: Coordinate, fromEye eye: Coordinate, eyeAltitudeMeters: Double) throws(MapCoreError) {
        guard eyeAltitudeMeters.isFinite, eyeAltitudeMeters > 0 else {
            throw .invalidCamera(name: "altitude", value: eyeAltitudeMeters, range: Double.leastNonzeroMagnitude...1e12)
        }
        let groundMeters = eye.distance(to: center)
        let heading = groundMeters > 0 ? eye.initialBearing(to: center) : 0
        let pitch = atan2(groundMeters, eyeAltitudeMeters) * 180 / .pi
        try self.init(
            centerCoordinate: center, headingDegrees: heading, pitchDegrees: pitch, altitudeMeters: eyeAltitudeMeters)
    }
}

// MARK: - Altitude and zoom level

extension Camera {
    /// The altitude at which a camera shows a zoom level in a viewport of the given height.
    ///
    /// - Parameters:
    ///   - zoomLevel: The zoom level at the centre of the view.
    ///   - latitude: The centre's latitude in degrees (ground resolution depends on it).
    ///   - pitchDegrees: The camera's pitch; the eye is lower for the same centre distance.
    ///   - viewportHeightPoints: The viewport's height in points.
    /// - Returns: Meters above the ground.
    public static func altitudeMeters(
        forZoomLevel zoomLevel: Double,
        latitude: Double,
        pitchDegrees: Double,
        viewportHeightPoints: Double
    ) -> Double {
        let metersPerPoint = ZoomLevel.metersPerPoint(atZoomLevel: zoomLevel, latitude: latitude)
        let centerDistanceMeters = centerDistanceInViewportHeights * viewportHeightPoints * metersPerPoint
        return centerDistanceMeters * cos(pitchDegrees * .pi / 180)
    }

    /// The zoom level this camera shows at the centre of a viewport of the given height.
    public func zoomLevel(viewportHeightPoints: Double) -> Double {
        let centerDistanceMeters = altitudeMeters / cos(pitchDegrees * .pi / 180)
        let metersPerPoint = centerDistanceMeters / (Camera.centerDistanceInViewportHeights * viewportHeightPoints)
        return ZoomLevel.zoomLevel(forMetersPerPoint: metersPerPoint, latitude: centerCoordinate.latitude)
    }
}
