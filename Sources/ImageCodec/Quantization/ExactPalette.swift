/// The distinct colours of an image that has few of them, and the index of each pixel's colour.
///
/// Colours are collected in a fixed-size open-addressing table with a fixed hash, and the palette
/// is sorted by ``PackedColor/paletteOrder(_:)``: nothing depends on Swift's per-process hash seed.
struct ExactPalette {
    /// A table of 1024 slots holds up to 256 colours at a load of at most a quarter.
    private static let tableBits = 10
    /// Marks an empty slot: alpha 0 with a nonzero red never occurs, as transparent pixels are 0.
    private static let empty: UInt32 = 1

    private var keys = [UInt32](repeating: ExactPalette.empty, count: 1 << ExactPalette.tableBits)
    private var slotIndices = [UInt8](repeating: 0, count: 1 << ExactPalette.tableBits)
    /// The distinct colours, sorted.
    private(set) var colors: [UInt32] = []

    /// Collects the colours of `pixelCount` pixels, or returns nil as soon as there are more than `limit`.
    init?(_ bytes: UnsafeRawBufferPointer, pixelCount: Int, limit: Int) {
        var found: [UInt32] = []
        var previous: UInt32 = Self.empty
        keys.withUnsafeMutableBufferPointer { keys in
            for pixel in 0..<pixelCount {
                let color = PackedColor.load(bytes, pixel: pixel)
                if color == previous { continue }
                previous = color
                var slot = PackedColor.hash(color, bits: Self.tableBits)
                while keys[slot] != color {
                    if keys[slot] == Self.empty {
                        keys[slot] = color
                        found.append(color)
                        break
                    }
                    slot = (slot &+ 1) & (keys.count - 1)
                }
                if found.count > limit { return }
            }
        }
        guard found.count <= limit else { return nil }
        colors = found.sorted { PackedColor.paletteOrder($0) < PackedColor.paletteOrder($1) }
        for (index, color) in colors.enumerated() {
            slotIndices[slot(of: color)] = UInt8(index)
        }
    }

    private func slot(of color: UInt32) -> Int {
        var slot = PackedColor.hash(color, bits: Self.tableBits)
        while keys[slot] != color { slot = (slot &+ 1) & (keys.count - 1) }
        return slot
    }

    /// The palette index of every pixel.
    func indices(of bytes: UnsafeRawBufferPointer, pixelCount: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: pixelCount) { output, initializedCount in
            keys.withUnsafeBufferPointer { keys in
                slotIndices.withUnsafeBufferPointer { slotIndices in
                    var previous: UInt32 = Self.empty
                    var previousIndex: UInt8 = 0
                    for pixel in 0..<pixelCount {
                        let color = PackedColor.load(bytes, pixel: pixel)
                        if color != previous {
                            var slot = PackedColor.hash(color, bits: Self.tableBits)
                            while keys[slot] != color { slot = (slot &+ 1) & (keys.count - 1) }
                            previous = color
                            previousIndex = slotIndices[slot]
                        }
                        output[pixel] = previousIndex
                    }
                }
            }
            initializedCount = pixelCount
        }
    }
}
