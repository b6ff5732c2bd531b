extension RGBAImage {
    /// Reduces the image to a palette of at most `maximumColorCount` colours, for an 8-bit palette PNG.
    ///
    /// Fully transparent pixels all become one entry, (0, 0, 0, 0). When the image has no more
    /// distinct colours than `maximumColorCount` (transparent ones counting as one), the palette is
    /// exactly those colours and the image is unchanged. Otherwise the colours are chosen by
    /// variance-based median cut over a histogram of premultiplied colour (5 bits per channel),
    /// refined by k-means, and each pixel takes the nearest colour by premultiplied RGBA distance.
    /// Opaque pixels only take opaque colours and translucent pixels translucent ones, when the
    /// palette has any.
    ///
    /// The result depends on the pixels and arguments alone: no random numbers, no per-process hash
    /// seeds and no dictionary order are involved. Palettes are sorted by alpha, then red, green and
    /// blue, so translucent colours come first.
    ///
    /// For example, a map render as a small PNG:
    /// ```swift
    /// try render.quantized().writePNG(to: URL(filePath: "map.png"), compressionLevel: 9)
    /// ```
    ///
    /// - Parameters:
    ///   - maximumColorCount: The most colours the palette may hold, from 2 to 256.
    ///     The default is 256.
    ///   - dithering: Whether to spread each opaque pixel's rounding error to its neighbours
    ///     (Floyd–Steinberg), trading noise for smoother gradients. Dithered images compress worse;
    ///     flat map fills do not need it. Images with few enough colours are never dithered.
    ///     The default is false.
    /// - Returns: The palette and one index per pixel.
    public func quantized(maximumColorCount: Int = 256, dithering: Bool = false) -> IndexedImage {
        precondition(
            (2...256).contains(maximumColorCount), "a palette holds 2 to 256 colours, not \(maximumColorCount)")
        let pixelCount = width * height
        guard pixelCount > 0 else {
            return IndexedImage(width: width, height: height, palette: [.transparent], indices: [])
        }
        let (palette, indices): ([UInt32], [UInt8]) = pixels.withUnsafeBytes { bytes in
            if let exact = ExactPalette(bytes, pixelCount: pixelCount, limit: maximumColorCount) {
                return (exact.colors, exact.indices(of: bytes, pixelCount: pixelCount))
            }
            let histogram = ColorHistogram(bytes, pixelCount: pixelCount)
            let budget = maximumColorCount - (histogram.transparentCount > 0 ? 1 : 0)
            var colors = MedianCut.colors(for: histogram, maximumColorCount: budget)
            if histogram.transparentCount > 0 { colors.append(0) }
            let palette = Array(Set(colors)).sorted { PackedColor.paletteOrder($0) < PackedColor.paletteOrder($1) }
            let mapper = PaletteMapper(palette: palette)
            return (palette, mapper.indices(of: bytes, width: width, height: height, dithering: dithering))
        }
        return IndexedImage(width: width, height: height, palette: palette.map(PackedColor.pixel), indices: indices)
    }
}
