/// A `line-dasharray` as MapLibre's line atlas stores it: one period of the pattern in a row of
/// 256 texels of signed distance to the nearest dash end (128 at the end, more inside a dash, one
/// step per texel, clamped to a byte), sampled as a GL texture (linear, repeating along the line),
/// so ``LineRasteriser`` can fade dash ends as GL's `line_sdf` shader does.
///
/// With round caps there are 15 rows across the line (7 either side of the centre row) whose
/// distances make round dash ends; otherwise one row. An odd-length array joins its last dash to
/// the first.
struct LineDashField {
    /// The atlas's width in texels.
    static let widthTexels = 256
    /// The rows, from the line's left side (row 0) to its right, each ``widthTexels`` values
    /// of 0...255.
    let rows: [[Float]]
    /// The pattern's length in multiples of the line width (the sum of the array).
    let length: Double

    /// The field of `dashes` (multiples of the line width), with round ends when `round`;
    /// `nil` for a solid line: no length is positive, or a single dash runs on into itself (GL
    /// joins an odd array's last dash to its first).
    init?(_ dashes: [Double], round: Bool) {
        let dashes = dashes.map { max(0, $0) }
        let length = dashes.reduce(0, +)
        guard dashes.count >= 2, length > 0 else { return nil }
        self.length = length
        let n = round ? 7 : 0
        let width = Self.widthTexels
        let stretch = Double(width) / length
        let halfWidth = stretch / 2
        let oddLength = dashes.count % 2 == 1
        var rows: [[Float]] = []
        for y in -n...n {
            var row = [Float](repeating: 0, count: width)
            var left = oddLength ? -dashes[dashes.count - 1] : 0
            var right = dashes[0]
            var part = 1
            for x in 0..<width {
                while right < Double(x) / stretch {
                    left = right
                    right += dashes[part % dashes.count]
                    if oddLength, part == dashes.count - 1 { right += dashes[0] }
                    part += 1
                }
                let distance = min(abs(Double(x) - left * stretch), abs(Double(x) - right * stretch))
                let inside = part % 2 == 1
                let signed: Double
                if round {
                    let fromMiddle = n > 0 ? Double(y) / Double(n) * (halfWidth + 1) : 0
                    if inside {
                        let fromEdge = halfWidth - abs(fromMiddle)
                        signed = (distance * distance + fromEdge * fromEdge).squareRoot()
                    } else {
                        signed = halfWidth - (distance * distance + fromMiddle * fromMiddle).squareRoot()
                    }
                } else {
                    signed = inside ? distance : -distance
                }
                row[x] = Float(max(0, min(255, signed + 128)).rounded(.down))
            }
            rows.append(row)
        }
        self.rows = rows
    }

    /// The field at `along` periods from the line's start and `side` across it (−1 on the
    /// right, 1 on the left, GL's interpolated normal), in 0...1, bilinear as GL samples it.
    func value(along: Double, side: Double) -> Double {
        let texel = along * Double(Self.widthTexels) - 0.5
        let floorTexel = texel.rounded(.down)
        let fraction = texel - floorTexel
        var x0 = Int(floorTexel) % Self.widthTexels
        if x0 < 0 { x0 += Self.widthTexels }
        let x1 = x0 + 1 == Self.widthTexels ? 0 : x0 + 1
        func sample(_ row: [Float]) -> Double {
            Double(row[x0]) + (Double(row[x1]) - Double(row[x0])) * fraction
        }
        let value: Double
        if rows.count == 1 {
            value = sample(rows[0])
        } else {
            let n = Double(rows.count / 2)
            let position = min(Double(rows.count - 1), max(0, n - side * n))
            let lower = Int(position.rounded(.down))
            let upper = min(rows.count - 1, lower + 1)
            let rowFraction = position - Double(lower)
            let a = sample(rows[lower])
            let b = sample(rows[upper])
            value = a + (b - a) * rowFraction
        }
        return value / 255
    }
}
