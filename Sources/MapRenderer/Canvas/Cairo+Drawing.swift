import CCairo
package import MapCore
package import MapStyle

/// Small drawing helpers over a Cairo context (`cairo_t *`).
extension OpaquePointer {
    /// Sets a straight-alpha colour as the source.
    package func setSource(_ color: Color) {
        cairo_set_source_rgba(self, color.red, color.green, color.blue, color.alpha)
    }

    /// Adds a polyline through `points` to the current path.
    func addPolyline(_ points: some Sequence<ViewPoint>) {
        var first = true
        for point in points {
            if first {
                cairo_move_to(self, point.x, point.y)
                first = false
            } else {
                cairo_line_to(self, point.x, point.y)
            }
        }
    }

    /// Adds a closed ring through `points` to the current path.
    func addRing(_ points: some Sequence<ViewPoint>) {
        addPolyline(points)
        cairo_close_path(self)
    }

    /// Adds a rectangle with rounded corners to the current path.
    package func addRoundedRect(_ rect: ViewRect, radius: Double) {
        let r = min(radius, rect.size.width / 2, rect.size.height / 2)
        cairo_new_sub_path(self)
        cairo_arc(self, rect.maxX - r, rect.minY + r, r, -.pi / 2, 0)
        cairo_arc(self, rect.maxX - r, rect.maxY - r, r, 0, .pi / 2)
        cairo_arc(self, rect.minX + r, rect.maxY - r, r, .pi / 2, .pi)
        cairo_arc(self, rect.minX + r, rect.minY + r, r, .pi, 1.5 * .pi)
        cairo_close_path(self)
    }

    /// Sets the dash pattern in multiples of the line width, as the style spec's line-dasharray.
    func setDash(_ pattern: [Double], lineWidth: Double) {
        let lengths = pattern.map { max(0, $0) * lineWidth }
        guard !lengths.isEmpty, lengths.contains(where: { $0 > 0 }) else {
            cairo_set_dash(self, nil, 0, 0)
            return
        }
        lengths.withUnsafeBufferPointer { cairo_set_dash(self, $0.baseAddress, Int32($0.count), 0) }
    }
}
