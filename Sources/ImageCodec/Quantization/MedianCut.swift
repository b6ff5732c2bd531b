/// Chooses up to a given number of palette colours for a ``ColorHistogram``: variance-based median
/// cut (Wan, Prusinkiewicz and Wong, "An algorithm for multidimensional data clustering", 1988),
/// refined by a few rounds of k-means (Lloyd's algorithm) over the buckets.
///
/// Boxes of buckets start as one box of opaque buckets and one of translucent buckets. The box with
/// the largest squared error (weighted by pixel counts) is cut across its axis of largest variance,
/// at the point that leaves the two halves the smallest total squared error, until there are enough
/// boxes or none can be cut. Each box gives the mean colour of its pixels. Opaque and translucent
/// buckets never share a box, so opaque colours stay opaque.
///
/// Every step is a fixed sequence of arithmetic on the histogram, with ties broken by bucket
/// number, so the palette depends on the pixels alone.
enum MedianCut {
    /// Rounds of k-means after the cut. Each pulls entries towards the mean of the buckets nearest
    /// to them, lowering the error a little more each time.
    static let refinementRounds = 2

    /// The colours, as ``PackedColor``s (neither sorted nor deduplicated), for the histogram's
    /// visible pixels; `maximumColorCount` is at least 1.
    static func colors(for histogram: ColorHistogram, maximumColorCount: Int) -> [UInt32] {
        let bucketCount = histogram.bucketCount
        guard bucketCount > 0 else { return [] }
        let weights = histogram.counts.map(Double.init)
        let means = (0..<bucketCount).map { SIMD4<Double>(histogram.sums[$0]) / weights[$0] }

        var order = (0..<bucketCount).filter { histogram.isOpaque[$0] }
        let opaqueCount = order.count
        order += (0..<bucketCount).filter { !histogram.isOpaque[$0] }

        func makeBox(_ range: Range<Int>) -> Box {
            var box = Box(range: range)
            for bucket in order[range] {
                let weighted = weights[bucket] * means[bucket]
                box.count += weights[bucket]
                box.sum += weighted
                box.squares += weighted * means[bucket]
            }
            return box
        }

        var boxes: [Box] = []
        if maximumColorCount >= 2, opaqueCount > 0, opaqueCount < bucketCount {
            boxes = [makeBox(0..<opaqueCount), makeBox(opaqueCount..<bucketCount)]
        } else {
            boxes = [makeBox(0..<bucketCount)]
        }

        while boxes.count < maximumColorCount {
            var chosen: Int?
            for (index, box) in boxes.enumerated() where box.range.count > 1 && box.squaredError > 0 {
                if chosen.map({ box.squaredError > boxes[$0].squaredError }) ?? true { chosen = index }
            }
            guard let chosen else { break }
            let box = boxes[chosen]
            let variances = box.channelErrors
            let axis = (1..<4).reduce(0) { variances[$1] > variances[$0] ? $1 : $0 }
            order[box.range].sort {
                (means[$0][axis], histogram.codes[$0]) < (means[$1][axis], histogram.codes[$1])
            }
            // Minimizing the halves' total squared error maximizes |left sum|²/left count + |right sum|²/right count.
            var left = SIMD4<Double>.zero
            var leftCount = 0.0
            var bestScore = -Double.infinity
            var cut = box.range.lowerBound + 1
            for position in box.range.dropLast() {
                let bucket = order[position]
                left += weights[bucket] * means[bucket]
                leftCount += weights[bucket]
                let right = box.sum - left
                let score = (left * left).sum() / leftCount + (right * right).sum() / (box.count - leftCount)
                if score > bestScore {
                    bestScore = score
                    cut = position + 1
                }
            }
            boxes[chosen] = makeBox(box.range.lowerBound..<cut)
            boxes.append(makeBox(cut..<box.range.upperBound))
        }

        var colors = boxes.map { box in
            meanColor(of: order[box.range], in: histogram)
        }
        for _ in 0..<refinementRounds {
            colors = refined(colors, histogram: histogram, means: means)
        }
        return colors
    }

    /// One round of k-means: every bucket goes to its nearest colour, and each colour becomes the
    /// mean of its buckets' pixels (or stays as it was when no bucket chose it).
    private static func refined(_ colors: [UInt32], histogram: ColorHistogram, means: [SIMD4<Double>]) -> [UInt32] {
        var search = PaletteSearch(palette: colors)
        var counts = [Int](repeating: 0, count: colors.count)
        var sums = [SIMD4<Int>](repeating: .zero, count: colors.count)
        for bucket in 0..<histogram.bucketCount {
            // A colour standing for the bucket's mean, and of the bucket's kind, opaque or not.
            let mean = means[bucket]
            let alpha = histogram.isOpaque[bucket] ? 255 : min(254, max(1, Int((mean[3] / 255).rounded())))
            let scale = 1 / Double(alpha)
            let red = min(255, max(0, Int((mean[0] * scale).rounded())))
            let green = min(255, max(0, Int((mean[1] * scale).rounded())))
            let blue = min(255, max(0, Int((mean[2] * scale).rounded())))
            let nearest = search.nearest(to: PackedColor.make(red: red, green: green, blue: blue, alpha: alpha))
            counts[nearest] += histogram.counts[bucket]
            sums[nearest] &+= histogram.sums[bucket]
        }
        return colors.indices.map { counts[$0] > 0 ? color(count: counts[$0], sum: sums[$0]) : colors[$0] }
    }

    private static func meanColor(of buckets: ArraySlice<Int>, in histogram: ColorHistogram) -> UInt32 {
        var count = 0
        var sum = SIMD4<Int>.zero
        for bucket in buckets {
            count += histogram.counts[bucket]
            sum &+= histogram.sums[bucket]
        }
        return color(count: count, sum: sum)
    }

    /// The mean of `count` pixels whose ``PremultipliedColor`` components add up to `sum`, as a
    /// straight-alpha ``PackedColor``: alpha is the mean alpha, and each colour channel the
    /// alpha-weighted mean. Opaque pixels alone give an opaque colour, translucent ones a translucent one.
    private static func color(count: Int, sum: SIMD4<Int>) -> UInt32 {
        let alphaSum = sum[3] / 255
        let alpha = min(255, max(1, (alphaSum + count / 2) / count))
        func channel(_ weightedSum: Int) -> Int { min(255, (weightedSum + alphaSum / 2) / max(alphaSum, 1)) }
        return PackedColor.make(red: channel(sum[0]), green: channel(sum[1]), blue: channel(sum[2]), alpha: alpha)
    }

    private struct Box {
        var range: Range<Int>
        /// The number of pixels.
        var count = 0.0
        /// The sum of the pixels' components, taking each bucket's pixels at the bucket mean.
        var sum = SIMD4<Double>.zero
        /// The sum of the squares of the pixels' components, likewise.
        var squares = SIMD4<Double>.zero

        init(range: Range<Int>) {
            self.range = range
        }

        /// Each channel's squared error about the box's mean.
        var channelErrors: SIMD4<Double> {
            pointwiseMax(squares - sum * sum / count, .zero)
        }

        var squaredError: Double { channelErrors.sum() }
    }
}
