import CCairo
import Foundation
import GeoData
import MapCore
import MapStyle

extension StylePainter {
    /// Draws a circle layer as GL's circle shader does (see ``CircleShading``): a disc at each
    /// point of each feature, and at each vertex of its lines and polygons, in feature order or
    /// in `circle-sort-key` order, moved by `circle-translate` (on the ground, as GL moves it).
    ///
    /// A disc standing up to the view (`circle-pitch-alignment` viewport, the default) is a
    /// radial gradient over a square, so it stays a gradient in vector output. In a pitched view
    /// `circle-pitch-scale` map (the default) scales it as the ground is scaled at its centre;
    /// viewport keeps its size. A disc lying on the ground (`circle-pitch-alignment` map) in a
    /// pitched view is shaded pixel by pixel through the camera (an ellipse, nearer side larger);
    /// its radius is the view's at its centre zoom, or with pitch-scale viewport, as large on
    /// screen as an upright disc at its centre.
    func drawCircles(_ circle: CircleLayer, features: [PreparedFeature]) {
        let translation = viewTranslation(
            circle.translate.value(atZoom: zoomLevel), anchor: circle.translateAnchor.value(atZoom: zoomLevel))
        let scalesWithMap = circle.pitchScale.value(atZoom: zoomLevel) == .map
        let pitched = viewport.camera.pitchDegrees > 0
        let liesFlat = pitched && circle.pitchAlignment.value(atZoom: zoomLevel) == .map
        for feature in sorted(features, by: circle.sortKey) {
            let values = feature.styleValues
            let radius = circle.radius.value(atZoom: zoomLevel, properties: values)
            let strokeWidth = circle.strokeWidth.value(atZoom: zoomLevel, properties: values)
            let shading = CircleShading(
                radiusPoints: radius, strokeWidthPoints: strokeWidth,
                blur: max(0, circle.blur.value(atZoom: zoomLevel, properties: values)),
                fill: .init(
                    circle.color.value(atZoom: zoomLevel, properties: values),
                    opacity: circle.opacity.value(atZoom: zoomLevel, properties: values)),
                stroke: .init(
                    circle.strokeColor.value(atZoom: zoomLevel, properties: values),
                    opacity: circle.strokeOpacity.value(atZoom: zoomLevel, properties: values)),
                pixelsPerPoint: viewport.scale)
            let outerRadius = max(0, radius) + max(0, strokeWidth)
            guard outerRadius > 0, !shading.isInvisible else { continue }
            let geometry = feature.geometry
            let centers =
                geometry.points + geometry.lines.flatMap { $0 } + geometry.polygons.flatMap { $0.flatMap { $0 } }
            for center in centers {
                guard let projected = viewPoint(for: center) else { continue }
                if !pitched {
                    drawUprightCircle(
                        at: ViewPoint(x: projected.x + translation.dx, y: projected.y + translation.dy),
                        radius: outerRadius, shading: shading)
                    continue
                }
                // GL moves the circle on the ground: the translation is a ground offset.
                guard let ground = viewport.groundPoint(for: projected),
                    let moved = viewport.unwrappedPoint(
                        for: viewport.mapPoint(forGroundOffset: (ground.u + translation.dx, ground.v + translation.dy))),
                    let perspective = viewport.perspectiveScale(atViewY: moved.y)
                else { continue }
                if liesFlat {
                    // Ground points at the view's zoom; pitch-scale viewport grows it with the distance.
                    let groundRadius = scalesWithMap ? outerRadius : outerRadius / perspective
                    drawGroundCircle(
                        at: (ground.u + translation.dx, ground.v + translation.dy), radius: groundRadius,
                        shading: shading)
                } else {
                    drawUprightCircle(
                        at: moved, radius: scalesWithMap ? outerRadius * perspective : outerRadius, shading: shading)
                }
            }
        }
    }

    /// A disc facing the view: `shading` over a radial gradient of `radius` view points around
    /// `center`, filling the square around it (GL's quad: no coverage antialiasing beyond the
    /// shader's own).
    private func drawUprightCircle(at center: ViewPoint, radius: Double, shading: CircleShading) {
        guard let gradient = cairo_pattern_create_radial(center.x, center.y, 0, center.x, center.y, radius) else {
            return
        }
        defer { cairo_pattern_destroy(gradient) }
        let offsets = shading.gradientOffsets()
        let colors = offsets.map(shading.color(at:))
        for (index, offset) in offsets.enumerated() {
            let color = colors[index]
            // Cairo takes straight colours; a clear stop takes its neighbour's hue, so that the
            // fade to it does not pass through black.
            let hue =
                color.alpha > 0 ? color : (index > 0 ? colors[index - 1] : colors[min(index + 1, colors.count - 1)])
            let alpha = max(hue.alpha, 1e-9)
            cairo_pattern_add_color_stop_rgba(
                gradient, offset, min(1, hue.red / alpha), min(1, hue.green / alpha), min(1, hue.blue / alpha),
                color.alpha)
        }
        cairo_set_source(cairo, gradient)
        cairo_new_path(cairo)
        cairo_rectangle(cairo, center.x - radius, center.y - radius, 2 * radius, 2 * radius)
        cairo_fill(cairo)
    }

    /// A disc lying on the ground of a pitched view: `radius` ground points (at the view's
    /// zoom) around the ground offset `center`, shaded at each device pixel's centre from the
    /// ground point it shows, as GL interpolates the circle's quad in perspective.
    private func drawGroundCircle(at center: (u: Double, v: Double), radius: Double, shading: CircleShading) {
        // The view box of the ground square around the disc, clamped to the view.
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for (du, dv) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
            let corner = viewport.mapPoint(forGroundOffset: (center.u + du * radius, center.v + dv * radius))
            guard let point = viewport.unwrappedPoint(for: corner) else {
                // Behind the eye: the disc may reach the top of the view.
                minY = -Double.infinity
                continue
            }
            minX = min(minX, point.x)
            maxX = max(maxX, point.x)
            minY = min(minY, point.y)
            maxY = max(maxY, point.y)
        }
        let scale = viewport.scale
        let top = max(0, viewport.visibleGroundTopViewY)
        let x0 = max(0, Int((minX * scale).rounded(.down)))
        let x1 = min(viewport.pixelWidth, Int((maxX * scale).rounded(.up)))
        let y0 = max(Int((top * scale).rounded(.down)), Int((max(minY, 0) * scale).rounded(.down)))
        let y1 = min(viewport.pixelHeight, Int((maxY * scale).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        let width = x1 - x0
        let height = y1 - y0
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        func byte(_ value: Double) -> UInt32 { UInt32(min(255, max(0, (value * 255).rounded()))) }
        var drawn = false
        for row in 0..<height {
            let pixels = UnsafeMutableRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            let y = (Double(y0 + row) + 0.5) / scale
            for column in 0..<width {
                pixels[column] = 0
                guard let ground = viewport.groundPoint(for: ViewPoint(x: (Double(x0 + column) + 0.5) / scale, y: y))
                else { continue }
                let du = ground.u - center.u
                let dv = ground.v - center.v
                let color = shading.color(at: (du * du + dv * dv).squareRoot() / radius)
                guard color.alpha > 0 else { continue }
                pixels[column] =
                    byte(color.alpha) << 24 | byte(color.red) << 16 | byte(color.green) << 8 | byte(color.blue)
                drawn = true
            }
        }
        guard drawn else { return }
        cairo_surface_mark_dirty(surface)
        cairo_surface_set_device_scale(surface, scale, scale)
        cairo_save(cairo)
        cairo_set_source_surface(cairo, surface, Double(x0) / scale, Double(y0) / scale)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }
}
