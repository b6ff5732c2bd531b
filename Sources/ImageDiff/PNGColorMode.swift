/// How ``RGBAImage/pngData(compressionLevel:colorMode:)`` stores pixels in a PNG.
public enum PNGColorMode: Hashable, Sendable {
    /// Every pixel as four 8-bit samples, red, green, blue and alpha (colour type 6): lossless.
    case rgba
    /// Every pixel as an 8-bit index into a palette of at most 256 colours (colour type 3, with a
    /// `tRNS` chunk when a colour is not opaque), chosen by
    /// ``RGBAImage/quantized(maximumColorCount:dithering:)`` without dithering.
    ///
    /// Lossless when the image has at most 256 distinct colours (fully transparent pixels counting
    /// as one, stored as (0, 0, 0, 0)); otherwise close. Map renders, mostly flat fills, come out
    /// at a quarter to a third of the RGBA size; smooth synthetic gradients, which PNG's filters
    /// predict well, can come out larger.
    case palette
}
