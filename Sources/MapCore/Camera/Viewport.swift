import Foundation

/// A camera seen through a view of a given size: the map's projection onto the screen.
///
/// A viewport converts between coordinates (or map points) and view points, whose origin is
/// the view's top-left corner with y down. The conversions are exact under heading rotation
/// and under pitch, where the view is a perspective view of the flat Web Mercator map with the
/// camera's field of view (``Camera/verticalFieldOfViewDegrees``). A view point above the
/// horizon shows no ground, so it has no coordinate.
///
/// For example:
///
/// ```swift
/// let viewport = try Viewport(center: paris, zoomLevel: 12, size: ViewSize(width: 800, height: 600))
/// let pin = viewport.point(for: eiffelTower)   // ViewPoint in points
/// let back = viewport.coordinate(for: pin!)     // eiffelTower again
/// ```
public struct Viewport: Hashable, Sendable {
    /// The zoom levels a viewport may show: 0 (the world in 256 points) to 30.
    public static let zoomLevelRange: ClosedRange<Double> = 0...ZoomLevel.maximum

    /// The widest angle from the vertical at which ground still counts as visible: 85°.
    /// With a steep pitch the view may show the horizon; ground farther than this is left out
    /// of ``visibleRegion``.
    public static let visibleGroundLimitDegrees: Double = 85

    /// The camera.
    public let camera: Camera
    /// The view's size in points.
    public let size: ViewSize
    /// Pixels per point: 1, 2 or 3 (up to 4). The default is 1.
    public let scale: Double
    /// The zoom level at the centre of the view.
    public let zoomLevel: Double

    /// The camera's centre in map space, exactly as given (see ``init(centerMapPoint:zoomLevel:size:scale:headingDegrees:)``).
    public let centerMapPoint: MapPoint
    /// View points per map point at the centre (MapKit's zoom scale).
    public let zoomScale: Double
    let cosHeading: Double
    let sinHeading: Double
    let cosPitch: Double
    let sinPitch: Double
    /// Distance from the eye to the centre, in view points.
    let centerDistancePoints: Double

    /// Creates a viewport showing a camera's view.
    ///
    /// - Throws: ``MapCoreError/invalidViewportSize(width:height:)``, ``MapCoreError/invalidScale(_:)``
    ///   or ``MapCoreError/invalidZoomLevel(_:range:)`` when the camera's altitude gives a zoom
    ///   level outside ``zoomLevelRange`` for this size.
    public init(camera: Camera, size: ViewSize, scale: Double = 1) throws(MapCoreError) {
        try Viewport.validate(size: size, scale: scale)
        let zoomLevel = camera.zoomLevel(viewportHeightPoints: size.height)
        try self.init(camera: camera, zoomLevel: zoomLevel, size: size, scale: scale)
    }

    /// Creates a viewport centred on a coordinate at a zoom level.
    ///
    /// - Parameters:
    ///   - center: The coordinate at the centre of the view.
    ///   - zoomLevel: In ``zoomLevelRange``; fractional levels are allowed.
    ///   - size: The view's size in points.
    ///   - scale: Pixels per point, in [1, 4]. The default is 1.
    ///   - headingDegrees: Clockwise from true north. The default is 0.
    ///   - pitchDegrees: From straight down, in [0, 80]. The default is 0.
    /// - Throws: ``MapCoreError`` naming the bad value.
    public init(
        center: Coordinate,
        zoomLevel: Double,
        size: ViewSize,
        scale: Double = 1,
        headingDegrees: Double = 0,
        pitchDegrees: Double = 0
    ) throws(MapCoreError) {
        try Viewport.validate(size: size, scale: scale)
        guard zoomLevel.isFinite, Viewport.zoomLevelRange.contains(zoomLevel) else {
            throw .invalidZoomLevel(zoomLevel, range: Viewport.zoomLevelRange)
        }
        let altitude = Camera.altitudeMeters(
            forZoomLevel: zoomLevel,
            latitude: center.latitude,
            pitchDegrees: pitchDegrees,
            viewportHeightPoints: size.height
        )
        let camera = try Camera(
            centerCoordinate: center,
            headingDegrees: headingDegrees,
            pitchDegrees: pitchDegrees,
            altitudeMeters: altitude
        )
        try self.init(camera: camera, zoomLevel: zoomLevel, size: size, scale: scale)
    }

    /// Creates a flat viewport (pitch 0) centred exactly on a map point.
    ///
    /// A viewport made from a coordinate keeps the map point of that coordinate, within a
    /// rounding error. This one keeps `centerMapPoint` itself, so its view points are
    /// `(mapPoint − centerMapPoint) × zoomScale + size / 2` computed exactly: two such viewports
    /// whose centres are whole points apart place any map point whole points apart, with the same
    /// fraction of a pixel, which is how tiles rendered separately meet pixel for pixel.
    ///
    /// - Parameters:
    ///   - centerMapPoint: The map point at the centre of the view; y within the world.
    ///   - zoomLevel: In ``zoomLevelRange``.
    ///   - size: The view's size in points.
    ///   - scale: Pixels per point, in [1, 4]. The default is 1.
    ///   - headingDegrees: Clockwise from true north. The default is 0.
    /// - Throws: ``MapCoreError`` naming the bad value.
    public init(
        centerMapPoint: MapPoint, zoomLevel: Double, size: ViewSize, scale: Double = 1, headingDegrees: Double = 0
    ) throws(MapCoreError) {
        try Viewport.validate(size: size, scale: scale)
        guard zoomLevel.isFinite, Viewport.zoomLevelRange.contains(zoomLevel) else {
            throw .invalidZoomLevel(zoomLevel, range: Viewport.zoomLevelRange)
        }
        let center = centerMapPoint.coordinate
        let altitude = Camera.altitudeMeters(
            forZoomLevel: zoomLevel, latitude: center.latitude, pitchDegrees: 0, viewportHeightPoints: size.height)
        let camera = try Camera(
            centerCoordinate: center, headingDegrees: headingDegrees, pitchDegrees: 0, altitudeMeters: altitude)
        try self.init(camera: camera, zoomLevel: zoomLevel, size: size, scale: scale, centerMapPoint: centerMapPoint)
    }

    private init(camera: Camera, zoomLevel: Double, size: ViewSize, scale: Double, centerMapPoint: MapPoint? = nil)
        throws(MapCoreError)
    {
        guard zoomLevel.isFinite, Viewport.zoomLevelRange.contains(zoomLevel) else {
            throw .invalidZoomLevel(zoomLevel, range: Viewport.zoomLevelRange)
        }
        self.camera = camera
        self.size = size
        self.scale = scale
        self.zoomLevel = zoomLevel
        self.centerMapPoint = centerMapPoint ?? MapPoint(camera.centerCoordinate)
        zoomScale = ZoomLevel.zoomScale(atZoomLevel: zoomLevel)
        let heading = camera.headingDegrees * .pi / 180
        let pitch = camera.pitchDegrees * .pi / 180
        cosHeading = cos(heading)
        sinHeading = sin(heading)
        cosPitch = cos(pitch)
        sinPitch = sin(pitch)
        centerDistancePoints = Camera.centerDistanceInViewportHeights * size.height
    }

    private static func validate(size: ViewSize, scale: Double) throws(MapCoreError) {
        guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else {
            throw .invalidViewportSize(width: size.width, height: size.height)
        }
        guard scale.isFinite, (1...4).contains(scale) else { throw .invalidScale(scale) }
    }

    /// The view's size in pixels: points × ``scale``.
    public var pixelWidth: Int { Int((size.width * scale).rounded()) }
    /// The view's height in pixels: points × ``scale``.
    public var pixelHeight: Int { Int((size.height * scale).rounded()) }
}

// MARK: - Points and coordinates

extension Viewport {
    /// The view point where a coordinate appears.
    ///
    /// Of the world's copies east and west, the one nearest the centre is used.
    ///
    /// - Returns: The point in view points, possibly outside the view's bounds; `nil` when the
    ///   coordinate lies behind the camera (only possible with pitch).
    public func point(for coordinate: Coordinate) -> ViewPoint? {
        point(for: MapPoint(coordinate))
    }

    /// The view point where a map point appears; the world copy nearest the centre is used.
    public func point(for mapPoint: MapPoint) -> ViewPoint? {
        let world = WebMercator.worldSize
        var dx = mapPoint.x - centerMapPoint.x
        dx -= (dx / world).rounded() * world
        return project(groundOffset(dx: dx, dy: mapPoint.y - centerMapPoint.y))
    }

    /// The view point of a map point exactly where it lies, without choosing the nearest world
    /// copy: x beyond the world's edges stays beyond them. Renderers use it for geometry whose
    /// longitudes have been made continuous across the antimeridian.
    ///
    /// - Returns: `nil` when the map point lies behind the camera.
    public func unwrappedPoint(for mapPoint: MapPoint) -> ViewPoint? {
        project(groundOffset(dx: mapPoint.x - centerMapPoint.x, dy: mapPoint.y - centerMapPoint.y))
    }

    /// The map point shown at a view point, unwrapped: x may lie outside [0, worldSize) when the
    /// view shows a neighbouring copy of the world.
    ///
    /// - Returns: `nil` when the point is above the horizon.
    public func mapPoint(for point: ViewPoint) -> MapPoint? {
        guard let ground = unproject(point) else { return nil }
        let eastPoints = ground.u * cosHeading - ground.v * sinHeading
        let southPoints = ground.u * sinHeading + ground.v * cosHeading
        return MapPoint(x: centerMapPoint.x + eastPoints / zoomScale, y: centerMapPoint.y + southPoints / zoomScale)
    }

    /// The coordinate shown at a view point.
    ///
    /// - Returns: `nil` when the point is above the horizon or beyond the north or south edge
    ///   of the Web Mercator world (latitude ±85.05112878).
    public func coordinate(for point: ViewPoint) -> Coordinate? {
        guard let mapPoint = mapPoint(for: point), (0...WebMercator.worldSize).contains(mapPoint.y) else { return nil }
        return mapPoint.coordinate
    }

    /// Offset of a map-space offset on the ground plane, in view points: `u` to the right of the
    /// view, `v` toward its bottom edge, after the heading's rotation.
    func groundOffset(dx: Double, dy: Double) -> (u: Double, v: Double) {
        let east = dx * zoomScale
        let south = dy * zoomScale
        return (east * cosHeading + south * sinHeading, -east * sinHeading + south * cosHeading)
    }

    /// Perspective projection of a ground offset onto the view; `nil` behind the camera.
    ///
    /// The eye is `centerDistancePoints` (D) from the centre, tilted by the pitch p toward the
    /// bottom of the view; a ground point (u, v) is at depth D − v·sin p and appears at
    /// (D·u, D·v·cos p) / depth from the view's centre.
    func project(_ ground: (u: Double, v: Double)) -> ViewPoint? {
        // A flat view is an exact translation (no rounding through the perspective's ratio).
        if sinPitch == 0 { return ViewPoint(x: size.width / 2 + ground.u, y: size.height / 2 + ground.v) }
        let distance = centerDistancePoints
        let depth = distance - ground.v * sinPitch
        guard depth > distance * 1e-9 else { return nil }
        return ViewPoint(
            x: size.width / 2 + distance * ground.u / depth,
            y: size.height / 2 + distance * ground.v * cosPitch / depth
        )
    }

    /// The ground offset seen at a view point: the inverse of ``project(_:)``; `nil` at or above
    /// the horizon.
    func unproject(_ point: ViewPoint) -> (u: Double, v: Double)? {
        let distance = centerDistancePoints
        let x = point.x - size.width / 2
        let y = point.y - size.height / 2
        let denominator = distance * cosPitch + y * sinPitch
        guard denominator > distance * 1e-12 else { return nil }
        let v = y * distance / denominator
        return (x * (distance - v * sinPitch) / distance, v)
    }
}

// MARK: - Regions and rects

extension Viewport {
    /// The view y above which ground is farther than ``visibleGroundLimitDegrees`` from the
    /// vertical below the eye; far above the view when the pitch is small.
    var visibleGroundTopY: Double {
        let limit = Viewport.visibleGroundLimitDegrees * .pi / 180
        return size.height / 2 + centerDistancePoints * tan(camera.pitchDegrees * .pi / 180 - limit)
    }

    /// The region of visible ground: the bounds of the ground inside the view, up to
    /// ``visibleGroundLimitDegrees`` from the vertical when the horizon shows.
    public var visibleRegion: CoordinateRegion {
        // The view's centre is always on the ground, so the clipped rect is never empty.
        region(for: ViewRect(x: 0, y: 0, width: size.width, height: size.height))
            ?? CoordinateRegion(
                center: camera.centerCoordinate, span: CoordinateSpan(uncheckedLatitudeDelta: 0, longitudeDelta: 0))
    }

    /// The map rect bounding the ground inside a view rect (up to the visible-ground limit).
    ///
    /// - Returns: `nil` when no part of the rect shows ground.
    public func mapRect(for rect: ViewRect) -> MapRect? {
        let top = max(rect.minY, visibleGroundTopY)
        guard top < rect.maxY || (top == rect.maxY && rect.size.height == 0) else { return nil }
        let corners = [
            ViewPoint(x: rect.minX, y: top), ViewPoint(x: rect.maxX, y: top),
            ViewPoint(x: rect.maxX, y: rect.maxY), ViewPoint(x: rect.minX, y: rect.maxY),
        ]
        // The ground is a plane and the projection maps lines to lines, so the corners bound it.
        let points = corners.compactMap(mapPoint(for:))
        guard points.count == 4 else { return nil }
        return MapRect(enclosing: points)
    }

    /// The region bounding the ground inside a view rect (MapKit's convert(_:toRegionFrom:)).
    ///
    /// Latitudes are clamped to the Web Mercator world, and the longitude span to 360°.
    ///
    /// - Returns: `nil` when no part of the rect shows ground.
    public func region(for rect: ViewRect) -> CoordinateRegion? {
        guard var mapRect = mapRect(for: rect) else { return nil }
        let world = WebMercator.worldSize
        let top = min(world, max(0, mapRect.minY))
        let bottom = min(world, max(0, mapRect.maxY))
        let width = min(world, mapRect.width)
        mapRect = MapRect(x: mapRect.midX - width / 2, y: top, width: width, height: bottom - top)
        return CoordinateRegion(mapRect)
    }

    /// The view rect bounding a region as it appears in the view (MapKit's
    /// convert(_:toRectTo:)); with heading or pitch the region's outline is not a rectangle.
    ///
    /// The copy of the region nearest the view's centre is used. Parts of the region behind
    /// the camera are left out.
    ///
    /// - Returns: `nil` when the whole region is behind the camera.
    public func rect(for region: CoordinateRegion) -> ViewRect? {
        let mapRect = region.mapRect
        let world = WebMercator.worldSize
        let shift = ((centerMapPoint.x - mapRect.midX) / world).rounded() * world
        let corners = [
            (mapRect.minX, mapRect.minY), (mapRect.maxX, mapRect.minY),
            (mapRect.maxX, mapRect.maxY), (mapRect.minX, mapRect.maxY),
        ].map { groundOffset(dx: $0.0 + shift - centerMapPoint.x, dy: $0.1 - centerMapPoint.y) }
        return ViewRect(enclosing: clippedToNearPlane(corners).compactMap(project))
    }

    /// The polygon of ground offsets clipped to the part in front of the camera (Sutherland–Hodgman
    /// against the plane at 1/1000 of the centre distance).
    private func clippedToNearPlane(_ polygon: [(u: Double, v: Double)]) -> [(u: Double, v: Double)] {
        guard sinPitch > 0 else { return polygon }
        let limitV = centerDistancePoints * (1 - 1e-3) / sinPitch
        var output: [(u: Double, v: Double)] = []
        for (index, current) in polygon.enumerated() {
            let previous = polygon[(index + polygon.count - 1) % polygon.count]
            let currentInside = current.v <= limitV
            let previousInside = previous.v <= limitV
            if currentInside != previousInside {
                let t = (limitV - previous.v) / (current.v - previous.v)
                output.append((previous.u + t * (current.u - previous.u), limitV))
            }
            if currentInside { output.append(current) }
        }
        return output
    }
}

// MARK: - Fitting regions

extension Viewport {
    /// Creates a north-up viewport that shows all of a region, centred on it (MapKit's
    /// setRegion): the region is widened or heightened to the view's aspect, as
    /// ``regionThatFits(_:)`` does.
    ///
    /// - Throws: ``MapCoreError`` for a bad size or scale, or a region so small that it needs a
    ///   zoom level above ``zoomLevelRange``.
    public init(region: CoordinateRegion, size: ViewSize, scale: Double = 1) throws(MapCoreError) {
        try Viewport.validate(size: size, scale: scale)
        try self.init(
            fitting: region.mapRect, into: ViewRect(x: 0, y: 0, width: size.width, height: size.height), size: size,
            scale: scale)
    }

    /// Creates a north-up viewport that shows every coordinate, with room around them
    /// (MapKit's showAnnotations(_:animated:) with edge padding).
    ///
    /// Coordinates on both sides of the antimeridian are shown across it, the shorter way.
    /// A single coordinate, or identical ones, get a region of `minimumSpanMeters` around them.
    ///
    /// - Parameters:
    ///   - coordinates: What must be visible; at least one.
    ///   - edgePadding: Points kept free at each edge (for pins and callouts). The default is none.
    ///   - size: The view's size in points.
    ///   - scale: Pixels per point. The default is 1.
    ///   - minimumSpanMeters: The smallest extent shown, in meters. The default is 1000.
    ///   - maximumZoomLevel: The closest zoom level used. The default is 19.
    /// - Throws: ``MapCoreError/noCoordinates``, ``MapCoreError/paddingExceedsViewport(width:height:)``,
    ///   or an error for a bad size or scale.
    public init<S: Sequence>(
        showing coordinates: S,
        edgePadding: EdgeInsets = .zero,
        size: ViewSize,
        scale: Double = 1,
        minimumSpanMeters: Double = 1000,
        maximumZoomLevel: Double = 19
    ) throws(MapCoreError) where S.Element == Coordinate {
        try Viewport.validate(size: size, scale: scale)
        let enclosing = try CoordinateRegion(enclosing: coordinates)
        var mapRect = enclosing.mapRect
        let minimumMapPoints = minimumSpanMeters * WebMercator.mapPointsPerMeter(atLatitude: enclosing.center.latitude)
        if mapRect.width < minimumMapPoints {
            mapRect = mapRect.insetBy(dx: (mapRect.width - minimumMapPoints) / 2, dy: 0)
        }
        if mapRect.height < minimumMapPoints {
            mapRect = mapRect.insetBy(dx: 0, dy: (mapRect.height - minimumMapPoints) / 2)
        }
        let inner = ViewRect(
            x: edgePadding.left,
            y: edgePadding.top,
            width: size.width - edgePadding.left - edgePadding.right,
            height: size.height - edgePadding.top - edgePadding.bottom
        )
        guard inner.size.width > 0, inner.size.height > 0 else {
            throw .paddingExceedsViewport(width: inner.size.width, height: inner.size.height)
        }
        try self.init(fitting: mapRect, into: inner, size: size, scale: scale, maximumZoomLevel: maximumZoomLevel)
    }

    /// A north-up viewport at the zoom level that fits `mapRect` into `target` (a rect of the
    /// view), with the rect's centre at the target's centre.
    private init(
        fitting mapRect: MapRect,
        into target: ViewRect,
        size: ViewSize,
        scale: Double,
        maximumZoomLevel: Double = ZoomLevel.maximum
    ) throws(MapCoreError) {
        let fitScale = min(
            target.size.width / max(mapRect.width, .leastNonzeroMagnitude),
            target.size.height / max(mapRect.height, .leastNonzeroMagnitude)
        )
        let zoomLevel = min(maximumZoomLevel, max(0, ZoomLevel.zoomLevel(forZoomScale: fitScale)))
        let zoomScale = ZoomLevel.zoomScale(atZoomLevel: zoomLevel)
        // Put the rect's centre at the target's centre: the view's centre is then offset from it.
        let center = MapPoint(
            x: mapRect.midX + (size.width / 2 - target.midX) / zoomScale,
            y: min(WebMercator.worldSize, max(0, mapRect.midY + (size.height / 2 - target.midY) / zoomScale))
        )
        try self.init(center: center.coordinate, zoomLevel: zoomLevel, size: size, scale: scale)
    }

    /// The region with the view's aspect ratio that contains `region`, sharing its centre in
    /// map space (MapKit's regionThatFits(_:)). Heading and pitch are not considered.
    public func regionThatFits(_ region: CoordinateRegion) -> CoordinateRegion {
        let mapRect = region.mapRect
        let aspect = size.width / size.height
        var width = mapRect.width
        var height = mapRect.height
        if height == 0 || width / height < aspect { width = height * aspect } else { height = width / aspect }
        let world = WebMercator.worldSize
        let top = max(0, mapRect.midY - height / 2)
        let bottom = min(world, mapRect.midY + height / 2)
        width = min(world, width)
        return CoordinateRegion(MapRect(x: mapRect.midX - width / 2, y: top, width: width, height: bottom - top))
    }
}
