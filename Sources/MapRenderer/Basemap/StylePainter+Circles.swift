import CCairo
import Foundation
import GeoData
import MapCore
import MapStyle

extension StylePainter {
    /// Draws a circle layer: a circle at each point of each feature, and at each vertex of its
    /// lines and polygons, as MapLibre's circle layers do, in feature order. The stroke lies
    /// outside the radius; `circle-blur` fades the circle from `(1 − blur) × radius` outwards.
    /// Features are drawn in `circle-sort-key` order, moved by `circle-translate`. In a pitched
    /// view `circle-pitch-scale` map draws circles far away smaller (as the map is), and
    /// `circle-pitch-alignment` map lays them flat on the ground (ellipses).
    func drawCircles(_ circle: CircleLayer, features: [PreparedFeature]) {
        let translation = viewTranslation(
            circle.translate.value(atZoom: zoomLevel), anchor: circle.translateAnchor.value(atZoom: zoomLevel))
        let scalesWithMap = circle.pitchScale.value(atZoom: zoomLevel) == .map
        let liesFlat = circle.pitchAlignment.value(atZoom: zoomLevel) == .map
        let cosPitch = cos(viewport.camera.pitchDegrees * .pi / 180)
        for feature in sorted(features, by: circle.sortKey) {
            let values = feature.styleValues
            let radius = circle.radius.value(atZoom: zoomLevel, properties: values)
            let color = circle.color.value(atZoom: zoomLevel, properties: values)
            let opacity = circle.opacity.value(atZoom: zoomLevel, properties: values)
            let blur = min(1, max(0, circle.blur.value(atZoom: zoomLevel, properties: values)))
            let strokeWidth = circle.strokeWidth.value(atZoom: zoomLevel, properties: values)
            let strokeColor = circle.strokeColor.value(atZoom: zoomLevel, properties: values)
            let strokeOpacity = circle.strokeOpacity.value(atZoom: zoomLevel, properties: values)
            let geometry = feature.geometry
            let centers = geometry.points + geometry.lines.flatMap { $0 } + geometry.polygons.flatMap { $0.flatMap { $0 } }
            for center in centers {
                guard let projected = viewPoint(for: center) else { continue }
                let point = ViewPoint(x: projected.x + translation.dx, y: projected.y + translation.dy)
                // A pitched view: the circle's own scale, and its squash when flat on the ground.
                let perspective = viewport.perspectiveScale(atViewY: projected.y) ?? 1
                let sizeScale = scalesWithMap ? perspective : 1
                let squash = liesFlat ? cosPitch * perspective : 1
                cairo_save(cairo)
                defer { cairo_restore(cairo) }
                cairo_translate(cairo, point.x, point.y)
                cairo_scale(cairo, sizeScale, sizeScale * squash)
                if strokeWidth > 0, strokeOpacity > 0 {
                    cairo_new_path(cairo)
                    cairo_arc(cairo, 0, 0, radius + strokeWidth, 0, 2 * .pi)
                    cairo_arc_negative(cairo, 0, 0, radius, 2 * .pi, 0)
                    cairo.setSource(strokeColor.with(alpha: strokeColor.alpha * strokeOpacity))
                    cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING)
                    cairo_fill(cairo)
                }
                guard radius > 0, opacity > 0 else { continue }
                let fill = color.with(alpha: color.alpha * opacity)
                cairo_new_path(cairo)
                cairo_arc(cairo, 0, 0, radius, 0, 2 * .pi)
                if blur > 0 {
                    let gradient = cairo_pattern_create_radial(0, 0, radius * (1 - blur), 0, 0, radius)!
                    cairo_pattern_add_color_stop_rgba(gradient, 0, fill.red, fill.green, fill.blue, fill.alpha)
                    cairo_pattern_add_color_stop_rgba(gradient, 1, fill.red, fill.green, fill.blue, 0)
                    cairo_set_source(cairo, gradient)
                    cairo_fill(cairo)
                    cairo_pattern_destroy(gradient)
                } else {
                    cairo.setSource(fill)
                    cairo_fill(cairo)
                }
            }
        }
    }
}
