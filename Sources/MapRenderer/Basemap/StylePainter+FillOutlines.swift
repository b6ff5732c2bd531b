import CCairo
import Foundation
import GeoData
import MapCore
import MapStyle

extension StylePainter {
    /// Draws a translucent polygon's edges as GL's `fill-antialias` draws them: its rings as
    /// one-pixel GL lines (one fragment per pixel along the line's major axis, in the pixel
    /// its centre line crosses), each fragment `color` at `1 − smoothstep(0, 1, d)` with `d`
    /// the pixel centre's distance from the line, blended over what is drawn (the fill below
    /// included: GL's translucent fills do not hide their own outline).
    ///
    /// Only translucent fills take this path: the work is one step per pixel of perimeter,
    /// and opaque fills keep Cairo's antialiased edges, which match GL's where the outline
    /// lies outside the shape.
    ///
    /// Draws in the current user space (view points), which the caller may have translated.
    func drawGLOutline(of polygons: [[[MapPoint]]], color: Color) {
        guard color.alpha > 0 else { return }
        let scale = viewport.scale
        let width = viewport.pixelWidth, height = viewport.pixelHeight
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
        func fragment(column: Int, row: Int, distance: Double) {
            guard column >= 0, row >= 0, column < width, row < height else { return }
            let alpha = 1 - CircleShading.smoothstep(0, 1, distance)
            guard alpha > 0 else { return }
            cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha * alpha)
            cairo_rectangle(cairo, Double(column) / scale, Double(row) / scale, 1 / scale, 1 / scale)
            cairo_fill(cairo)
        }
        for polygon in polygons {
            for ring in polygon where ring.count >= 2 {
                let points = ring.compactMap(viewPoint(for:)).map { ($0.x * scale, $0.y * scale) }
                guard points.count >= 2 else { continue }
                for index in 0..<(points.count - 1) {
                    let a = points[index], b = points[index + 1]
                    let dx = b.0 - a.0, dy = b.1 - a.1
                    let length = (dx * dx + dy * dy).squareRoot()
                    guard length > 0 else { continue }
                    func distance(_ x: Double, _ y: Double) -> Double { abs((x - a.0) * dy - (y - a.1) * dx) / length }
                    if abs(dx) >= abs(dy) {
                        // x-major: the columns whose centres the segment spans, half-open.
                        let from = min(a.0, b.0), to = max(a.0, b.0)
                        let first = Int((from - 0.5).rounded(.up)), last = Int((to - 0.5).rounded(.up)) - 1
                        guard first <= last else { continue }
                        for column in first...last {
                            let x = Double(column) + 0.5
                            let y = a.1 + (x - a.0) / dx * dy
                            let row = Int(y.rounded(.down))
                            fragment(column: column, row: row, distance: distance(x, Double(row) + 0.5))
                        }
                    } else {
                        let from = min(a.1, b.1), to = max(a.1, b.1)
                        let first = Int((from - 0.5).rounded(.up)), last = Int((to - 0.5).rounded(.up)) - 1
                        guard first <= last else { continue }
                        for row in first...last {
                            let y = Double(row) + 0.5
                            let x = a.0 + (y - a.1) / dy * dx
                            let column = Int(x.rounded(.down))
                            fragment(column: column, row: row, distance: distance(Double(column) + 0.5, y))
                        }
                    }
                }
            }
        }
    }
}
