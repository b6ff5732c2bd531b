/// How ``RGBAImage/pngData(compressionLevel:colorMode:filtering:)`` stores pixels in a PNG.
public enum PNGColorMode: Hashable, Sendable {
    /// Every pixel as four 8-bit samples, red, green, blue and alpha (colour type 6), or three
    /// when every pixel is opaque (colour type 2): lossless either way.
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

/// Which row filters PNG encoding applies before deflate (PNG specification, section 9).
public enum PNGFiltering: Hashable, Sendable {
    /// libpng's adaptive choice among the five filters, row by row: best for photographs and
    /// raster imagery, whose neighbouring pixels predict each other.
    case adaptive
    /// No filter: about 2.5 times faster, and smaller for flat-colour vector maps, where deflate
    /// finds long repeats in the raw rows.
    case none
}
