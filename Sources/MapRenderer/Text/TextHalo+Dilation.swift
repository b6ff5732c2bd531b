import CCairo
import CRaster
import Foundation

extension TextHalo {
    /// Paints the halo round the path current on `cairo` (text outlines, in user space) and
    /// clears the path: what a stroke with round joins `widthPoints` × 2 wide paints, the
    /// outlines grown by `widthPoints` on every side, made by filling the outlines into a small
    /// coverage mask and taking, at each pixel, the most coverage within the halo's radius (the
    /// outlines dilated by a disc, its rim antialiased). Stroking glyph outlines was a fifth of an
    /// export's time; the mask costs a few taps a pixel. Falls back to the stroke on PDF and SVG
    /// pages (which keep it as a vector), where the canvas is turned or skewed (a rotated label)
    /// or where the mask would be large.
    func paint(aroundPathOn cairo: OpaquePointer) {
        guard let target = cairo_get_target(cairo), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE else {
            return stroke(aroundPathOn: cairo)
        }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        let scale = matrix.xx
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_path_extents(cairo, &x1, &y1, &x2, &y2)
        let radius = widthPoints * scale
        let left = Int((x1 * scale + matrix.x0 - radius - 1).rounded(.down))
        let top = Int((y1 * scale + matrix.y0 - radius - 1).rounded(.down))
        let right = Int((x2 * scale + matrix.x0 + radius + 1).rounded(.up))
        let bottom = Int((y2 * scale + matrix.y0 + radius + 1).rounded(.up))
        let width = right - left, height = bottom - top
        guard matrix.xy == 0, matrix.yx == 0, scale > 0, matrix.yy == scale, x2 > x1, y2 > y1,
              width > 0, height > 0, width * height <= 1 << 22, radius <= 32,
              let path = cairo_copy_path(cairo)
        else { return stroke(aroundPathOn: cairo) }
        defer { cairo_path_destroy(path) }
        cairo_new_path(cairo)
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(width)))
        // The disc's taps: offsets within the radius and half a pixel, weighted (out of 256) by
        // how much of the pixel the rim covers.
        let reach = Int(radius.rounded(.up)) + 1
        // The outlines' coverage, at the same place within each pixel as on the canvas, with
        // `reach` pixels more on every side so that every tap lands inside.
        let paddedWidth = width + 2 * reach, paddedHeight = height + 2 * reach
        let paddedStride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(paddedWidth)))
        guard let outlines = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(paddedWidth), Int32(paddedHeight)),
              cairo_surface_status(outlines) == CAIRO_STATUS_SUCCESS, let maskContext = cairo_create(outlines)
        else { return }
        defer { cairo_surface_destroy(outlines) }
        var shifted = matrix
        shifted.x0 -= Double(left - reach)
        shifted.y0 -= Double(top - reach)
        cairo_set_matrix(maskContext, &shifted)
        cairo_append_path(maskContext, path)
        cairo_fill(maskContext)
        cairo_destroy(maskContext)
        cairo_surface_flush(outlines)
        guard let coverage = cairo_image_surface_get_data(outlines) else { return }
        var offsets: [Int] = [], weights: [UInt16] = []
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
                  let mask = cairo_image_surface_create_for_data(base, CAIRO_FORMAT_A8, Int32(width), Int32(height), Int32(stride))
            else { return }
            defer { cairo_surface_destroy(mask) }
            cairo_save(cairo)
            cairo_identity_matrix(cairo)
            cairo.setSource(color)
            cairo_mask_surface(cairo, mask, Double(left), Double(top))
            cairo_restore(cairo)
        }
    }

    /// The halo as a stroke of the current path with round joins; clears the path.
    private func stroke(aroundPathOn cairo: OpaquePointer) {
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(cairo, widthPoints * 2)
        cairo.setSource(color)
        cairo_stroke(cairo)
    }
}
