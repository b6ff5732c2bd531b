import Foundation
import MapCore
import Testing

@testable import MapRenderer

/// Labels of the installed fonts set along lines glyph by glyph (``TextCurve``).
struct TextCurveTests {
    /// A quarter circle of radius 100 round (0, 0), from (100, 0) down to (0, 100), in 90 steps.
    private let arc = Polyline(
        (0...90).map { step in
            let angle = Double(step) * .pi / 180
            return ViewPoint(x: 100 * cos(angle), y: 100 * sin(angle))
        })

    @Test func glyphsFollowTheCurveAndReadLeftToRight() throws {
        let centers = stride(from: -30.0, through: 30, by: 10).map { $0 }
        let (anchor, curve) = try #require(
            TextCurve.along(arc, at: arc.length / 2, halfLengthPoints: 35, centers: centers))
        // The anchor is on the arc's middle, each glyph on the arc, turned to its tangent.
        #expect(abs(hypot(anchor.x, anchor.y) - 100) < 0.1)
        for glyph in curve.glyphs {
            let point = ViewPoint(x: anchor.x + glyph.offset.x, y: anchor.y + glyph.offset.y)
            #expect(abs(hypot(point.x, point.y) - 100) < 0.1)
            let tangent = atan2(-point.x, point.y)  // the direction along the arc, walked from (0, 100) to (100, 0)
            #expect(abs(remainder(glyph.angle - tangent, 2 * .pi)) < 0.03, "\(glyph.angle) against \(tangent)")
        }
        // The arc runs right to left from its start: walked from its end, so the label reads
        // left to right, its glyphs turning through 34 degrees.
        #expect(curve.glyphs.first!.offset.x < curve.glyphs.last!.offset.x)
        #expect(abs(curve.glyphs.first!.angle - curve.glyphs.last!.angle) > 30 * .pi / 180)
        #expect(curve.readingAngle > -.pi / 2 && curve.readingAngle <= .pi / 2)
        // A label longer than the line is not placed.
        #expect(TextCurve.along(arc, at: arc.length / 2, halfLengthPoints: arc.length, centers: centers) == nil)
        // Collision squares round every glyph, as tall as the text.
        let boxes = curve.collisionBoxes(at: anchor, heightPoints: 12)
        #expect(boxes.count == centers.count && boxes.allSatisfy { $0.size.width == 12 && $0.size.height == 12 })
    }
}
