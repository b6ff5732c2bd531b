import CCairo
import Foundation
import MapCore
import MapStyle

/// Where each glyph of a one-line label set along a line sits: its centre from the label's
/// anchor, in view points, and its direction, in radians clockwise, in the order
/// ``TextLayout/glyphCentersPoints`` gives the glyphs.
struct TextCurve: Hashable, Sendable {
    struct Glyph: Hashable, Sendable {
        let offset: ViewPoint
        let angle: Double
    }
    let glyphs: [Glyph]

    /// The direction from the first glyph to the last, in (−π/2, π/2] (the label reads left to
    /// right); the glyph's own for one glyph.
    var readingAngle: Double {
        guard let first = glyphs.first, let last = glyphs.last else { return 0 }
        guard glyphs.count > 1 else { return first.angle }
        return atan2(last.offset.y - first.offset.y, last.offset.x - first.offset.x)
    }

    /// The label of the glyphs whose centres lie `centers` points from its middle, set along
    /// `line` round the point `distance` points along it, each glyph at its own distance and
    /// turned to its segment (as GL's `placeGlyphAlongLine` sets glyphs), the line walked from
    /// its other end when the label would otherwise read right to left. The anchor on the line
    /// and the curve; nil when a glyph would run off the line.
    static func along(_ line: Polyline, at distance: Double, halfLengthPoints: Double, centers: [Double]) -> (
        anchor: ViewPoint, curve: TextCurve
    )? {
        guard distance - halfLengthPoints >= 0, distance + halfLengthPoints <= line.length else { return nil }
        let start = line.point(at: distance - halfLengthPoints).point
        let end = line.point(at: distance + halfLengthPoints).point
        let reversed = end.x < start.x || (end.x == start.x && end.y < start.y)
        let path = reversed ? Polyline(line.points.reversed()) : line
        let middle = reversed ? line.length - distance : distance
        let anchor = path.point(at: middle).point
        var glyphs: [Glyph] = []
        for center in centers {
            let at = middle + center
            guard at >= 0, at <= path.length else { return nil }
            let (point, segment) = path.point(at: at)
            let a = path.points[segment]
            let b = path.points[segment + 1]
            glyphs.append(
                Glyph(
                    offset: ViewPoint(x: point.x - anchor.x, y: point.y - anchor.y), angle: atan2(b.y - a.y, b.x - a.x))
            )
        }
        return (anchor, TextCurve(glyphs: glyphs))
    }

    /// The boxes the glyphs take round `anchor`: a square as tall as the text round each (GL's
    /// collision circles along lines).
    func collisionBoxes(at anchor: ViewPoint, heightPoints: Double) -> [ViewRect] {
        let radius = heightPoints / 2
        return glyphs.map {
            ViewRect(
                x: anchor.x + $0.offset.x - radius, y: anchor.y + $0.offset.y - radius, width: 2 * radius,
                height: 2 * radius)
        }
    }
}

extension TextLayout {
    /// The glyphs of the first line, left to right as drawn: each glyph's centre from the line's
    /// middle, in points. What a ``TextCurve`` places.
    var glyphCentersPoints: [Double] {
        let width = size.width
        return glyphs().map { $0.x + $0.width / 2 - width / 2 }
    }

    /// Draws the first line glyph by glyph at the places `curve` gives round `anchor`, each
    /// glyph centred on its place across and along, turned to its direction: halos first, then
    /// the glyphs.
    func draw(along curve: TextCurve, at anchor: ViewPoint, color: Color, halo: TextHalo?) {
        kept.update(to: cairo)
        let glyphs = glyphs()
        guard glyphs.count == curve.glyphs.count else { return }
        let middleY = logicalMiddleY
        func eachGlyph(_ body: (PlacedGlyph) -> Void) {
            for (glyph, place) in zip(glyphs, curve.glyphs) {
                cairo_save(cairo)
                cairo_translate(cairo, anchor.x + place.offset.x, anchor.y + place.offset.y)
                cairo_rotate(cairo, place.angle)
                cairo_move_to(cairo, -glyph.width / 2, glyph.baseline - middleY)
                body(glyph)
                cairo_restore(cairo)
            }
        }
        cairo_save(cairo)
        cairo_new_path(cairo)
        if let halo, halo.widthPoints > 0, halo.color.alpha > 0 {
            eachGlyph { glyph in glyph.withString { pango_cairo_glyph_string_path(cairo, glyph.font, $0) } }
            // The halo's coverage of the outlines paints the glyphs too, where it was made.
            if halo.paint(on: cairo, thenTextIn: color) {
                cairo_restore(cairo)
                return
            }
        }
        // The glyphs as one filled path: drawn the same whichever rows of a canvas take them.
        cairo_new_path(cairo)
        eachGlyph { glyph in glyph.withString { pango_cairo_glyph_string_path(cairo, glyph.font, $0) } }
        cairo.setSource(color)
        cairo_fill(cairo)
        cairo_restore(cairo)
    }

    /// One glyph of the layout: its font, its Pango glyph, where its origin is in the layout
    /// (points) and its advance.
    struct PlacedGlyph {
        let font: UnsafeMutablePointer<PangoFont>
        let info: PangoGlyphInfo
        let x: Double, baseline: Double, width: Double

        /// Calls `body` with a one-glyph string of this glyph (its offsets kept).
        func withString(_ body: (UnsafeMutablePointer<PangoGlyphString>) -> Void) {
            guard let string = pango_glyph_string_new() else { return }
            pango_glyph_string_set_size(string, 1)
            string.pointee.glyphs[0] = info
            string.pointee.log_clusters[0] = 0
            body(string)
            pango_glyph_string_free(string)
        }
    }

    /// The first line's glyphs, left to right.
    func glyphs() -> [PlacedGlyph] {
        var result: [PlacedGlyph] = []
        guard let iterator = pango_layout_get_iter(layout) else { return [] }
        defer { pango_layout_iter_free(iterator) }
        let scale = Double(PANGO_SCALE)
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iterator),
                let font = run.pointee.item.pointee.analysis.font,
                let string = run.pointee.glyphs
            else { continue }
            var logical = PangoRectangle()
            pango_layout_iter_get_run_extents(iterator, nil, &logical)
            let baseline = Double(pango_layout_iter_get_baseline(iterator)) / scale
            var x = Double(logical.x) / scale
            for index in 0..<Int(string.pointee.num_glyphs) {
                let info = string.pointee.glyphs[index]
                let width = Double(info.geometry.width) / scale
                result.append(PlacedGlyph(font: font, info: info, x: x, baseline: baseline, width: width))
                x += width
            }
        } while pango_layout_iter_next_run(iterator) != 0
            && pango_layout_iter_get_line_readonly(iterator) == pango_layout_get_line_readonly(layout, 0)
        return result
    }
}
