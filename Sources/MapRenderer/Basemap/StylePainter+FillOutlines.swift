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
    /// Only translucent fills take this path: the work is one step per pixel of perimeter and
    /// a fill per alpha level, and opaque fills keep Cairo's antialiased edges, which match
    /// GL's where the outline lies outside the shape. A pixel two edges of one polygon cross
    /// (a vertex) is blended once where GL may blend it twice.
    ///
    /// `translation` (view points, the layer's `fill-translate`) moves the lines before they
    /// are cut into pixels, as GL's matrix does.
    func drawGLOutline(of polygons: [[[MapPoint]]], color: Color, translation: (dx: Double, dy: Double)) {
        guard color.alpha > 0 else { return }
        let scale = viewport.scale
        let width = viewport.pixelWidth, height = viewport.pixelHeight
        // Fragments are gathered by their alpha (in 1/255 steps; at most 128 levels, as
        // 1 − smoothstep ≥ 1/2 within half a pixel) and each level filled as one path of
        // pixels: a few fills per polygon, whatever its perimeter.
        var levels: [Int: [(column: Int, row: Int)]] = [:]
        func fragment(column: Int, row: Int, distance: Double) {
            guard column >= 0, row >= 0, column < width, row < height else { return }
            let level = Int(((1 - CircleShading.smoothstep(0, 1, distance)) * 255).rounded())
            guard level > 0 else { return }
            levels[level, default: []].append((column, row))
        }
        defer {
            cairo_save(cairo)
            cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
            cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING)
            for (level, pixels) in levels {
                cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha * Double(level) / 255)
                cairo_new_path(cairo)
                for pixel in pixels {
                    cairo_rectangle(cairo, Double(pixel.column) / scale, Double(pixel.row) / scale, 1 / scale, 1 / scale)
                }
                cairo_fill(cairo)
            }
            cairo_restore(cairo)
        }
        for polygon in polygons {
            for ring in polygon where ring.count >= 2 {
                let points = ring.compactMap(viewPoint(for:)).map { (($0.x + translation.dx) * scale, ($0.y + translation.dy) * scale) }
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
