import ImageCodec

/// Draws a deterministic map-like image for timing palette PNG encoding: flat land, water and park
/// fills, anti-aliased roads with casings, short dark strokes standing in for label glyphs, pins
/// shaded with a radial gradient, photo-like thumbnails, a translucent band and a transparent margin.
struct MapSceneGenerator {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func makeMap(width: Int, height: Int) -> RGBAImage {
        var canvas = Canvas(
            image: RGBAImage(width: width, height: height, filledWith: RGBAPixel(red: 242, green: 239, blue: 233)))
        canvas.fill(x: 0..<(width / 3), y: (height / 2)..<height, with: RGBAPixel(red: 170, green: 211, blue: 223))
        for _ in 0..<12 {
            let x = Int(random.next() % UInt64(width * 7 / 8))
            let y = Int(random.next() % UInt64(height * 7 / 8))
            canvas.fill(
                x: x..<(x + width / 10), y: y..<(y + height / 10), with: RGBAPixel(red: 200, green: 230, blue: 201))
        }
        for _ in 0..<40 {
            let from = point(width, height)
            let to = point(width, height)
            canvas.stroke(from: from, to: to, halfWidth: 5, color: RGBAPixel(red: 214, green: 200, blue: 170))
            canvas.stroke(from: from, to: to, halfWidth: 3.5, color: .white)
        }
        for _ in 0..<(width * height / 400) {
            let (x, y) = point(width - 8, height - 8)
            canvas.stroke(
                from: (x, y), to: (x + 4, y + 6), halfWidth: 0.6, color: RGBAPixel(red: 51, green: 51, blue: 51))
        }
        for _ in 0..<60 {
            let (x, y) = point(width - 30, height - 30)
            canvas.pin(centerX: x + 15, centerY: y + 15, radius: 12)
        }
        for _ in 0..<4 {
            let x = Int(random.next() % UInt64(width - 240))
            let y = Int(random.next() % UInt64(height - 160))
            canvas.photo(x: x, y: y, width: 240, height: 160, random: &random)
        }
        for y in (height - height / 12)..<height {
            for x in 0..<width {
                var pixel = canvas.image[x: x, y: y]
                pixel.alpha = 160
                canvas.image[x: x, y: y] = pixel
            }
        }
        canvas.fill(x: (width - width / 40)..<width, y: 0..<height, with: .transparent)
        return canvas.image
    }

    private mutating func point(_ width: Int, _ height: Int) -> (Double, Double) {
        (random.nextDouble() * Double(width), random.nextDouble() * Double(height))
    }
}

private struct Canvas {
    var image: RGBAImage

    mutating func fill(x columns: Range<Int>, y rows: Range<Int>, with color: RGBAPixel) {
        for y in rows.clamped(to: 0..<image.height) {
            for x in columns.clamped(to: 0..<image.width) { image[x: x, y: y] = color }
        }
    }

    /// A line `halfWidth` pixels either side of its axis, its edge anti-aliased by coverage.
    mutating func stroke(from start: (Double, Double), to end: (Double, Double), halfWidth: Double, color: RGBAPixel) {
        let dx = end.0 - start.0
        let dy = end.1 - start.1
        let lengthSquared = max(dx * dx + dy * dy, 1e-9)
        for (x, y) in pixels(
            minX: min(start.0, end.0) - halfWidth - 1, maxX: max(start.0, end.0) + halfWidth + 1,
            minY: min(start.1, end.1) - halfWidth - 1, maxY: max(start.1, end.1) + halfWidth + 1)
        {
            let px = Double(x) + 0.5 - start.0
            let py = Double(y) + 0.5 - start.1
            let t = min(1, max(0, (px * dx + py * dy) / lengthSquared))
            let distance = ((px - t * dx) * (px - t * dx) + (py - t * dy) * (py - t * dy)).squareRoot()
            blend(x: x, y: y, color: color, coverage: halfWidth + 0.5 - distance)
        }
    }

    /// A disc shaded from a light red centre to a dark red rim, with an anti-aliased edge.
    mutating func pin(centerX: Double, centerY: Double, radius: Double) {
        for (x, y) in pixels(
            minX: centerX - radius - 1, maxX: centerX + radius + 1,
            minY: centerY - radius - 1, maxY: centerY + radius + 1)
        {
            let dx = Double(x) + 0.5 - centerX
            let dy = Double(y) + 0.5 - centerY
            let distance = (dx * dx + dy * dy).squareRoot()
            let shade = min(1, distance / radius)
            let color = RGBAPixel(
                red: UInt8(250 - 120 * shade), green: UInt8(90 - 70 * shade), blue: UInt8(80 - 60 * shade))
            blend(x: x, y: y, color: color, coverage: radius + 0.5 - distance)
        }
    }

    /// Smooth colour waves with per-pixel grain, like a downscaled photograph.
    mutating func photo(x left: Int, y top: Int, width: Int, height: Int, random: inout SplitMix64) {
        for y in top..<(top + height) {
            for x in left..<(left + width) {
                let u = Double(x - left) / Double(width)
                let v = Double(y - top) / Double(height)
                func sample(_ base: Double) -> UInt8 {
                    UInt8(min(255, max(0, base + (random.nextDouble() - 0.5) * 12)))
                }
                image[x: x, y: y] = RGBAPixel(
                    red: sample(90 + 110 * u + 30 * (6 * v).squareRoot()), green: sample(140 + 60 * v - 40 * u * u),
                    blue: sample(60 + 150 * (1 - v) * u)
                )
            }
        }
    }

    /// The pixels of the image within the bounds, row by row.
    private func pixels(minX: Double, maxX: Double, minY: Double, maxY: Double) -> [(Int, Int)] {
        let columns = max(0, Int(minX))...max(0, min(image.width - 1, Int(maxX)))
        let rows = max(0, Int(minY))...max(0, min(image.height - 1, Int(maxY)))
        return rows.flatMap { y in columns.map { x in (x, y) } }
    }

    private mutating func blend(x: Int, y: Int, color: RGBAPixel, coverage: Double) {
        let coverage = min(1, max(0, coverage))
        guard coverage > 0 else { return }
        let under = image[x: x, y: y]
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((Double(top) * coverage + Double(bottom) * (1 - coverage)).rounded())
        }
        image[x: x, y: y] = RGBAPixel(
            red: mix(color.red, under.red), green: mix(color.green, under.green), blue: mix(color.blue, under.blue)
        )
    }
}
