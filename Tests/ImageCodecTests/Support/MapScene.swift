import ImageCodec
import MapTestSupport
import MapUtilities

/// Draws a deterministic map-like image: flat land, water and park fills, anti-aliased roads with
/// casings, dark glyph strokes standing in for labels, pins shaded with a radial gradient, a
/// photo-like thumbnail of smooth noise, a translucent overlay band and a transparent margin.
struct MapScene {
    static let land = RGBAPixel(red: 242, green: 239, blue: 233)
    static let water = RGBAPixel(red: 170, green: 211, blue: 223)
    static let park = RGBAPixel(red: 200, green: 230, blue: 201)

    var width: Int
    var height: Int
    var seed: UInt64 = 7
    var includesPhoto = true
    var includesPins = true

    func draw() -> RGBAImage {
        var random = SeededGenerator(seed: seed)
        var image = RGBAImage(width: width, height: height, filledWith: Self.land)
        fill(&image, x: 0..<(width / 3), y: (height / 2)..<height, with: Self.water)
        for _ in 0..<4 {
            let x = Int.random(in: 0..<(width * 3 / 4), using: &random)
            let y = Int.random(in: 0..<(height / 2), using: &random)
            fill(&image, x: x..<min(width, x + width / 6), y: y..<min(height, y + height / 6), with: Self.park)
        }
        for _ in 0..<6 {
            let from = (
                Double.random(in: 0...Double(width), using: &random),
                Double.random(in: 0...Double(height), using: &random)
            )
            let to = (
                Double.random(in: 0...Double(width), using: &random),
                Double.random(in: 0...Double(height), using: &random)
            )
            stroke(&image, from: from, to: to, halfWidth: 4, color: RGBAPixel(red: 214, green: 200, blue: 170))
            stroke(&image, from: from, to: to, halfWidth: 2.5, color: .white)
        }
        for _ in 0..<(width * height / 2000) {
            let x = Double.random(in: 0...Double(width - 8), using: &random)
            let y = Double.random(in: 0...Double(height - 8), using: &random)
            stroke(
                &image, from: (x, y), to: (x + 5, y + 7), halfWidth: 0.6, color: RGBAPixel(red: 51, green: 51, blue: 51)
            )
        }
        if includesPins {
            for _ in 0..<8 {
                let x = Double.random(in: 12...Double(width - 12), using: &random)
                let y = Double.random(in: 12...Double(height - 12), using: &random)
                pin(&image, centerX: x, centerY: y, radius: 9)
            }
        }
        if includesPhoto {
            photo(&image, x: width / 2, y: height / 2, width: width / 5, height: height / 5, random: &random)
        }
        // A translucent band along the bottom and a transparent margin along the right.
        for y in (height - height / 10)..<height {
            for x in 0..<width {
                var pixel = image[x: x, y: y]
                pixel.alpha = 160
                image[x: x, y: y] = pixel
            }
        }
        fill(&image, x: (width - width / 20)..<width, y: 0..<height, with: .transparent)
        return image
    }

    private func fill(_ image: inout RGBAImage, x columns: Range<Int>, y rows: Range<Int>, with color: RGBAPixel) {
        for y in rows { for x in columns { image[x: x, y: y] = color } }
    }

    /// A line of `halfWidth` pixels either side of its axis, its edge anti-aliased by coverage.
    private func stroke(
        _ image: inout RGBAImage, from start: (Double, Double), to end: (Double, Double), halfWidth: Double,
        color: RGBAPixel
    ) {
        let minX = max(0, Int(min(start.0, end.0) - halfWidth - 1))
        let maxX = min(width - 1, Int(max(start.0, end.0) + halfWidth + 1))
        let minY = max(0, Int(min(start.1, end.1) - halfWidth - 1))
        let maxY = min(height - 1, Int(max(start.1, end.1) + halfWidth + 1))
        guard minX <= maxX, minY <= maxY else { return }
        let dx = end.0 - start.0
        let dy = end.1 - start.1
        let lengthSquared = max(dx * dx + dy * dy, 1e-9)
        for y in minY...maxY {
            for x in minX...maxX {
                let px = Double(x) + 0.5 - start.0
                let py = Double(y) + 0.5 - start.1
                let t = min(1, max(0, (px * dx + py * dy) / lengthSquared))
                let distance = ((px - t * dx) * (px - t * dx) + (py - t * dy) * (py - t * dy)).squareRoot()
                blend(&image, x: x, y: y, color: color, coverage: min(1, max(0, halfWidth + 0.5 - distance)))
            }
        }
    }

    /// A disc shaded from a light red centre to a dark red rim, with an anti-aliased edge.
    private func pin(_ image: inout RGBAImage, centerX: Double, centerY: Double, radius: Double) {
        for y in Int(centerY - radius - 1)...Int(centerY + radius + 1) {
            for x in Int(centerX - radius - 1)...Int(centerX + radius + 1) {
                let dx = Double(x) + 0.5 - centerX
                let dy = Double(y) + 0.5 - centerY
                let distance = (dx * dx + dy * dy).squareRoot()
                let shade = min(1, distance / radius)
                let color = RGBAPixel(
                    red: UInt8(250 - 120 * shade), green: UInt8(90 - 70 * shade), blue: UInt8(80 - 60 * shade)
                )
                blend(&image, x: x, y: y, color: color, coverage: min(1, max(0, radius + 0.5 - distance)))
            }
        }
    }

    /// Smooth colour waves with per-pixel grain, like a downscaled photograph.
    private func photo(
        _ image: inout RGBAImage, x left: Int, y top: Int, width: Int, height: Int, random: inout SeededGenerator
    ) {
        for y in top..<(top + height) {
            for x in left..<(left + width) {
                let u = Double(x - left) / Double(width)
                let v = Double(y - top) / Double(height)
                func sample(_ base: Double) -> UInt8 {
                    UInt8(min(255, max(0, base + Double.random(in: -6...6, using: &random))))
                }
                image[x: x, y: y] = RGBAPixel(
                    red: sample(90 + 110 * u + 30 * (6 * v).squareRoot()),
                    green: sample(140 + 60 * v - 40 * u * u),
                    blue: sample(60 + 150 * (1 - v) * u)
                )
            }
        }
    }

    private func blend(_ image: inout RGBAImage, x: Int, y: Int, color: RGBAPixel, coverage: Double) {
        guard coverage > 0, (0..<width).contains(x), (0..<height).contains(y) else { return }
        let under = image[x: x, y: y]
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((Double(top) * coverage + Double(bottom) * (1 - coverage)).rounded())
        }
        image[x: x, y: y] = RGBAPixel(
            red: mix(color.red, under.red), green: mix(color.green, under.green), blue: mix(color.blue, under.blue),
            alpha: under.alpha
        )
    }
}
