/// The signed distance field of an anti-aliased glyph bitmap (FreeType's coverage, 0 to 1 a
/// pixel), as the generator of GL's own glyph ranges (those GL's render-test suite ships) makes
/// it: Stefan Gustavson's anti-aliased Euclidean distance transform, which reads where an edge
/// crosses a pixel from the pixel's coverage and the coverage gradient round it, and carries
/// each pixel's nearest edge pixel to its neighbours in two sweeps until nothing changes.
///
/// The distance is the transform of the background (outside) minus that of the foreground
/// (inside), in pixels; each byte is `255 − clamp(trunc(d × 256 / radius + cutoff × 256))`,
/// 191 on the edge with the defaults (radius 8, cutoff 0.25).
struct CoverageDistanceField {
    /// The bitmap's size in pixels, its buffer included.
    let width: Int, height: Int
    /// Coverage, row-major from the top: 0 outside, 1 inside.
    let coverage: [Double]

    /// The field's bytes, row-major from the top.
    func bytes(radius: Double = 8, cutoff: Double = 0.25) -> [UInt8] {
        let outside = Self.transform(coverage, width: width, height: height)
        let inside = Self.transform(coverage.map { 1 - $0 }, width: width, height: height)
        return (0..<(width * height)).map { index in
            let distance = max(0, outside[index]) - max(0, inside[index])
            let value = distance * 256 / radius + cutoff * 256
            let clamped = value > 255 ? 255 : (value < 0 ? 0 : Int(value))
            return UInt8(255 - clamped)
        }
    }

    /// The coverage gradient of each pixel the edge crosses (0 < coverage < 1) but the border's,
    /// normalized; zero elsewhere.
    private static func gradient(_ image: [Double], width: Int, height: Int) -> (x: [Double], y: [Double]) {
        let root2 = 2.0.squareRoot()
        var gx = [Double](repeating: 0, count: image.count)
        var gy = [Double](repeating: 0, count: image.count)
        guard width > 2, height > 2 else { return (gx, gy) }
        for row in 1..<(height - 1) {
            for column in 1..<(width - 1) {
                let k = row * width + column
                guard image[k] > 0, image[k] < 1 else { continue }
                let x =
                    -image[k - width - 1] - root2 * image[k - 1] - image[k + width - 1] + image[k - width + 1]
                    + root2 * image[k + 1] + image[k + width + 1]
                let y =
                    -image[k - width - 1] - root2 * image[k - width] - image[k - width + 1] + image[k + width - 1]
                    + root2 * image[k + width] + image[k + width + 1]
                let length = (x * x + y * y).squareRoot()
                (gx[k], gy[k]) = length > 0 ? (x / length, y / length) : (x, y)
            }
        }
        return (gx, gy)
    }

    /// The distance from a pixel's centre to the edge through it, estimated from its coverage
    /// `a` and the edge's direction (gx, gy): exact for a straight edge.
    private static func edgeDistance(_ gx: Double, _ gy: Double, _ a: Double) -> Double {
        guard gx != 0, gy != 0 else { return 0.5 - a }
        var gx = gx
        var gy = gy
        let length = (gx * gx + gy * gy).squareRoot()
        if length > 0 {
            gx /= length
            gy /= length
        }
        // Symmetric in sign and transposition: into the first octant (gx ≥ gy ≥ 0).
        gx = abs(gx)
        gy = abs(gy)
        if gx < gy { swap(&gx, &gy) }
        let a1 = 0.5 * gy / gx
        if a < a1 { return 0.5 * (gx + gy) - (2 * gx * gy * a).squareRoot() }
        if a < 1 - a1 { return (0.5 - a) * gx }
        return -0.5 * (gx + gy) + (2 * gx * gy * (1 - a)).squareRoot()
    }

    /// Each pixel's distance to the nearest edge of `image`'s foreground (0 inside it).
    private static func transform(_ image: [Double], width: Int, height: Int) -> [Double] {
        let (gx, gy) = gradient(image, width: width, height: height)
        let count = width * height
        var offsetX = [Int](repeating: 0, count: count)
        var offsetY = [Int](repeating: 0, count: count)
        var distance = (0..<count).map { index -> Double in
            let a = image[index]
            if a <= 0 { return 1_000_000 }
            if a < 1 { return edgeDistance(gx[index], gy[index], a) }
            return 0
        }
        guard width > 1, height > 1 else { return distance }
        var changed = false
        /// Tries the pixel `index + step`'s nearest edge pixel for `index`, one pixel further
        /// by (dx, dy).
        func propagate(_ index: Int, _ step: Int, _ dx: Int, _ dy: Int) {
            let candidate = index + step
            let x = offsetX[candidate] + dx
            let y = offsetY[candidate] + dy
            let closest = candidate - offsetX[candidate] - offsetY[candidate] * width
            let a = min(1, max(0, image[closest]))
            guard a > 0 else { return }
            let straight = Double(x * x + y * y).squareRoot()
            let edge =
                straight == 0
                ? edgeDistance(gx[closest], gy[closest], a) : edgeDistance(Double(x), Double(y), a)
            let new = straight + edge
            if new < distance[index] - 1e-3 {
                offsetX[index] = x
                offsetY[index] = y
                distance[index] = new
                changed = true
            }
        }
        let up = -width
        let down = width
        repeat {
            changed = false
            // Down the rows: from above and the left, then from the right.
            for row in 1..<height {
                var index = row * width
                if distance[index] > 0 {
                    propagate(index, up, 0, 1)
                    propagate(index, up + 1, -1, 1)
                }
                index += 1
                for _ in 1..<max(1, width - 1) {
                    if distance[index] > 0 {
                        propagate(index, -1, 1, 0)
                        propagate(index, up - 1, 1, 1)
                        propagate(index, up, 0, 1)
                        propagate(index, up + 1, -1, 1)
                    }
                    index += 1
                }
                if distance[index] > 0 {
                    propagate(index, -1, 1, 0)
                    propagate(index, up - 1, 1, 1)
                    propagate(index, up, 0, 1)
                }
                index = row * width + width - 2
                for _ in stride(from: width - 2, through: 0, by: -1) {
                    if distance[index] > 0 { propagate(index, 1, -1, 0) }
                    index -= 1
                }
            }
            // Up the rows: from below and the right, then from the left.
            for row in stride(from: height - 2, through: 0, by: -1) {
                var index = row * width + width - 1
                if distance[index] > 0 {
                    propagate(index, down, 0, -1)
                    propagate(index, down - 1, 1, -1)
                }
                index -= 1
                for _ in stride(from: width - 2, to: 0, by: -1) {
                    if distance[index] > 0 {
                        propagate(index, 1, -1, 0)
                        propagate(index, down + 1, -1, -1)
                        propagate(index, down, 0, -1)
                        propagate(index, down - 1, 1, -1)
                    }
                    index -= 1
                }
                if distance[index] > 0 {
                    propagate(index, 1, -1, 0)
                    propagate(index, down + 1, -1, -1)
                    propagate(index, down, 0, -1)
                }
                index = row * width + 1
                for _ in 1..<width {
                    if distance[index] > 0 { propagate(index, -1, 1, 0) }
                    index += 1
                }
            }
        } while changed
        return distance
    }
}
