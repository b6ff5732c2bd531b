extension GlyphOutline {
    /// The outline's bounding box rounded to whole pixels, as node-fontnik rounds it; nil when
    /// it is empty or has no width or height (a blank glyph).
    var roundedBounds: (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for ring in rings {
            for point in ring {
                minX = min(minX, point.x)
                minY = min(minY, point.y)
                maxX = max(maxX, point.x)
                maxY = max(maxY, point.y)
            }
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
        // C's round(): halves away from zero.
        let bounds = (
            minX: Int(minX.rounded()), minY: Int(minY.rounded()), maxX: Int(maxX.rounded()), maxY: Int(maxY.rounded())
        )
        guard bounds.maxX > bounds.minX, bounds.maxY > bounds.minY else { return nil }
        return bounds
    }

    /// The signed distance field of the outline in its rounded bounding box with `buffer`
    /// pixels round it, as node-fontnik's `RenderSDF` makes it: `(width + 2 buffer) × (height +
    /// 2 buffer)` bytes, row-major from the top. Each pixel's centre (x + 0.5, y + 0.5) is
    /// `d` pixels from the nearest segment, negative inside (even-odd over all rings), and its
    /// byte is `255 − clamp(trunc(d × 256 / radius + cutoff × 256), 0, 255)`: 191 on the outline.
    ///
    /// Only segments whose bounding box is within `radius` of a pixel are measured (fontnik
    /// queries an R-tree with the same box); a pixel farther than that from every segment is
    /// 0 outside and 255 inside, as the clamp makes any distance past 6 px anyway.
    func signedDistanceField(
        bounds: (minX: Int, minY: Int, maxX: Int, maxY: Int), buffer: Int = 3, radius: Double = 8, cutoff: Double = 0.25
    ) -> [UInt8] {
        let width = bounds.maxX - bounds.minX + 2 * buffer
        let height = bounds.maxY - bounds.minY + 2 * buffer
        let offsetX = Double(buffer - bounds.minX)
        let offsetY = Double(buffer - bounds.minY)
        // Segments in bitmap coordinates (y up from the bitmap's bottom edge).
        var segments: [Segment] = []
        for ring in rings where ring.count > 1 {
            for index in 1..<ring.count {
                segments.append(
                    Segment(
                        x1: ring[index - 1].x + offsetX, y1: ring[index - 1].y + offsetY, x2: ring[index].x + offsetX,
                        y2: ring[index].y + offsetY))
            }
        }
        // Segments by the bitmap rows whose pixel centres are within `radius` of their box.
        var rowsSegments = [[Int]](repeating: [], count: height)
        for (index, segment) in segments.enumerated() {
            let low = max(0, Int((min(segment.y1, segment.y2) - radius - 0.5).rounded(.up)))
            let high = min(height - 1, Int((max(segment.y1, segment.y2) + radius - 0.5).rounded(.down)))
            if low <= high { for row in low...high { rowsSegments[row].append(index) } }
        }
        var bitmap = [UInt8](repeating: 0, count: width * height)
        var crossings: [Double] = []
        let scale = 256 / radius
        for y in 0..<height {
            let py = Double(y) + 0.5
            // Where the row's centre line crosses the outline, for the even-odd test.
            crossings.removeAll(keepingCapacity: true)
            for segment in segments where (segment.y1 > py) != (segment.y2 > py) {
                crossings.append((segment.x2 - segment.x1) * (py - segment.y1) / (segment.y2 - segment.y1) + segment.x1)
            }
            crossings.sort()
            var crossed = 0
            let near = rowsSegments[y]
            let row = (height - y - 1) * width
            for x in 0..<width {
                let px = Double(x) + 0.5
                // Crossings right of the centre: an odd count is inside.
                while crossed < crossings.count && crossings[crossed] <= px { crossed += 1 }
                let inside = (crossings.count - crossed) % 2 == 1
                var nearest = Double.infinity
                for index in near {
                    let segment = segments[index]
                    if px < min(segment.x1, segment.x2) - radius || px > max(segment.x1, segment.x2) + radius {
                        continue
                    }
                    nearest = min(nearest, segment.squaredDistance(px, py))
                }
                var d = nearest.squareRoot() * scale
                if inside { d = -d }
                d += cutoff * 256
                let n = d > 255 ? 255 : d < 0 ? 0 : Int(d)
                bitmap[row + x] = UInt8(255 - n)
            }
        }
        return bitmap
    }

    private struct Segment {
        var x1: Double, y1: Double, x2: Double, y2: Double

        /// The squared distance from (px, py) to the segment.
        func squaredDistance(_ px: Double, _ py: Double) -> Double {
            let dx = x2 - x1
            let dy = y2 - y1
            let lengthSquared = dx * dx + dy * dy
            var t = lengthSquared > 0 ? ((px - x1) * dx + (py - y1) * dy) / lengthSquared : 0
            t = min(1, max(0, t))
            let ex = x1 + t * dx - px
            let ey = y1 + t * dy - py
            return ex * ex + ey * ey
        }
    }
}
