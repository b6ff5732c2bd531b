import CCairo
import GeoData
import MapCore
import MapStyle

extension StylePainter {
    /// Draws a circle layer: a circle at each point of each feature, and at each vertex of its
    /// lines and polygons, as MapLibre's circle layers do, in feature order. The stroke lies
    /// outside the radius; `circle-blur` fades the circle from `(1 − blur) × radius` outwards.
    func drawCircles(_ circle: CircleLayer, features: [PreparedFeature]) {
        for feature in features {
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
                guard let point = viewport.unwrappedPoint(for: center) else { continue }
                if strokeWidth > 0, strokeOpacity > 0 {
                    cairo_new_path(cairo)
                    cairo_arc(cairo, point.x, point.y, radius + strokeWidth, 0, 2 * .pi)
                    cairo_arc_negative(cairo, point.x, point.y, radius, 2 * .pi, 0)
                    cairo.setSource(strokeColor.with(alpha: strokeColor.alpha * strokeOpacity))
                    cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING)
                    cairo_fill(cairo)
                }
                guard radius > 0, opacity > 0 else { continue }
                let fill = color.with(alpha: color.alpha * opacity)
                cairo_new_path(cairo)
                cairo_arc(cairo, point.x, point.y, radius, 0, 2 * .pi)
                if blur > 0 {
                    let gradient = cairo_pattern_create_radial(point.x, point.y, radius * (1 - blur), point.x, point.y, radius)!
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
