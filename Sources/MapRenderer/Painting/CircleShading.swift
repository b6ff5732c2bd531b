import Foundation
import MapStyle

/// The colour of one circle of a circle layer at each distance from its centre, as GL's circle
/// shader computes it: the fill and the stroke are one disc of radius `radius + strokeWidth`,
/// shaded by the distance `l` from the centre over that outer radius (0 at the centre, 1 at
/// the edge).
///
/// - The disc fades out over its outer edge, from `l = 1 − b` to 1, with `b` the larger of
///   `circle-blur` and the antialiasing blur (one device pixel over the outer radius); a blur
///   above 1 dims the centre too, as in GL (the blur is not clamped).
/// - The fill turns into the stroke over the same width `b` *inside* the radius, from
///   `l = r / R − b` to `r / R`: the stroke's inner edge is antialiased into the fill, not over
///   it, and a blurred circle blends its fill into its stroke over the whole blur.
/// - Both steps are GLSL's `smoothstep`; colours are mixed premultiplied, and the result is
///   laid over the map with premultiplied alpha (Cairo's OVER).
///
/// A stroke thinner than 0.01 pixels is no stroke.
struct CircleShading {
    /// A premultiplied colour, each component in [0, 1].
    struct Premultiplied: Equatable {
        var red: Double, green: Double, blue: Double, alpha: Double

        static let clear = Premultiplied(red: 0, green: 0, blue: 0, alpha: 0)

        /// A straight colour multiplied by its alpha and by `opacity`.
        init(_ color: Color, opacity: Double) {
            let alpha = color.alpha * min(1, max(0, opacity))
            self.init(red: color.red * alpha, green: color.green * alpha, blue: color.blue * alpha, alpha: alpha)
        }

        init(red: Double, green: Double, blue: Double, alpha: Double) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        /// `self` scaled by `factor` (a fade).
        func scaled(_ factor: Double) -> Premultiplied {
            Premultiplied(red: red * factor, green: green * factor, blue: blue * factor, alpha: alpha * factor)
        }

        /// The mix from `self` (t = 0) to `other` (t = 1).
        func mixed(with other: Premultiplied, _ t: Double) -> Premultiplied {
            Premultiplied(
                red: red + (other.red - red) * t, green: green + (other.green - green) * t,
                blue: blue + (other.blue - blue) * t,
                alpha: alpha + (other.alpha - alpha) * t)
        }
    }

    /// The fill: `circle-color` at `circle-opacity`.
    let fill: Premultiplied
    /// The stroke: `circle-stroke-color` at `circle-stroke-opacity`.
    let stroke: Premultiplied
    /// Where the stroke begins, over the outer radius: r / (r + stroke width); 1 without a stroke.
    let innerEdge: Double
    /// The width of both steps over the outer radius: the larger of `circle-blur` and one
    /// device pixel's antialiasing.
    let blur: Double
    /// Whether the circle has a stroke (at least 0.01 pixels wide).
    let hasStroke: Bool

    /// The shading of a circle of `radiusPoints` with a stroke of `strokeWidthPoints`, drawn at
    /// `pixelsPerPoint` device pixels per point (the antialiasing blur is one device pixel of
    /// the unscaled outer radius, as in GL, whatever scale a pitched view gives the circle).
    init(
        radiusPoints: Double, strokeWidthPoints: Double, blur: Double, fill: Premultiplied, stroke: Premultiplied,
        pixelsPerPoint: Double
    ) {
        let radius = max(0, radiusPoints)
        let strokeWidth = max(0, strokeWidthPoints)
        let outer = radius + strokeWidth
        self.fill = fill
        self.stroke = stroke
        hasStroke = strokeWidth >= 0.01
        innerEdge = outer > 0 ? radius / outer : 1
        let antialiasing = outer > 0 ? 1 / max(pixelsPerPoint, 1e-9) / outer : 1
        self.blur = max(blur, antialiasing)
    }

    /// Whether nothing of the circle shows.
    var isInvisible: Bool { fill.alpha <= 0 && (!hasStroke || stroke.alpha <= 0) }

    /// The colour at `l`, the distance from the centre over the outer radius.
    func color(at l: Double) -> Premultiplied {
        guard l < 1 else { return .clear }
        let opacity = Self.smoothstep(0, -blur, l - 1)
        let mix = hasStroke ? Self.smoothstep(-blur, 0, l - innerEdge) : 0
        return fill.mixed(with: stroke, mix).scaled(opacity)
    }

    /// Distances from the centre (over the outer radius, ascending, from 0 to 1) at which a
    /// gradient interpolating linearly between them stays within about 1/100 of ``color(at:)``:
    /// each smooth step sampled at `steps` points.
    func gradientOffsets(steps: Int = 10) -> [Double] {
        var offsets: [Double] = [0, 1]
        func band(_ from: Double, _ to: Double) {
            for index in 0...steps {
                let offset = from + (to - from) * Double(index) / Double(steps)
                if offset > 0, offset < 1 { offsets.append(offset) }
            }
        }
        band(1 - blur, 1)
        if hasStroke { band(innerEdge - blur, innerEdge) }
        offsets.sort()
        var unique: [Double] = []
        for offset in offsets where unique.last.map({ offset - $0 > 1e-6 }) ?? true { unique.append(offset) }
        return unique
    }

    /// GLSL's `smoothstep`, also for a falling edge (`edge1 < edge0`) as GPUs compute it.
    static func smoothstep(_ edge0: Double, _ edge1: Double, _ x: Double) -> Double {
        guard edge0 != edge1 else { return x < edge0 ? 0 : 1 }
        let t = min(1, max(0, (x - edge0) / (edge1 - edge0)))
        return t * t * (3 - 2 * t)
    }
}
