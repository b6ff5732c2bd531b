import Foundation

extension Viewport {
    /// How much larger the ground appears at a view row than at the view's centre, under pitch:
    /// 1 + (y − h/2) / D · tan p, with D the eye's distance from the centre in view points and
    /// p the pitch. Below the centre it exceeds 1 (the ground is nearer), above it falls toward
    /// 0 at the horizon. A flat view gives 1 everywhere.
    ///
    /// Along the row the ground is scaled by this factor; across rows by its square times cos p
    /// (the ground is also foreshortened): a view point covers `1 / scale` ground points
    /// sideways and `1 / (scale² cos p)` up the view.
    ///
    /// - Returns: The factor; `nil` at or above the horizon.
    public func perspectiveScale(atViewY y: Double) -> Double? {
        guard sinPitch > 0 else { return 1 }
        let scale = 1 + (y - size.height / 2) / centerDistancePoints * sinPitch / cosPitch
        return scale > 1e-9 ? scale : nil
    }

    /// The view row of the horizon (where the ground meets the sky), which may lie above the view
    /// (a negative y); `nil` for a flat view, which has none.
    public var horizonY: Double? {
        guard sinPitch > 0 else { return nil }
        return size.height / 2 - centerDistancePoints * cosPitch / sinPitch
    }

    /// The view row above which ground is farther than ``visibleGroundLimitDegrees`` from the
    /// vertical below the eye, and is not drawn (a pitched view shows sky there, as MapLibre
    /// does): at or below ``horizonY``, and above the view at small pitches.
    public var visibleGroundTopViewY: Double { visibleGroundTopY }

    /// The ground offset at a view point, in view points at the centre's zoom: `u` along the view's
    /// rows, `v` toward its bottom, both from the centre, after the heading's rotation; the
    /// inverse of the projection. `nil` at or above the horizon.
    public func groundPoint(for point: ViewPoint) -> (u: Double, v: Double)? {
        unproject(point)
    }

    /// The map point of a ground offset (see ``groundPoint(for:)``), unwrapped.
    public func mapPoint(forGroundOffset ground: (u: Double, v: Double)) -> MapPoint {
        let eastPoints = ground.u * cosHeading - ground.v * sinHeading
        let southPoints = ground.u * sinHeading + ground.v * cosHeading
        return MapPoint(x: centerMapPoint.x + eastPoints / zoomScale, y: centerMapPoint.y + southPoints / zoomScale)
    }
}
