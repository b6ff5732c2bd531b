import CCairo
import Foundation
import MapCore
import MapStyle

/// Pins and their shadow drawn once per colour into small bitmaps at the render's scale, then
/// copied into the image at whole-pixel positions: a thousand pins cost a thousand copies instead
/// of a thousand sets of gradient fills.
///
/// A pin's tip lands on the device pixel corner nearest its coordinate, within half a pixel;
/// MapKit likewise puts annotation views on whole pixels so they stay crisp. Vector outputs (PDF,
/// SVG) draw pins as paths instead. One instance serves one render: it is not Sendable.
final class PinSprites {
    private let scale: Double
    /// The tip's position in a sprite, in device pixels from its top-left corner.
    private let tipPixel: (x: Double, y: Double)
    private let pixelSize: (width: Int32, height: Int32)
    private var pins: [Color: OpaquePointer] = [:]
    private var shadows: [Color: OpaquePointer] = [:]

    init(scale: Double) {
        self.scale = scale
        let bounds = PinMarker.bounds
        tipPixel = ((-bounds.minX * scale).rounded(.up) + 1, (-bounds.minY * scale).rounded(.up) + 1)
        pixelSize = (
            Int32((bounds.size.width * scale).rounded(.up)) + 3,
            Int32((bounds.size.height * scale).rounded(.up)) + 3
        )
    }

    deinit {
        for surface in pins.values { cairo_surface_destroy(surface) }
        for surface in shadows.values { cairo_surface_destroy(surface) }
    }

    /// Paints a pin of `color` with its tip at `tip` (view points).
    func paintPin(color: Color, at tip: ViewPoint, cairo: OpaquePointer) {
        let sprite = pins[color] ?? makeSprite { PinMarker.drawPin(at: ViewPoint(x: 0, y: 0), color: color, in: $0) }
        pins[color] = sprite
        paint(sprite, at: tip, cairo: cairo)
    }

    /// Paints a pin's shadow in `color` with the pin's tip at `tip` (view points).
    func paintShadow(color: Color, at tip: ViewPoint, cairo: OpaquePointer) {
        let sprite =
            shadows[color] ?? makeSprite { PinMarker.drawShadow(at: ViewPoint(x: 0, y: 0), in: $0, color: color) }
        shadows[color] = sprite
        paint(sprite, at: tip, cairo: cairo)
    }

    private func paint(_ sprite: OpaquePointer, at tip: ViewPoint, cairo: OpaquePointer) {
        let x = ((tip.x * scale).rounded() - tipPixel.x) / scale
        let y = ((tip.y * scale).rounded() - tipPixel.y) / scale
        cairo_set_source_surface(cairo, sprite, x, y)
        cairo_rectangle(cairo, x, y, Double(pixelSize.width) / scale, Double(pixelSize.height) / scale)
        cairo_fill(cairo)
    }

    /// A transparent sprite with `draw` run in points, the tip at the origin.
    private func makeSprite(_ draw: (OpaquePointer) -> Void) -> OpaquePointer {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixelSize.width, pixelSize.height)!
        cairo_surface_set_device_scale(surface, scale, scale)
        let context = cairo_create(surface)!
        cairo_translate(context, tipPixel.x / scale, tipPixel.y / scale)
        draw(context)
        cairo_destroy(context)
        cairo_surface_flush(surface)
        return surface
    }
}
