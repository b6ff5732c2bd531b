import CCairo
import Foundation
import MapCore
import MapRenderer
import MapStyle

/// The classic map pin: a round head on a needle, with its shadow falling to the upper right.
///
/// All measures are in points relative to the needle's tip, which sits exactly on the
/// annotation's coordinate.
enum PinMarker {
    static let needleLength: Double = 19
    static let headRadius: Double = 7.5
    static let headCenter = ViewPoint(x: 0, y: -(needleLength + headRadius))
    /// The box the pin and its shadow cover, relative to the tip.
    static let bounds = ViewRect(x: -8.5, y: -35, width: 30, height: 36)
    /// The box of the pin alone (no shadow), for keeping labels off it.
    static let bodyBounds = ViewRect(x: -8.5, y: -35, width: 17, height: 36)

    /// Draws a pin's shadow, cast onto the ground up and to the right of its tip.
    static func drawShadow(at tip: ViewPoint, in cairo: OpaquePointer, color: Color) {
        cairo_save(cairo)
        cairo_new_path(cairo)
        cairo_translate(cairo, tip.x, tip.y)
        cairo.setSource(color)
        cairo_set_line_width(cairo, 1.6)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_move_to(cairo, 0, 0)
        cairo_line_to(cairo, 12, -10)
        cairo_stroke(cairo)
        cairo_save(cairo)
        cairo_translate(cairo, 15.5, -13.5)
        cairo_rotate(cairo, -0.7)
        cairo_scale(cairo, 1, 0.55)
        cairo_arc(cairo, 0, 0, headRadius, 0, 2 * .pi)
        cairo_restore(cairo)
        cairo_fill(cairo)
        cairo_restore(cairo)
    }

    /// Draws the pin itself in `color`.
    ///
    /// - Parameter scale: The scale the pin is drawn at (under a pitched camera near pins are
    ///   larger): the needle's round end stops a quarter point past the tip in the view at any
    ///   scale, so a scaled-up pin still ends on its coordinate. The default is 1.
    static func drawPin(at tip: ViewPoint, color: Color, scale: Double = 1, in cairo: OpaquePointer) {
        cairo_save(cairo)
        cairo_new_path(cairo)
        cairo_translate(cairo, tip.x, tip.y)
        // The needle: a thin steel line, darker at the tip.
        let needle = cairo_pattern_create_linear(0, 0, 0, -needleLength)
        cairo_pattern_add_color_stop_rgba(needle, 0, 0.35, 0.35, 0.38, 1)
        cairo_pattern_add_color_stop_rgba(needle, 1, 0.62, 0.62, 0.66, 1)
        cairo_set_source(cairo, needle)
        cairo_set_line_width(cairo, 1.5)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        // The cap (radius 0.75) reaches 0.25 point past the start at scale 1, 0.25 / scale here.
        cairo_move_to(cairo, 0, 0.25 / scale - 0.75)
        cairo_line_to(cairo, 0, -needleLength - 1)
        cairo_stroke(cairo)
        cairo_pattern_destroy(needle)
        // The head: a glossy ball lit from the upper left.
        let center = headCenter
        let light = color.mixed(with: Color(red: 1, green: 1, blue: 1, alpha: 1), amount: 0.45)
        let dark = color.mixed(with: Color(red: 0, green: 0, blue: 0, alpha: 1), amount: 0.35)
        let ball = cairo_pattern_create_radial(center.x - 2.5, center.y - 2.5, 0.5, center.x, center.y, headRadius)
        cairo_pattern_add_color_stop_rgba(ball, 0, light.red, light.green, light.blue, 1)
        cairo_pattern_add_color_stop_rgba(ball, 0.55, color.red, color.green, color.blue, 1)
        cairo_pattern_add_color_stop_rgba(ball, 1, dark.red, dark.green, dark.blue, 1)
        cairo_arc(cairo, center.x, center.y, headRadius, 0, 2 * .pi)
        cairo_set_source(cairo, ball)
        cairo_fill_preserve(cairo)
        cairo_pattern_destroy(ball)
        cairo.setSource(dark)
        cairo_set_line_width(cairo, 0.75)
        cairo_stroke(cairo)
        // A specular highlight.
        cairo_arc(cairo, center.x - 2.4, center.y - 2.6, 1.9, 0, 2 * .pi)
        cairo_set_source_rgba(cairo, 1, 1, 1, 0.7)
        cairo_fill(cairo)
        cairo_restore(cairo)
    }
}

extension Color {
    /// This colour moved toward `other` by `amount` (0 keeps it, 1 gives `other`); alpha is kept.
    func mixed(with other: Color, amount: Double) -> Color {
        Color(
            red: red + (other.red - red) * amount,
            green: green + (other.green - green) * amount,
            blue: blue + (other.blue - blue) * amount,
            alpha: alpha
        )
    }
}
