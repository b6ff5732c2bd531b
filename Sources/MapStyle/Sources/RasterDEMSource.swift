import MapCore

/// A raster-dem source: elevations encoded in the colours of raster tiles, which hillshade
/// layers shade (MapLibre Style Specification, "Sources: raster-dem").
///
/// Its tiles are read as a raster source's are (`tiles`, `url`, `tileSize`, `minzoom`,
/// `maxzoom`, `scheme`, `bounds`); `encoding` says how a pixel's red, green and blue make metres.
public struct RasterDEMSource: Hashable, Sendable {
    /// Where the tiles are, and their size, zooms and bounds. The default tile size is 512, the
    /// specification's.
    public var tiles: RasterSource
    /// How pixels give elevations. The default is ``DEMEncoding/mapbox``.
    public var encoding: DEMEncoding

    public init(tiles: RasterSource, encoding: DEMEncoding = .mapbox) {
        self.tiles = tiles
        self.encoding = encoding
    }
}

/// How a raster-dem tile's pixel gives an elevation in metres, `encoding` (MapLibre Style
/// Specification, "Sources: raster-dem"): `red × redFactor + green × greenFactor + blue ×
/// blueFactor − baseShift`, the components being bytes (0 to 255).
///
/// For example, Terrarium's pixel (128, 0, 0) is 0 m, and Mapbox's (1, 134, 160) is 0 m.
public struct DEMEncoding: Hashable, Sendable {
    public var redFactor: Double
    public var greenFactor: Double
    public var blueFactor: Double
    public var baseShift: Double

    /// A `custom` encoding. The defaults are Mapbox's factors (MapLibre's defaults for `custom`).
    public init(
        redFactor: Double = 6553.6, greenFactor: Double = 25.6, blueFactor: Double = 0.1, baseShift: Double = 10_000
    ) {
        self.redFactor = redFactor
        self.greenFactor = greenFactor
        self.blueFactor = blueFactor
        self.baseShift = baseShift
    }

    /// Mapbox Terrain-RGB: `(R × 65536 + G × 256 + B) / 10 − 10000`, tenths of a metre.
    public static let mapbox = DEMEncoding()
    /// Terrarium (Mapzen, AWS Terrain Tiles): `R × 256 + G + B / 256 − 32768`.
    public static let terrarium = DEMEncoding(redFactor: 256, greenFactor: 1, blueFactor: 1.0 / 256, baseShift: 32_768)

    /// The elevation of a pixel, in metres.
    public func elevationMeters(red: UInt8, green: UInt8, blue: UInt8) -> Double {
        Double(red) * redFactor + Double(green) * greenFactor + Double(blue) * blueFactor - baseShift
    }
}
