import ImageCodec

/// Draws deterministic map-like test images: a gradient background under anti-aliased discs,
/// and a copy with scattered differences (moved discs, stray pixels, a faint tint).
struct SceneGenerator {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// The expected image and the actual one with scattered differences, both `side` pixels square.
    /// The bottom sixteenth is semi-transparent, and half the stray pixels are too, so that
    /// alpha blending is exercised.
    mutating func makePair(side: Int) -> (expected: RGBAImage, actual: RGBAImage) {
        var expected = RGBAImage(width: side, height: side, filledWith: .white)
        for y in 0..<side {
            for x in 0..<side {
                expected[x: x, y: y] = RGBAPixel(
                    red: UInt8(200 + 40 * x / side), green: UInt8(220 + 30 * y / side), blue: 235,
                    alpha: y >= side - side / 16 ? 160 : 255
                )
            }
        }
        var actual = expected
        let discCount = side / 8
        for index in 0..<discCount {
            let disc = Disc(
                centerX: random.nextDouble() * Double(side),
                centerY: random.nextDouble() * Double(side),
                radiusPixels: 3 + random.nextDouble() * Double(side) / 64,
                color: RGBAPixel(red: random.nextByte(), green: random.nextByte(), blue: random.nextByte())
            )
            disc.draw(into: &expected)
            // Every 16th disc is drawn one pixel to the right in the actual image.
            (index % 16 == 0 ? disc.moved(byX: 1) : disc).draw(into: &actual)
        }
        for _ in 0..<(side * side / 4096) {
            let x = Int(random.next() % UInt64(side))
            let y = Int(random.next() % UInt64(side))
            let alpha = random.next() % 2 == 0 ? 255 : random.nextByte()
            actual[x: x, y: y] = RGBAPixel(
                red: random.nextByte(), green: random.nextByte(), blue: random.nextByte(), alpha: alpha
            )
        }
        // A faint tint over a block: below the default threshold, so not counted.
        for y in 0..<(side / 16) {
            for x in 0..<(side / 16) {
                var pixel = actual[x: x, y: y]
                pixel.blue = pixel.blue &- 3
                actual[x: x, y: y] = pixel
            }
        }
        return (expected, actual)
    }
}

/// A filled circle with an anti-aliased edge (coverage by distance from the rim).
private struct Disc {
    var centerX: Double
    var centerY: Double
    var radiusPixels: Double
    var color: RGBAPixel

    func moved(byX offset: Double) -> Disc {
        var disc = self
        disc.centerX += offset
        return disc
    }

    func draw(into image: inout RGBAImage) {
        let minX = max(0, Int(centerX - radiusPixels - 1))
        let maxX = min(image.width - 1, Int(centerX + radiusPixels + 1))
        let minY = max(0, Int(centerY - radiusPixels - 1))
        let maxY = min(image.height - 1, Int(centerY + radiusPixels + 1))
        guard minX <= maxX, minY <= maxY else { return }
        for y in minY...maxY {
            for x in minX...maxX {
                let dx = Double(x) + 0.5 - centerX
                let dy = Double(y) + 0.5 - centerY
                let coverage = min(1, max(0, radiusPixels + 0.5 - (dx * dx + dy * dy).squareRoot()))
                guard coverage > 0 else { continue }
                let under = image[x: x, y: y]
                func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
                    UInt8((Double(top) * coverage + Double(bottom) * (1 - coverage)).rounded())
                }
                image[x: x, y: y] = RGBAPixel(
                    red: mix(color.red, under.red), green: mix(color.green, under.green),
                    blue: mix(color.blue, under.blue)
                )
            }
        }
    }
}

/// Sebastiano Vigna's SplitMix64: a tiny deterministic generator, so runs draw the same images.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in [0, 1).
    mutating func nextDouble() -> Double { Double(next() >> 11) / Double(1 << 53) }

    mutating func nextByte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
