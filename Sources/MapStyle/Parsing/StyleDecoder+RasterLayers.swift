import MapJSON

extension StyleDecoder {
    /// The paint properties of a `raster` layer.
    static let rasterPaintProperties: Set<String> = [
        "raster-opacity", "raster-hue-rotate", "raster-brightness-min", "raster-brightness-max", "raster-saturation",
        "raster-contrast", "raster-resampling", "raster-fade-duration",
    ]

    /// The paint properties of a `hillshade` layer.
    static let hillshadePaintProperties: Set<String> = [
        "hillshade-illumination-direction", "hillshade-illumination-anchor", "hillshade-exaggeration",
        "hillshade-shadow-color", "hillshade-highlight-color", "hillshade-accent-color",
        "hillshade-illumination-altitude", "hillshade-method",
    ]

    /// Reads a `raster` layer's paint.
    func decodeRasterLayer(from properties: inout PropertyReader) throws(StyleError) -> RasterLayer {
        let unit = number(in: 0...1)
        let signedUnit = number(in: -1...1)
        var raster = RasterLayer()
        try properties.paint("raster-opacity", into: &raster.opacity, parse: unit)
        try properties.paint("raster-hue-rotate", into: &raster.hueRotate, parse: number(_:at:))
        try properties.paint("raster-brightness-min", into: &raster.brightnessMin, parse: unit)
        try properties.paint("raster-brightness-max", into: &raster.brightnessMax, parse: unit)
        try properties.paint("raster-saturation", into: &raster.saturation, parse: signedUnit)
        try properties.paint("raster-contrast", into: &raster.contrast, parse: signedUnit)
        try properties.paint("raster-resampling", into: &raster.resampling, parse: enumeration)
        try properties.paint("raster-fade-duration", into: &raster.fadeDuration, parse: number(in: 0...Double.infinity))
        return raster
    }

    /// Reads a `hillshade` layer's paint.
    func decodeHillshadeLayer(from properties: inout PropertyReader) throws(StyleError) -> HillshadeLayer {
        var hillshade = HillshadeLayer()
        try properties.paint(
            "hillshade-illumination-direction", into: &hillshade.illuminationDirection, parse: number(in: 0...359))
        try properties.paint("hillshade-illumination-anchor", into: &hillshade.illuminationAnchor, parse: enumeration)
        try properties.paint("hillshade-exaggeration", into: &hillshade.exaggeration, parse: number(in: 0...1))
        try properties.paint("hillshade-shadow-color", into: &hillshade.shadowColor, parse: color)
        try properties.paint("hillshade-highlight-color", into: &hillshade.highlightColor, parse: color)
        try properties.paint("hillshade-accent-color", into: &hillshade.accentColor, parse: color)
        try properties.paint(
            "hillshade-illumination-altitude", into: &hillshade.illuminationAltitude, parse: number(in: 0...90))
        try properties.paint("hillshade-method", into: &hillshade.method, parse: enumeration)
        return hillshade
    }
}
