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

    /// Whether `pattern`, set as the source, samples the same places for every device pixel
    /// when drawn through a surface whose origin is shifted by whole pixels (a group smaller
    /// than the canvas): true when one device pixel steps the pattern's space by multiples of
    /// 1/65,536 (Pixman's fixed point), so that a shift adds exact steps and rounds nothing anew.
    func samplesExactlyWhenShifted(_ pattern: OpaquePointer) -> Bool {
        var user = cairo_matrix_t()
        cairo_get_matrix(self, &user)
        guard cairo_matrix_invert(&user) == CAIRO_STATUS_SUCCESS else { return false }
        var toPattern = cairo_matrix_t()
        cairo_pattern_get_matrix(pattern, &toPattern)
        var devicePixelToPattern = cairo_matrix_t()
        cairo_matrix_multiply(&devicePixelToPattern, &user, &toPattern)
        return [devicePixelToPattern.xx, devicePixelToPattern.xy, devicePixelToPattern.yx, devicePixelToPattern.yy]
            .allSatisfy { step in
                let fixed = step * 65_536
                return fixed.isFinite && fixed == fixed.rounded()
            }
    }

    /// Clips to the whole device pixels the current path's stroke would touch (with the line
    /// width, joins and caps set), two pixels to spare; clears the path. What a group pushed
    /// next (`cairo_push_group`, as large as the clip) needs to hold that stroke: painting it
    /// back through the same clip lays the same pixels as a group the size of the canvas.
    func clipToStrokePixels() {
        var x1 = 0.0
        var y1 = 0.0
        var x2 = 0.0
        var y2 = 0.0
        cairo_stroke_extents(self, &x1, &y1, &x2, &y2)
        var left = Double.infinity
        var top = Double.infinity
        var right = -Double.infinity
        var bottom = -Double.infinity
        for (x, y) in [(x1, y1), (x2, y1), (x1, y2), (x2, y2)] {
            var deviceX = x
            var deviceY = y
            cairo_user_to_device(self, &deviceX, &deviceY)
            left = min(left, deviceX)
            top = min(top, deviceY)
            right = max(right, deviceX)
            bottom = max(bottom, deviceY)
        }
        cairo_new_path(self)
        guard left.isFinite, top.isFinite, right.isFinite, bottom.isFinite else { return }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(self, &matrix)
        cairo_identity_matrix(self)
        let minX = left.rounded(.down) - 2
        let minY = top.rounded(.down) - 2
        cairo_rectangle(self, minX, minY, right.rounded(.up) + 2 - minX, bottom.rounded(.up) + 2 - minY)
        cairo_set_matrix(self, &matrix)
        cairo_clip(self)
    }
}
