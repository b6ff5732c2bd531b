import CCairo
import Foundation
import GeoData
import MapCore
import MapStyle

/// Draws overlays onto a canvas through a viewport.
enum OverlayPainter {
    /// Circles are drawn as rings of this many geodesic points.
    static let circlePointCount = 180

    /// Overlay vertices closer than this to the simplified line are dropped before drawing, in pixels.
    static let simplificationPixels = 0.25

    /// Draws `overlay` in every world copy where it meets `visibleMapRect`, the viewport's area
    /// in map points.
    static func draw(_ overlay: MapOverlay, viewport: Viewport, visibleMapRect: MapRect, cairo: OpaquePointer) {
        if case .waypoint(let coordinate, let name) = overlay.shape {
            drawWaypoint(
                overlay, at: coordinate, name: name, viewport: viewport, visibleMapRect: visibleMapRect, cairo: cairo)
            return
        }
        // A GPS track has many more points than pixels: simplify to a quarter pixel first.
        let mapPointsPerPixel = 1 / (ZoomLevel.zoomScale(atZoomLevel: viewport.zoomLevel) * viewport.scale)
        let rings = mapRings(of: overlay.shape).map {
            Simplification.douglasPeucker($0, tolerance: mapPointsPerPixel * simplificationPixels)
        }
        let bounds = MapRect(enclosing: rings.joined())
        for offset in WorldCopies.offsets(for: bounds, visible: visibleMapRect) {
            cairo_new_path(cairo)
            for ring in rings {
                let points = ring.compactMap { viewport.unwrappedPoint(for: MapPoint(x: $0.x + offset, y: $0.y)) }
                if overlay.isClosed { cairo.addRing(points) } else { cairo.addPolyline(points) }
            }
            if overlay.isClosed, let fill = overlay.fillColor {
                cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_EVEN_ODD)
                cairo.setSource(fill)
                if overlay.strokeColor != nil { cairo_fill_preserve(cairo) } else { cairo_fill(cairo) }
            }
            if let stroke = overlay.strokeColor, overlay.lineWidthPoints > 0 {
                cairo.setSource(stroke)
                cairo_set_line_width(cairo, overlay.lineWidthPoints)
                cairo_set_line_cap(cairo, overlay.lineCap.cairo)
                cairo_set_line_join(cairo, overlay.lineJoin.cairo)
                cairo.setDash(overlay.lineDashPattern, lineWidth: 1)
                cairo_stroke(cairo)
                cairo_set_dash(cairo, nil, 0, 0)
            }
            cairo_new_path(cairo)
        }
    }

    /// The overlay's rings (or lines) as map points with continuous x across the antimeridian.
    static func mapRings(of shape: MapOverlay.Shape) -> [[MapPoint]] {
        switch shape {
        case .polyline(let coordinates):
            return [coordinates.unwrappedMapPoints()]
        case .geodesicPolyline(let coordinates):
            var path: [Coordinate] = []
            for (start, end) in zip(coordinates, coordinates.dropFirst()) {
                let segmentMeters = max(1_000, start.distance(to: end) / 128)
                let arc = (try? start.greatCirclePath(to: end, maximumSegmentMeters: segmentMeters)) ?? [start, end]
                path.append(contentsOf: path.isEmpty ? arc : Array(arc.dropFirst()))
            }
            return [path.isEmpty ? coordinates.unwrappedMapPoints() : path.unwrappedMapPoints()]
        case .polygon(let exterior, let holes):
            return ([exterior] + holes).map { $0.unwrappedMapPoints() }
        case .circle(let center, let radiusMeters):
            guard let circle = try? GeodesicCircle(center: center, radiusMeters: radiusMeters) else { return [] }
            return [circle.ring(pointCount: circlePointCount).unwrappedMapPoints()]
        case .waypoint(let coordinate, _):
            return [[MapPoint(coordinate)]]
        }
    }

    /// The size of a waypoint's name, in points.
    static let waypointLabelPoints = 12.0

    /// A waypoint: a marker filled in the stroke colour with a white ring, and its name to the
    /// right, dark on a white halo, in every world copy where the marker shows.
    private static func drawWaypoint(
        _ overlay: MapOverlay, at coordinate: Coordinate, name: String?, viewport: Viewport, visibleMapRect: MapRect,
        cairo: OpaquePointer
    ) {
        let point = MapPoint(coordinate)
        let radius = overlay.lineWidthPoints + 2
        let label = name.flatMap {
            $0.isEmpty ? nil : TextLayout($0, font: FontSpec(sizePoints: waypointLabelPoints), in: cairo)
        }
        for offset in WorldCopies.offsets(for: MapRect(enclosing: [point]), visible: visibleMapRect) {
            guard let center = viewport.unwrappedPoint(for: MapPoint(x: point.x + offset, y: point.y)) else { continue }
            cairo_new_path(cairo)
            cairo_arc(cairo, center.x, center.y, radius, 0, 2 * Double.pi)
            cairo.setSource(overlay.strokeColor ?? Color(red: 0, green: 0.478, blue: 1, alpha: 0.9))
            cairo_fill_preserve(cairo)
            cairo.setSource(Color(red: 1, green: 1, blue: 1, alpha: 1))
            cairo_set_line_width(cairo, max(1.5, radius / 3))
            cairo_stroke(cairo)
            if let label {
                let origin = ViewPoint(x: center.x + radius + 3, y: center.y - label.size.height / 2)
                label.draw(
                    at: origin, color: Color(red: 0.13, green: 0.13, blue: 0.13, alpha: 1),
                    halo: TextHalo(color: Color(red: 1, green: 1, blue: 1, alpha: 0.9), widthPoints: 1.5))
            }
        }
        cairo_new_path(cairo)
    }
}

extension MapOverlay {
    /// Whether the shape encloses an area.
    var isClosed: Bool {
        switch shape {
        case .polygon, .circle: return true
        case .polyline, .geodesicPolyline, .waypoint: return false
        }
    }
}

/// The copies of the world, east and west, in which geometry must be drawn to show in a view.
enum WorldCopies {
    /// Offsets in map points (multiples of the world's width) at which `bounds` meets `visible`.
    static func offsets(for bounds: MapRect, visible: MapRect) -> [Double] {
        guard !bounds.isNull, !visible.isNull else { return [] }
        let world = WebMercator.worldSize
        let first = ((visible.minX - bounds.maxX) / world).rounded(.up)
        let last = ((visible.maxX - bounds.minX) / world).rounded(.down)
        guard first <= last else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * world }
    }
}
