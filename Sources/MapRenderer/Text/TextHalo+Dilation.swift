import CCairo
import CRaster
import Foundation
import MapCore
import MapStyle

extension TextHalo {
    /// What a halo is painted round.
    enum Outlines {
        /// The path current on the canvas: text outlines, in user space.
        case currentPath
        /// A Pango layout drawn with its origin at a point (user space), as
        /// `pango_cairo_show_layout` draws it: from the glyph cache, at the whole-pixel places
        /// Cairo puts cached glyphs, so the halo lies round the glyphs exactly where the text
        /// drawn the same way lands, and no outline is rasterised again.
        case layout(OpaquePointer, origin: ViewPoint)
    }

    /// Paints the halo round `outlines` on `cairo` and clears the path: what a stroke with round
    /// joins `widthPoints` × 2 wide paints, the outlines grown by `widthPoints` on every side,
    /// made by drawing the outlines into a small coverage mask and taking, at each pixel, the
    /// most coverage within the halo's radius (the outlines dilated by a disc, its rim
    /// antialiased). Stroking glyph outlines was a fifth of an export's time; the mask costs a
    /// few taps a pixel. Falls back to the stroke on PDF and SVG pages (which keep it as a
    /// vector), where the canvas is turned or skewed (a rotated label) or where the mask would
    /// be large.
    ///
    /// With `textColor`, the outlines themselves are then painted in that colour through the
    /// same coverage (what filling them would paint, without rasterising them again), and the
    /// answer is true; false when the halo was stroked instead, the outlines left for the caller
    /// to draw (the path is cleared either way: the caller makes it again).
    @discardableResult
    func paint(around outlines: Outlines = .currentPath, on cairo: OpaquePointer, thenTextIn textColor: Color? = nil)
        -> Bool
    {
        guard let target = cairo_get_target(cairo), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE else {
            stroke(around: outlines, on: cairo)
            return false
        }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        let scale = matrix.xx
        var x1 = 0.0
        var y1 = 0.0
        var x2 = 0.0
        var y2 = 0.0
        switch outlines {
        case .currentPath:
            cairo_path_extents(cairo, &x1, &y1, &x2, &y2)
        case .layout(let layout, let origin):
            var ink = PangoRectangle()
            pango_layout_get_extents(layout, &ink, nil)
            let units = Double(PANGO_SCALE)
            x1 = origin.x + Double(ink.x) / units
            y1 = origin.y + Double(ink.y) / units
            x2 = x1 + Double(ink.width) / units
            y2 = y1 + Double(ink.height) / units
        }
        let radius = widthPoints * scale
        let left = Int((x1 * scale + matrix.x0 - radius - 1).rounded(.down))
        let top = Int((y1 * scale + matrix.y0 - radius - 1).rounded(.down))
        let right = Int((x2 * scale + matrix.x0 + radius + 1).rounded(.up))
        let bottom = Int((y2 * scale + matrix.y0 + radius + 1).rounded(.up))
        let width = right - left
        let height = bottom - top
        guard matrix.xy == 0, matrix.yx == 0, scale > 0, matrix.yy == scale, x2 > x1, y2 > y1,
            width > 0, height > 0, width * height <= 1 << 22, radius <= 32
        else {
            stroke(around: outlines, on: cairo)
            return false
        }
        var path: UnsafeMutablePointer<cairo_path_t>?
        if case .currentPath = outlines {
            path = cairo_copy_path(cairo)
            guard path != nil else {
                stroke(around: outlines, on: cairo)
                return false
            }
        }
        defer { if let path { cairo_path_destroy(path) } }
        cairo_new_path(cairo)
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(width)))
        // The disc's taps: offsets within the radius and half a pixel, weighted (out of 256) by
        // how much of the pixel the rim covers.
        let reach = Int(radius.rounded(.up)) + 1
        // The outlines' coverage, at the same place within each pixel as on the canvas, with
        // `reach` pixels more on every side so that every tap lands inside.
        let paddedWidth = width + 2 * reach
        let paddedHeight = height + 2 * reach
        let paddedStride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(paddedWidth)))
        guard let outlineSurface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(paddedWidth), Int32(paddedHeight)),
            cairo_surface_status(outlineSurface) == CAIRO_STATUS_SUCCESS, let maskContext = cairo_create(outlineSurface)
        else { return false }
        defer { cairo_surface_destroy(outlineSurface) }
        var shifted = matrix
        shifted.x0 -= Double(left - reach)
        shifted.y0 -= Double(top - reach)
        cairo_set_matrix(maskContext, &shifted)
        switch outlines {
        case .currentPath:
            if let path { cairo_append_path(maskContext, path) }
            cairo_fill(maskContext)
        case .layout(let layout, let origin):
            cairo_move_to(maskContext, origin.x, origin.y)
            pango_cairo_show_layout(maskContext, layout)
        }
        cairo_destroy(maskContext)
        cairo_surface_flush(outlineSurface)
        guard let coverage = cairo_image_surface_get_data(outlineSurface) else { return false }
        var offsets: [Int] = []
        var weights: [UInt16] = []
        for dy in -reach...reach {
            for dx in -reach...reach {
                let weight = min(1, max(0, radius + 0.5 - (Double(dx * dx + dy * dy)).squareRoot()))
                if weight > 0 {
                    offsets.append(dy * paddedStride + dx)
                    weights.append(UInt16((weight * 256).rounded()))
                }
            }
        }
        var halo = [UInt8](repeating: 0, count: stride * height)
        var scratch = [UInt16](repeating: 0, count: width * height)
        // The most coverage × weight over the taps at each pixel, rounded (out of 256).
        mw_dilate_max(
            coverage + reach * paddedStride + reach, paddedStride, offsets, weights, offsets.count,
            &halo, stride, width, height, &scratch)
        halo.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                let mask = cairo_image_surface_create_for_data(
                    base, CAIRO_FORMAT_A8, Int32(width), Int32(height), Int32(stride))
            else { return }
            defer { cairo_surface_destroy(mask) }
            cairo_save(cairo)
            cairo_identity_matrix(cairo)
            cairo.setSource(color)
            cairo_mask_surface(cairo, mask, Double(left), Double(top))
            cairo_restore(cairo)
        }
        guard let textColor else { return false }
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        cairo.setSource(textColor)
        cairo_mask_surface(cairo, outlineSurface, Double(left - reach), Double(top - reach))
        cairo_restore(cairo)
        return true
    }

    /// The halo as a stroke with round joins of the outlines (made the current path first for a
    /// layout); clears the path.
    private func stroke(around outlines: Outlines, on cairo: OpaquePointer) {
        if case .layout(let layout, let origin) = outlines {
            cairo_new_path(cairo)
            cairo_move_to(cairo, origin.x, origin.y)
            pango_cairo_layout_path(cairo, layout)
        }
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(cairo, widthPoints * 2)
        cairo.setSource(color)
        cairo_stroke(cairo)
    }
}
