/// Finds the palette colour nearest to a given one, in ``PremultipliedColor`` space.
///
/// Opaque colours are matched only with opaque entries and translucent ones only with translucent
/// entries (when the palette has any of that kind), so quantizing never makes an opaque pixel
/// see-through or a translucent one solid. Fully transparent colours map to the transparent entry.
///
/// Each kind's entries are sorted along the axis on which they spread most; a search starts at the
/// query's position on that axis and walks outwards until the distance along the axis alone
/// exceeds the best match so far (Friedman, Baskett and Shustek's partial-distance search).
/// Equally near entries resolve to the lowest palette index.
///
/// Coordinates are premultiplied components divided by 16 (0...4064), so that squared distances
/// fit 32-bit lanes, which x86 multiplies natively; a sixteenth of a level is far below what matters.
struct PaletteSearch {
    typealias Point = SIMD4<Int32>

    /// The largest coordinate on any axis, 65025 / 16.
    static let maximumCoordinate = 65_025 >> 4

    @inline(__always)
    static func point(_ color: UInt32) -> Point {
        Point(truncatingIfNeeded: PremultipliedColor(color).components &>> 4)
    }

    private struct Candidates {
        var axis = 0
        /// Each entry's coordinate on `axis`, ascending.
        var axisValues: [Int32] = []
        var points: [Point] = []
        var paletteIndices: [Int] = []
        /// For each coordinate on the axis, the position of the first entry at or past it.
        var firstPositionAtOrPast: [Int32] = []

        init(_ entries: [(index: Int, point: Point)]) {
            guard !entries.isEmpty else { return }
            let low = entries.dropFirst().reduce(entries[0].point) { pointwiseMin($0, $1.point) }
            let high = entries.dropFirst().reduce(entries[0].point) { pointwiseMax($0, $1.point) }
            let spread = high &- low
            axis = (1..<4).reduce(0) { spread[$1] > spread[$0] ? $1 : $0 }
            let sorted = entries.sorted { ($0.point[axis], $0.index) < ($1.point[axis], $1.index) }
            axisValues = sorted.map { $0.point[axis] }
            points = sorted.map(\.point)
            paletteIndices = sorted.map(\.index)
            var position = 0
            firstPositionAtOrPast = (0...Int32(PaletteSearch.maximumCoordinate)).map { value in
                while position < axisValues.count && axisValues[position] < value { position += 1 }
                return Int32(position)
            }
        }

        /// The nearest entry's palette index; `guess`, a position in these candidates or -1, is
        /// measured first, so that a good guess ends the walk sooner. It does not change the answer.
        func nearest(to point: Point, guess: Int) -> (paletteIndex: Int, position: Int) {
            axisValues.withUnsafeBufferPointer { axisValues in
                points.withUnsafeBufferPointer { points in
                    paletteIndices.withUnsafeBufferPointer { paletteIndices in
                        let target = point[axis]
                        var bestDistance = Int32.max
                        var bestIndex = Int.max
                        var bestPosition = 0
                        @inline(__always)
                        func consider(_ position: Int) {
                            let difference = points[position] &- point
                            let distance = (difference &* difference).wrappedSum()
                            let index = paletteIndices[position]
                            if distance < bestDistance || (distance == bestDistance && index < bestIndex) {
                                bestDistance = distance
                                bestIndex = index
                                bestPosition = position
                            }
                        }
                        if guess >= 0 { consider(guess) }
                        let low = Int(firstPositionAtOrPast[Int(target)])
                        var up = low
                        while up < axisValues.count {
                            let gap = axisValues[up] &- target
                            if gap &* gap > bestDistance { break }
                            consider(up)
                            up += 1
                        }
                        var down = low - 1
                        while down >= 0 {
                            let gap = target &- axisValues[down]
                            if gap &* gap > bestDistance { break }
                            consider(down)
                            down -= 1
                        }
                        return (bestIndex, bestPosition)
                    }
                }
            }
        }
    }

    private let opaque: Candidates
    private let translucent: Candidates
    /// The index of the fully transparent entry, or 0 when there is none.
    let transparentIndex: Int

    /// Prepares searches of `palette`, whose colours are ``PackedColor``s.
    init(palette: [UInt32]) {
        let entries = palette.enumerated().map { (index: $0.offset, point: Self.point($0.element)) }
        let visible = entries.filter { palette[$0.index] >= 0x0100_0000 }
        let opaqueEntries = visible.filter { palette[$0.index] >= 0xFF00_0000 }
        let translucentEntries = visible.filter { palette[$0.index] < 0xFF00_0000 }
        let fallback = visible.isEmpty ? entries : visible
        opaque = Candidates(opaqueEntries.isEmpty ? fallback : opaqueEntries)
        translucent = Candidates(translucentEntries.isEmpty ? fallback : translucentEntries)
        transparentIndex = palette.firstIndex(of: 0) ?? 0
    }

    /// Where the last search ended, per kind of colour, to seed the next.
    struct Hint {
        fileprivate var opaque = -1
        fileprivate var translucent = -1
    }

    /// The index of the entry nearest to `color`, a ``PackedColor``, starting from where the search
    /// for a previous (ideally similar) colour ended. The answer is the same whatever the hint.
    func nearest(to color: UInt32, hint: inout Hint) -> Int {
        if color == 0 { return transparentIndex }
        let point = Self.point(color)
        if color >= 0xFF00_0000 {
            let found = opaque.nearest(to: point, guess: hint.opaque)
            hint.opaque = found.position
            return found.paletteIndex
        } else {
            let found = translucent.nearest(to: point, guess: hint.translucent)
            hint.translucent = found.position
            return found.paletteIndex
        }
    }
}
