/// Turning a decoded photo into a callout thumbnail: upright, square, at the exact size.
extension Thumbnail {
    /// The image turned upright for an EXIF Orientation (EXIF 2.32 §4.6.4 A, tag 0x0112).
    ///
    /// 1 is upright; 2 mirrored; 3 turned 180°; 4 flipped; 5 transposed; 6 needs a quarter turn
    /// clockwise; 7 transversed; 8 needs a quarter turn counterclockwise. Other values leave it as is.
    func oriented(_ orientation: Int) -> Thumbnail {
        guard (2...8).contains(orientation) else { return self }
        let (w, h) = (width, height)
        let swapsSides = orientation >= 5
        let (outWidth, outHeight) = swapsSides ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: rgba.count)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                let (sourceX, sourceY): (Int, Int)
                switch orientation {
                case 2: (sourceX, sourceY) = (w - 1 - x, y)
                case 3: (sourceX, sourceY) = (w - 1 - x, h - 1 - y)
                case 4: (sourceX, sourceY) = (x, h - 1 - y)
                case 5: (sourceX, sourceY) = (y, x)
                case 6: (sourceX, sourceY) = (y, h - 1 - x)
                case 7: (sourceX, sourceY) = (w - 1 - y, h - 1 - x)
                default: (sourceX, sourceY) = (w - 1 - y, x)  // 8
                }
                let from = (sourceY * w + sourceX) * 4
                let to = (y * outWidth + x) * 4
                out[to..<to + 4] = rgba[from..<from + 4]
            }
        }
        return Thumbnail(width: outWidth, height: outHeight, rgba: out)
    }

    /// The centered square of the image, as wide as its shorter side, resampled to `size` × `size`.
    ///
    /// Shrinking averages the source pixels each output pixel covers (an area-weighted box
    /// filter); enlarging interpolates bilinearly.
    func centerSquare(resampledTo size: Int) -> Thumbnail {
        let side = min(width, height)
        guard side > 0, size > 0 else { return Thumbnail(width: 0, height: 0, rgba: []) }
        let columns = Self.weights(start: (width - side) / 2, length: side, count: size)
        let rows = Self.weights(start: (height - side) / 2, length: side, count: size)

        // Columns first, into floats: `size` columns by `height` rows.
        var horizontal = [Float](repeating: 0, count: size * height * 4)
        for y in 0..<height {
            for (x, taps) in columns.enumerated() {
                for (sourceX, weight) in taps {
                    let from = (y * width + sourceX) * 4
                    let to = (y * size + x) * 4
                    for channel in 0..<4 { horizontal[to + channel] += weight * Float(rgba[from + channel]) }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: size * size * 4)
        for (y, taps) in rows.enumerated() {
            for x in 0..<size {
                var sum: (Float, Float, Float, Float) = (0, 0, 0, 0)
                for (sourceY, weight) in taps {
                    let from = (sourceY * size + x) * 4
                    sum.0 += weight * horizontal[from]
                    sum.1 += weight * horizontal[from + 1]
                    sum.2 += weight * horizontal[from + 2]
                    sum.3 += weight * horizontal[from + 3]
                }
                let to = (y * size + x) * 4
                out[to] = Self.byte(sum.0)
                out[to + 1] = Self.byte(sum.1)
                out[to + 2] = Self.byte(sum.2)
                out[to + 3] = Self.byte(sum.3)
            }
        }
        return Thumbnail(width: size, height: size, rgba: out)
    }

    /// For each of `count` output pixels, the source pixels in `start..<start + length` it draws on
    /// and their weights, which add up to 1.
    private static func weights(start: Int, length: Int, count: Int) -> [[(index: Int, weight: Float)]] {
        let scale = Double(length) / Double(count)
        let last = start + length - 1
        return (0..<count).map { output in
            if scale >= 1 {
                // Box: every source pixel the output pixel covers, by how much of it it covers.
                let from = Double(output) * scale
                let to = from + scale
                return (Int(from)..<min(length, Int(to.rounded(.up)))).compactMap { index in
                    let covered = min(to, Double(index + 1)) - max(from, Double(index))
                    return covered > 0 ? (start + index, Float(covered / scale)) : nil
                }
            }
            // Bilinear: the two source pixels around the output pixel's center.
            let center = (Double(output) + 0.5) * scale - 0.5
            let below = center.rounded(.down)
            let fraction = Float(center - below)
            let left = min(last, max(start, start + Int(below)))
            let right = min(last, left + 1)
            return [(left, 1 - fraction), (right, fraction)]
        }
    }

    private static func byte(_ value: Float) -> UInt8 { UInt8(min(255, max(0, value.rounded()))) }
}
