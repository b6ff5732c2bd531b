import Foundation

/// The properties of a `raster` layer: tiled imagery or an image source's picture (MapLibre Style
/// Specification, "Layers: raster").
///
/// The colour adjustments act on each pixel's straight (not premultiplied) colour in this order,
/// as MapLibre's raster shader does: hue rotation, saturation, contrast, then brightness, which
/// maps black to `raster-brightness-min` and white to `raster-brightness-max`. See
/// ``RasterColorAdjustment``.
public struct RasterLayer: Hashable, Sendable {
    /// `raster-opacity`, in [0, 1]. The default is 1.
    public var opacity: StyleValue<Double> = .constant(1)
    /// `raster-hue-rotate`: the hues turned by this many degrees. The default is 0.
    public var hueRotate: StyleValue<Double> = .constant(0)
    /// `raster-brightness-min`, in [0, 1]: what black becomes. The default is 0.
    public var brightnessMin: StyleValue<Double> = .constant(0)
    /// `raster-brightness-max`, in [0, 1]: what white becomes. The default is 1.
    public var brightnessMax: StyleValue<Double> = .constant(1)
    /// `raster-saturation`, in [-1, 1]: −1 is grey, 1 is as saturated as can be. The default is 0.
    public var saturation: StyleValue<Double> = .constant(0)
    /// `raster-contrast`, in [-1, 1]. The default is 0.
    public var contrast: StyleValue<Double> = .constant(0)
    /// `raster-resampling`: how pixels are sampled when the image is scaled. The default is linear.
    public var resampling: StyleValue<RasterResampling> = .constant(.linear)
    /// `raster-fade-duration`, in milliseconds: how long a tile takes to fade in. Read for
    /// completeness; a static render shows every tile fully faded in. The default is 300.
    public var fadeDuration: StyleValue<Double> = .constant(300)

    public init() {}

    /// The colour adjustment of the paint properties at a zoom level.
    public func colorAdjustment(atZoom zoom: Double) -> RasterColorAdjustment {
        RasterColorAdjustment(
            hueRotateDegrees: hueRotate.value(atZoom: zoom), brightnessMin: brightnessMin.value(atZoom: zoom),
            brightnessMax: brightnessMax.value(atZoom: zoom), saturation: saturation.value(atZoom: zoom),
            contrast: contrast.value(atZoom: zoom))
    }
}

/// How a raster layer samples its images when they are scaled, `raster-resampling` (MapLibre
/// Style Specification, "Layers: raster").
///
/// The default is ``linear``.
public enum RasterResampling: String, StyleValueType, CaseIterable {
    /// Blends the nearest four pixels: smooth.
    case linear
    /// Takes the nearest pixel: sharp, blocky when enlarged.
    case nearest
}

/// The colour adjustments of a raster layer, as MapLibre's raster shader applies them to a pixel's
/// straight colour (components in [0, 1]): the hue rotated about the grey axis, the saturation
/// pushed towards or away from the pixel's mean, the contrast about mid-grey, and black and white
/// moved to the brightness bounds. The result is clamped into [0, 1].
///
/// For example, `RasterColorAdjustment(brightnessMin: 0.5).adjusted(red: 0, green: 0, blue: 0)`
/// is mid-grey.
public struct RasterColorAdjustment: Hashable, Sendable {
    public var hueRotateDegrees: Double
    public var brightnessMin: Double
    public var brightnessMax: Double
    public var saturation: Double
    public var contrast: Double

    /// Creates an adjustment; every default changes nothing.
    public init(
        hueRotateDegrees: Double = 0, brightnessMin: Double = 0, brightnessMax: Double = 1, saturation: Double = 0,
        contrast: Double = 0
    ) {
        self.hueRotateDegrees = hueRotateDegrees
        self.brightnessMin = brightnessMin
        self.brightnessMax = brightnessMax
        self.saturation = saturation
        self.contrast = contrast
    }

    /// Whether the adjustment leaves every colour as it is.
    public var isIdentity: Bool {
        hueRotateDegrees.truncatingRemainder(dividingBy: 360) == 0 && brightnessMin == 0 && brightnessMax == 1
            && saturation == 0 && contrast == 0
    }

    /// The weights of the hue rotation: the rotated red is `w0·r + w1·g + w2·b`, green and blue the
    /// same weights turned (`w2, w0, w1` and `w1, w2, w0`).
    public var spinWeights: (Double, Double, Double) {
        let angle = hueRotateDegrees * .pi / 180
        let sine = sin(angle)
        let cosine = cos(angle)
        return (
            (2 * cosine + 1) / 3, (-3.0.squareRoot() * sine - cosine + 1) / 3,
            (3.0.squareRoot() * sine - cosine + 1) / 3
        )
    }

    /// How far a component moves towards the pixel's mean: `−saturation` when desaturating, and
    /// `1 − 1 / (1.001 − saturation)` (away from it) when saturating.
    public var saturationFactor: Double {
        saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation
    }

    /// The contrast's slope about mid-grey: `1 / (1 − contrast)` above 0, `1 + contrast` below.
    public var contrastFactor: Double {
        contrast > 0 ? 1 / (1 - contrast) : 1 + contrast
    }

    /// A straight colour adjusted, each component clamped into [0, 1].
    public func adjusted(red: Double, green: Double, blue: Double) -> (red: Double, green: Double, blue: Double) {
        let (w0, w1, w2) = spinWeights
        var r = red * w0 + green * w1 + blue * w2
        var g = red * w2 + green * w0 + blue * w1
        var b = red * w1 + green * w2 + blue * w0
        // The mean is the unrotated colour's, as MapLibre's shader has it.
        let mean = (red + green + blue) / 3
        let saturate = saturationFactor
        let contrast = contrastFactor
        r += (mean - r) * saturate
        g += (mean - g) * saturate
        b += (mean - b) * saturate
        r = (r - 0.5) * contrast + 0.5
        g = (g - 0.5) * contrast + 0.5
        b = (b - 0.5) * contrast + 0.5
        let low = brightnessMin
        let high = brightnessMax
        func finish(_ value: Double) -> Double { min(1, max(0, low + (high - low) * value)) }
        return (finish(r), finish(g), finish(b))
    }
}
