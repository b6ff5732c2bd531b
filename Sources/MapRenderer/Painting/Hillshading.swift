import Foundation
import ImageCodec
import MapCore
import MapStyle

/// A raster-dem tile's elevations with a one-pixel border around them, taken from the
/// neighbouring tiles where they are loaded and from the tile's own edge elsewhere, as MapLibre
/// backfills its DEM tiles: every pixel of the tile then has its eight neighbours.
///
/// Elevations are kept as MapLibre's hillshade shader of the render-test suite's version reads
/// them: whole numbers (truncated), a quarter of the metres (see ``elevationScale``).
struct DEMGrid: Equatable {
    /// The tile's width and height in pixels (the grid is two more each way).
    let dimension: Int
    /// The elevations, row by row, `(dimension + 2)²` of them, border included.
    private(set) var values: [Double]
    /// The pixels without data, row by row (`dimension²`, no border): those the tile makes
    /// transparent (alpha below a half), as `mapwright terrain build` writes the land beyond a
    /// DEM's edge. Nil when every pixel is opaque, as in Terrarium and Terrain-RGB tiles from
    /// elsewhere. MapLibre reads no alpha; Mapwright draws no shading there.
    private(set) var noData: [Bool]?

    /// What the shader's elevation is per metre. MapLibre stores whole metres and its prepare
    /// shader reads them divided by 4.
    static let elevationScale = 0.25

    /// Decodes a square DEM tile; nil for an image that is not square or has no pixels.
    init?(image: RGBAImage, encoding: DEMEncoding) {
        guard image.width == image.height, image.width > 0 else { return nil }
        let dimension = image.width
        self.dimension = dimension
        let stride = dimension + 2
        values = Array(repeating: 0, count: stride * stride)
        var noData: [Bool]?
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<dimension {
                for x in 0..<dimension {
                    let offset = (y * dimension + x) * 4
                    let meters = encoding.elevationMeters(
                        red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2])
                    values[(y + 1) * stride + x + 1] = Self.stored(meters)
                    if pixels[offset + 3] < 128 {
                        if noData == nil { noData = Array(repeating: false, count: dimension * dimension) }
                        noData?[y * dimension + x] = true
                    }
                }
            }
        }
        self.noData = noData
        // The border repeats the edge until neighbours fill it.
        for index in 0..<dimension {
            self[-1, index] = self[0, index]
            self[dimension, index] = self[dimension - 1, index]
            self[index, -1] = self[index, 0]
            self[index, dimension] = self[index, dimension - 1]
        }
        self[-1, -1] = self[0, 0]
        self[dimension, -1] = self[dimension - 1, 0]
        self[-1, dimension] = self[0, dimension - 1]
        self[dimension, dimension] = self[dimension - 1, dimension - 1]
    }

    /// An elevation as MapLibre stores it: truncated towards zero after an offset of 65,536 m,
    /// scaled by ``elevationScale``. A millionth of a metre is added first, so that an encoding's
    /// factors summing to a hair under a whole metre (Mapbox's tenths) truncate as its integer
    /// arithmetic does.
    static func stored(_ meters: Double) -> Double {
        guard meters.isFinite else { return 0 }
        return ((meters + 65_536 + 1e-6).rounded(.towardZero) - 65_536) * elevationScale
    }

    /// The elevation at a pixel, `-1...dimension` each way (the border included).
    subscript(x: Int, y: Int) -> Double {
        get { values[(y + 1) * (dimension + 2) + x + 1] }
        set { values[(y + 1) * (dimension + 2) + x + 1] = newValue }
    }

    /// Fills the border facing the neighbour `dx`, `dy` tiles away (each −1, 0 or 1, not both
    /// 0) from that neighbour's edge pixels.
    mutating func backfill(from neighbour: DEMGrid, dx: Int, dy: Int) {
        guard neighbour.dimension == dimension, dx != 0 || dy != 0 else { return }
        let xs = dx == -1 ? [-1] : dx == 1 ? [dimension] : Array(0..<dimension)
        let ys = dy == -1 ? [-1] : dy == 1 ? [dimension] : Array(0..<dimension)
        for y in ys {
            for x in xs {
                self[x, y] = neighbour[x - dx * dimension, y - dy * dimension]
            }
        }
    }

    /// The slopes MapLibre's hillshade prepare pass writes: for each pixel, the Sobel gradient
    /// east and south over the eight neighbours, divided by 2^((z − maxZoom)·k + 19.2562 − z)
    /// (eight times the metres per pixel of a 512-pixel tile, exaggerated below the source's
    /// deepest zoom by k = 0.4, 0.35 or 0.3 as z is below 2, 4.5 or not), then stored as bytes
    /// (`slope / 2 + 0.5`, clamped into [0, 1]). Returns the slopes read back, each in [−1, 1],
    /// x and y interleaved, row by row.
    func slopes(zoom: Int, maxZoom: Int) -> [Double] {
        let z = Double(zoom)
        let exaggeration = z < 2 ? 0.4 : z < 4.5 ? 0.35 : 0.3
        let divisor = pow(2, (z - Double(maxZoom)) * exaggeration + 19.2562 - z)
        var result = Array(repeating: 0.0, count: dimension * dimension * 2)
        for y in 0..<dimension {
            for x in 0..<dimension {
                let a = self[x - 1, y - 1]
                let b = self[x, y - 1]
                let c = self[x + 1, y - 1]
                let d = self[x - 1, y]
                let f = self[x + 1, y]
                let g = self[x - 1, y + 1]
                let h = self[x, y + 1]
                let i = self[x + 1, y + 1]
                let east = ((c + f + f + i) - (a + d + d + g)) / divisor
                let south = ((g + h + h + i) - (a + b + b + c)) / divisor
                let index = (y * dimension + x) * 2
                result[index] = Self.byteRoundTrip(east)
                result[index + 1] = Self.byteRoundTrip(south)
            }
        }
        return result
    }

    /// A slope through an 8-bit texture channel, as the prepare pass stores it.
    private static func byteRoundTrip(_ slope: Double) -> Double {
        let stored = (min(1, max(0, slope / 2 + 0.5)) * 255).rounded()
        return stored / 255 * 2 - 1
    }
}

/// The colours a hillshade layer gives slopes, as MapLibre's hillshade shader computes them
/// (premultiplied colours, components in [0, 1]).
struct HillshadeShader {
    let method: HillshadeMethod
    /// `hillshade-exaggeration`.
    let intensity: Double
    /// The light's direction in radians clockwise from the top of the map.
    let azimuthRadians: Double
    /// `hillshade-illumination-altitude` in radians.
    let altitudeRadians: Double
    let shadow: PremultipliedColor, highlight: PremultipliedColor, accent: PremultipliedColor

    /// The shader of a layer at a zoom, for a view turned `bearingDegrees` clockwise.
    init(_ layer: HillshadeLayer, zoom: Double, bearingDegrees: Double) {
        method = layer.method.value(atZoom: zoom)
        intensity = layer.exaggeration.value(atZoom: zoom)
        var azimuth = layer.illuminationDirection.value(atZoom: zoom) * .pi / 180
        // A light anchored to the viewport turns with the view.
        if layer.illuminationAnchor.value(atZoom: zoom) == .viewport { azimuth += bearingDegrees * .pi / 180 }
        azimuthRadians = azimuth
        altitudeRadians = layer.illuminationAltitude.value(atZoom: zoom) * .pi / 180
        shadow = PremultipliedColor(layer.shadowColor.value(atZoom: zoom))
        highlight = PremultipliedColor(layer.highlightColor.value(atZoom: zoom))
        accent = PremultipliedColor(layer.accentColor.value(atZoom: zoom))
    }

    /// The colour of a pixel with slopes `east`, `south` (as ``DEMGrid/slopes(zoom:maxZoom:)``
    /// gives them) at `latitude` degrees, where Mercator stretches the ground by 1 / cos(latitude).
    func color(east: Double, south: Double, latitudeDegrees: Double) -> PremultipliedColor {
        let scale = cos(latitudeDegrees * .pi / 180)
        let dx = east / scale
        let dy = south / scale
        let azimuth = azimuthRadians + .pi
        let length = (dx * dx + dy * dy).squareRoot()
        func aspect() -> Double { dx != 0 ? atan2(dy, -dx) : .pi / 2 * (dy > 0 ? 1 : -1) }
        /// cos of the angle between the ground's normal and the light.
        func lightCosine(azimuth: Double) -> Double {
            (sin(altitudeRadians)
                - (dy * cos(azimuth) * cos(altitudeRadians) - dx * sin(azimuth) * cos(altitudeRadians)))
                / (1 + dx * dx + dy * dy).squareRoot()
        }
        switch method {
        case .standard:
            let slope = atan(1.25 * length)
            let base = 1.875 - intensity * 1.75
            let maxValue = 0.5 * Double.pi
            let scaledSlope = intensity != 0.5 ? ((pow(base, slope) - 1) / (pow(base, maxValue) - 1)) * maxValue : slope
            let strength = min(1, max(0, intensity * 2))
            let accentColor = accent.scaled(by: (1 - cos(scaledSlope)) * strength)
            let shade = abs(((aspect() + azimuth) / .pi + 0.5).truncatingRemainder(dividingBy: 2).positiveModulo2 - 1)
            let shadeColor = shadow.mixed(with: highlight, by: shade).scaled(by: sin(scaledSlope) * strength)
            return accentColor.scaled(by: 1 - shadeColor.alpha).adding(shadeColor)
        case .basic, .multidirectional:
            let shade = min(1, max(0, lightCosine(azimuth: azimuth)))
            return shadow.mixed(with: highlight, by: shade).scaled(by: abs(2 * shade - 1))
        case .combined:
            let angle = min(.pi / 2, max(0, acos(min(1, max(-1, lightCosine(azimuth: azimuth))))))
            let steepness = atan(length) * 4 / .pi / .pi
            return shadow.scaled(by: angle * steepness).adding(highlight.scaled(by: (.pi / 2 - angle) * steepness))
        case .igor:
            let slopeStrength = atan(length) * 2 / .pi
            let aspectStrength =
                1 - abs(((aspect() + azimuth) / .pi + 0.5).truncatingRemainder(dividingBy: 2).positiveModulo2 - 1)
            return shadow.scaled(by: slopeStrength * aspectStrength).adding(
                highlight.scaled(by: slopeStrength * (1 - aspectStrength)))
        }
    }
}

/// A colour with its components multiplied by its alpha, as GL blends them.
struct PremultipliedColor: Equatable {
    var red: Double, green: Double, blue: Double, alpha: Double

    init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    init(_ color: Color) {
        self.init(
            red: color.red * color.alpha, green: color.green * color.alpha, blue: color.blue * color.alpha,
            alpha: color.alpha)
    }

    func scaled(by factor: Double) -> PremultipliedColor {
        PremultipliedColor(red: red * factor, green: green * factor, blue: blue * factor, alpha: alpha * factor)
    }

    func adding(_ other: PremultipliedColor) -> PremultipliedColor {
        PremultipliedColor(
            red: red + other.red, green: green + other.green, blue: blue + other.blue, alpha: alpha + other.alpha)
    }

    /// GLSL's `mix`: this colour `fraction` of the way to `other`.
    func mixed(with other: PremultipliedColor, by fraction: Double) -> PremultipliedColor {
        scaled(by: 1 - fraction).adding(other.scaled(by: fraction))
    }

    /// The colour as a Cairo ARGB32 pixel (premultiplied), each component clamped into [0, 1].
    var argb32: UInt32 {
        func byte(_ value: Double) -> UInt32 { UInt32((min(1, max(0, value.isNaN ? 0 : value)) * 255).rounded()) }
        let a = byte(alpha)
        return a << 24 | min(a, byte(red)) << 16 | min(a, byte(green)) << 8 | min(a, byte(blue))
    }
}

extension Double {
    /// GLSL's `mod(x, 2)` of a remainder already in (−2, 2): in [0, 2).
    fileprivate var positiveModulo2: Double { self < 0 ? self + 2 : self }
}
