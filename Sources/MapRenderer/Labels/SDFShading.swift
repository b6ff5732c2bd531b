import CCairo
import MapData
import MapStyle

/// GL's `symbol_sdf` fragment shader: the coverage of a signed distance field's fill and halo,
/// for SDF icons and glyphs alike.
///
/// A distance of 0.75 (192 of 255) is the outline. The fill's edge is smoothed over
/// `0.105 / devicePixelRatio / fontScale` either side; the halo reaches `6 − width / fontScale`
/// eighths in, blurred by `blur × 1.19 / 8`, and stops where the fill starts. Colours come out
/// premultiplied, the fill over the halo when both are drawn in one pass (``color(distance:)``),
/// or each alone (``fillColor(distance:)``, ``haloColor(distance:)``) when GL draws every halo
/// of a layer before its fills.
struct SDFShading {
    let fill: (Float, Float, Float, Float)
    let halo: (Float, Float, Float, Float)?
    let fillGamma: Double
    let haloGamma: Double
    let haloEdge: Double

    /// - Parameters:
    ///   - fontScale: The SDF's scale: `icon-size` for icons, `text-size / 24` for text.
    ///   - haloWidthPoints: The halo's width; 0 draws none.
    init(
        color: Color, haloColor: Color, haloWidthPoints: Double, haloBlurPoints: Double, fontScale: Double,
        devicePixelRatio: Double,
        opacity: Double
    ) {
        func premultiplied(_ color: Color) -> (Float, Float, Float, Float) {
            let alpha = color.alpha * opacity
            return (Float(color.red * alpha), Float(color.green * alpha), Float(color.blue * alpha), Float(alpha))
        }
        let scale = max(fontScale, 1e-6)
        let edgeGamma = 0.105 / devicePixelRatio
        fill = premultiplied(color)
        fillGamma = edgeGamma / scale
        halo = haloWidthPoints > 0 && haloColor.alpha > 0 ? premultiplied(haloColor) : nil
        haloGamma = (haloBlurPoints * 1.19 / 8 + edgeGamma) / scale
        haloEdge = (6 - haloWidthPoints / scale) / 8
    }

    private static let innerEdge = 0.75

    private static func smoothstep(_ low: Double, _ high: Double, _ x: Double) -> Double {
        let t = max(0, min(1, (x - low) / (high - low)))
        return t * t * (3 - 2 * t)
    }

    /// The fill alone at a distance, premultiplied.
    func fillColor(distance: Float) -> (Float, Float, Float, Float) {
        let alpha = Float(Self.smoothstep(Self.innerEdge - fillGamma, Self.innerEdge + fillGamma, Double(distance)))
        return (fill.0 * alpha, fill.1 * alpha, fill.2 * alpha, fill.3 * alpha)
    }

    /// The halo alone at a distance, premultiplied; transparent without a halo.
    func haloColor(distance: Float) -> (Float, Float, Float, Float) {
        guard let halo else { return (0, 0, 0, 0) }
        let distance = Double(distance)
        let haloInner = Self.innerEdge + haloGamma
        let inside = Self.smoothstep(haloInner - haloGamma, haloInner + haloGamma, distance)
        let alpha = Float(min(Self.smoothstep(haloEdge - haloGamma, haloEdge + haloGamma, distance), 1 - inside))
        return (halo.0 * alpha, halo.1 * alpha, halo.2 * alpha, halo.3 * alpha)
    }

    /// The fill over the halo at a distance, premultiplied.
    func color(distance: Float) -> (Float, Float, Float, Float) {
        let top = fillColor(distance: distance)
        guard halo != nil else { return top }
        return TexelBlending.over(top, haloColor(distance: distance))
    }
}

/// Premultiplied RGBA texels in floats, composited as GL blends (`ONE, ONE_MINUS_SRC_ALPHA`).
enum TexelBlending {
    /// `top` over `bottom`.
    static func over(_ top: (Float, Float, Float, Float), _ bottom: (Float, Float, Float, Float)) -> (
        Float, Float, Float, Float
    ) {
        let under = 1 - top.3
        return (top.0 + bottom.0 * under, top.1 + bottom.1 * under, top.2 + bottom.2 * under, top.3 + bottom.3 * under)
    }
}

/// A block of device pixels computed in premultiplied floats and painted over the canvas, as
/// symbol icons and glyphs are drawn: one ARGB32 surface, painted at the identity matrix.
enum DevicePixels {
    /// Paints `width × height` device pixels with their top-left corner at device pixel
    /// (`column`, `row`); `color` gives each one's premultiplied colour by its offset in the block.
    static func paint(
        width: Int, height: Int, column: Int, row: Int, in cairo: OpaquePointer,
        color: (_ column: Int, _ row: Int) -> (Float, Float, Float, Float)
    ) {
        paint(width: width, height: height, column: column, row: row, in: cairo) { y, target in
            for x in 0..<width {
                let pixel = color(x, y)
                // Transparent (most of a turned icon's block) is 0 without rounding four zeros.
                target[x] =
                    pixel.0 == 0 && pixel.1 == 0 && pixel.2 == 0 && pixel.3 == 0 ? 0 : PatternTexture.argbWord(pixel)
            }
        }
    }

    /// Paints `width × height` device pixels with their top-left corner at device pixel
    /// (`column`, `row`); `fill` writes each row's ARGB32 pixels (premultiplied), by its offset
    /// in the block.
    static func paint(
        width: Int, height: Int, column: Int, row: Int, in cairo: OpaquePointer,
        rows fill: (_ row: Int, _ pixels: UnsafeMutablePointer<UInt32>) -> Void
    ) {
        guard width > 0, height > 0,
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else { return }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<height {
            fill(y, UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self))
        }
        cairo_surface_mark_dirty(surface)
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        cairo_set_source_surface(cairo, surface, Double(column), Double(row))
        cairo_paint(cairo)
        cairo_restore(cairo)
    }
}
