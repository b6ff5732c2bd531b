/// Pixel counts and colour sums over coarse buckets of premultiplied colour, the input to median cut.
///
/// A bucket is a ``ColorCell``: 8 levels of each premultiplied channel and of alpha, except that
/// opaque pixels have an alpha cell of their own, so no bucket mixes opaque and translucent pixels.
/// Each bucket keeps the exact sums of its pixels, so a flat fill alone in its bucket keeps its
/// exact colour. Fully transparent pixels are only counted.
///
/// Buckets are numbered in the order the scan first meets them, through a dense table with one
/// slot per bucket: the result depends on the pixels alone.
struct ColorHistogram {
    /// The number of pixels in each bucket.
    private(set) var counts: [Int] = []
    /// The sums of each bucket's pixels' ``PremultipliedColor`` components.
    private(set) var sums: [SIMD4<Int>] = []
    /// Whether each bucket holds opaque pixels (otherwise translucent ones).
    private(set) var isOpaque: [Bool] = []
    /// The bucket numbers, for breaking ties in a fixed way.
    private(set) var codes: [Int32] = []
    /// The number of fully transparent pixels.
    private(set) var transparentCount = 0

    init(_ bytes: UnsafeRawBufferPointer, pixelCount: Int) {
        var slots = [Int32](repeating: -1, count: ColorCell.count)
        // Runs of one colour are counted first and added to their bucket at once.
        var runColor = PackedColor.load(bytes, pixel: 0)
        var runLength = 0
        for pixel in 0..<pixelCount {
            let color = PackedColor.load(bytes, pixel: pixel)
            if color == runColor {
                runLength &+= 1
            } else {
                add(runColor, times: runLength, slots: &slots)
                runColor = color
                runLength = 1
            }
        }
        add(runColor, times: runLength, slots: &slots)
    }

    private mutating func add(_ color: UInt32, times count: Int, slots: inout [Int32]) {
        guard color != 0 else {
            transparentCount &+= count
            return
        }
        let components = PremultipliedColor(color).components
        let code = ColorCell.code(color, components: components)
        var bucket = Int(slots[code])
        if bucket < 0 {
            bucket = counts.count
            slots[code] = Int32(bucket)
            counts.append(0)
            sums.append(.zero)
            isOpaque.append(ColorCell.isOpaque(code))
            codes.append(Int32(code))
        }
        counts[bucket] &+= count
        sums[bucket] &+= components &* count
    }

    /// The number of non-empty buckets.
    var bucketCount: Int { counts.count }
}
