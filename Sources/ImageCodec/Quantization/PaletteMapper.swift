/// Replaces each pixel by the index of its nearest palette colour.
///
/// Nearest colours (see ``PaletteSearch``) are remembered in a direct-mapped cache of 65,536
/// colours keyed by a fixed hash, so each distinct colour is usually searched for once; runs of one
/// colour skip even the cache.
struct PaletteMapper {
    private static let cacheBits = 16

    private let search: PaletteSearch
    private let palette: [UInt32]

    init(palette: [UInt32]) {
        self.palette = palette
        search = PaletteSearch(palette: palette)
    }

    func indices(of bytes: UnsafeRawBufferPointer, width: Int, height: Int, dithering: Bool) -> [UInt8] {
        let pixelCount = width * height
        // Colour 0 (transparent) is never cached, so it marks an empty slot.
        var cacheKeys = [UInt32](repeating: 0, count: 1 << Self.cacheBits)
        var cacheIndices = [UInt8](repeating: 0, count: 1 << Self.cacheBits)
        let transparentIndex = UInt8(search.transparentIndex)
        var search = search

        return [UInt8](unsafeUninitializedCapacity: pixelCount) { output, initializedCount in
            cacheKeys.withUnsafeMutableBufferPointer { cacheKeys in
                cacheIndices.withUnsafeMutableBufferPointer { cacheIndices in
                    @inline(__always)
                    func nearest(_ color: UInt32) -> UInt8 {
                        if color == 0 { return transparentIndex }
                        let slot = PackedColor.hash(color, bits: Self.cacheBits)
                        if cacheKeys[slot] == color { return cacheIndices[slot] }
                        let index = UInt8(search.nearest(to: color))
                        cacheKeys[slot] = color
                        cacheIndices[slot] = index
                        return index
                    }

                    if dithering {
                        diffuseErrors(bytes, width: width, height: height, into: output, nearest: nearest)
                    } else {
                        var previous: UInt32 = 0
                        var previousIndex = transparentIndex
                        for pixel in 0..<pixelCount {
                            let color = PackedColor.load(bytes, pixel: pixel)
                            if color != previous {
                                previous = color
                                previousIndex = nearest(color)
                            }
                            output[pixel] = previousIndex
                        }
                    }
                }
            }
            initializedCount = pixelCount
        }
    }

    /// Floyd–Steinberg error diffusion over the opaque pixels: each one's rounding error in red,
    /// green and blue is spread to its right and lower neighbours (7/16, 3/16, 5/16, 1/16), and
    /// used by those that are opaque. Translucent and transparent pixels are mapped without it.
    private func diffuseErrors(
        _ bytes: UnsafeRawBufferPointer, width: Int, height: Int, into output: UnsafeMutableBufferPointer<UInt8>,
        nearest: (UInt32) -> UInt8
    ) {
        // Errors in sixteenths, three per column, with a spare column at each end.
        var current = [Int](repeating: 0, count: (width + 2) * 3)
        var next = current
        for y in 0..<height {
            swap(&current, &next)
            for offset in next.indices { next[offset] = 0 }
            for x in 0..<width {
                let pixel = y * width + x
                let color = PackedColor.load(bytes, pixel: pixel)
                guard color >= 0xFF00_0000 else {
                    output[pixel] = nearest(color)
                    continue
                }
                let column = (x + 1) * 3
                let red = min(255, max(0, Int(color & 0xFF) + (current[column] + 8) >> 4))
                let green = min(255, max(0, Int(color >> 8 & 0xFF) + (current[column + 1] + 8) >> 4))
                let blue = min(255, max(0, Int(color >> 16 & 0xFF) + (current[column + 2] + 8) >> 4))
                let index = nearest(PackedColor.make(red: red, green: green, blue: blue, alpha: 255))
                output[pixel] = index
                let chosen = palette[Int(index)]
                let errors =
                    SIMD3(red, green, blue)
                    &- SIMD3(Int(chosen & 0xFF), Int(chosen >> 8 & 0xFF), Int(chosen >> 16 & 0xFF))
                for channel in 0..<3 {
                    let error = errors[channel]
                    current[column + 3 + channel] += 7 * error
                    next[column - 3 + channel] += 3 * error
                    next[column + channel] += 5 * error
                    next[column + 3 + channel] += error
                }
            }
        }
    }
}
