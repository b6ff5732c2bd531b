/// Finds the palette colour nearest to a given one, in ``PremultipliedColor`` space.
///
/// Opaque colours are matched only with opaque entries and translucent ones only with translucent
/// entries (when the palette has any of that kind), so quantizing never makes an opaque pixel
/// see-through or a translucent one solid. Fully transparent colours map to the transparent entry.
///
/// Searches are local to a ``ColorCell`` (Heckbert's locally sorted search, "Color image
/// quantization for frame buffer display", 1982): the first time a cell is met, it gets the list of
/// entries that can be nearest to some colour in it, those whose least distance to the cell is at
/// most the smallest greatest distance of any entry. A colour is then compared with its cell's
/// list alone, usually a few entries. The lists are in palette order and only a strictly nearer
/// entry replaces the best so far, so equally near entries resolve to the lowest palette index:
/// the answer is the exact nearest entry, as a search of the whole palette would give.
struct PaletteSearch {
    /// Every entry's ``PremultipliedColor`` components, by palette index. Doubles hold them, and
    /// squared distances (below 2^35), exactly, and are multiplied natively in vector lanes.
    private let points: [SIMD4<Double>]
    /// The palette indices an opaque colour may take, ascending.
    private let opaqueCandidates: [Int]
    /// The palette indices a translucent colour may take, ascending.
    private let translucentCandidates: [Int]
    /// The index of the fully transparent entry, or 0 when there is none.
    let transparentIndex: Int

    /// For each cell, its list's number in `listStarts`, or -1 before the cell is first met.
    private var cellLists = [Int32](repeating: -1, count: ColorCell.count)
    /// Where each list starts in `listEntries`; one more than there are lists.
    private var listStarts: [Int] = [0]
    /// The lists' palette indices, one list after another.
    private var listEntries: [UInt8] = []

    /// Prepares searches of `palette`, whose colours are ``PackedColor``s.
    init(palette: [UInt32]) {
        points = palette.map { SIMD4<Double>(PremultipliedColor($0).components) }
        let visible = palette.indices.filter { palette[$0] >= 0x0100_0000 }
        let opaque = visible.filter { palette[$0] >= 0xFF00_0000 }
        let translucent = visible.filter { palette[$0] < 0xFF00_0000 }
        let fallback = visible.isEmpty ? Array(palette.indices) : visible
        opaqueCandidates = opaque.isEmpty ? fallback : opaque
        translucentCandidates = translucent.isEmpty ? fallback : translucent
        transparentIndex = palette.firstIndex(of: 0) ?? 0
    }

    /// The index of the entry nearest to `color`, a ``PackedColor``.
    mutating func nearest(to color: UInt32) -> Int {
        if color == 0 { return transparentIndex }
        let components = PremultipliedColor(color).components
        let code = ColorCell.code(color, components: components)
        let point = SIMD4<Double>(components)
        var list = Int(cellLists[code])
        if list < 0 {
            list = makeList(forCell: code)
            cellLists[code] = Int32(list)
        }
        return points.withUnsafeBufferPointer { points in
            listEntries.withUnsafeBufferPointer { entries in
                var bestDistance = Double.infinity
                var bestIndex = 0
                for position in listStarts[list]..<listStarts[list + 1] {
                    let index = Int(entries[position])
                    let difference = points[index] - point
                    let distance = (difference * difference).sum()
                    if distance < bestDistance {
                        bestDistance = distance
                        bestIndex = index
                    }
                }
                return bestIndex
            }
        }
    }

    /// Appends the list of entries that can be nearest to a colour in the cell, and returns its number.
    private mutating func makeList(forCell code: Int) -> Int {
        let bounds = ColorCell.bounds(code)
        let low = SIMD4<Double>(bounds.low)
        let high = SIMD4<Double>(bounds.high)
        let candidates = ColorCell.isOpaque(code) ? opaqueCandidates : translucentCandidates
        points.withUnsafeBufferPointer { points in
            // The smallest distance from an entry to the cell's farthest point bounds the distance
            // from any colour in the cell to its nearest entry.
            var bound = Double.infinity
            for index in candidates {
                let farthest = Self.lanewiseMax(points[index] - low, high - points[index])
                bound = min(bound, (farthest * farthest).sum())
            }
            for index in candidates {
                let below = Self.lanewiseMax(low - points[index], .zero)
                let above = Self.lanewiseMax(points[index] - high, .zero)
                let outside = below + above
                if (outside * outside).sum() <= bound { listEntries.append(UInt8(index)) }
            }
        }
        listStarts.append(listEntries.count)
        return listStarts.count - 2
    }

    /// `pointwiseMax`, which the standard library leaves generic and out of line.
    @inline(__always)
    private static func lanewiseMax(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
        a.replacing(with: b, where: b .> a)
    }
}
