/// Colours as the quantizer handles them: one pixel's four bytes read as a little-endian `UInt32`,
/// so red is the low byte and alpha the high one. Fully transparent pixels are normalized to 0.
enum PackedColor {
    /// Reads pixel `index` of RGBA8 bytes, with every fully transparent pixel as 0.
    @inline(__always)
    static func load(_ bytes: UnsafeRawBufferPointer, pixel index: Int) -> UInt32 {
        let color = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
        return color < 0x0100_0000 ? 0 : color
    }

    @inline(__always)
    static func make(red: Int, green: Int, blue: Int, alpha: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: red | green << 8 | blue << 16 | alpha << 24)
    }

    static func pixel(_ color: UInt32) -> RGBAPixel {
        RGBAPixel(
            red: UInt8(truncatingIfNeeded: color), green: UInt8(truncatingIfNeeded: color >> 8),
            blue: UInt8(truncatingIfNeeded: color >> 16), alpha: UInt8(truncatingIfNeeded: color >> 24)
        )
    }

    /// The order palettes are sorted in: by alpha, then red, green and blue. Translucent colours
    /// come first, so a PNG's `tRNS` chunk stops at the last of them.
    @inline(__always)
    static func paletteOrder(_ color: UInt32) -> UInt32 {
        (color & 0xFF00_0000) | (color & 0xFF) << 16 | (color & 0xFF00) | (color >> 16 & 0xFF)
    }

    /// A fixed hash (Fibonacci hashing) of `bits` bits: the same in every process, unlike `Hasher`.
    @inline(__always)
    static func hash(_ color: UInt32, bits: Int) -> Int {
        Int(truncatingIfNeeded: (color &* 0x9E37_79B1) >> UInt32(32 - bits))
    }
}

/// Coarse cells of ``PremultipliedColor`` space: 5 bits of each premultiplied colour channel and 5
/// of alpha, 2^20 cells in all. Opaque colours have alpha cell 31 to themselves, so no cell mixes
/// opaque and translucent colours; translucent alphas fall in cells of 8 levels (240...254 in one).
enum ColorCell {
    static let count = 1 << 20
    static let opaqueAlphaCell = 31

    /// The cell of a colour that is not fully transparent.
    @inline(__always)
    static func code(_ color: UInt32, components: SIMD4<Int>) -> Int {
        let alpha = Int(color >> 24)
        let alphaCell = alpha == 255 ? opaqueAlphaCell : min(alpha >> 3, opaqueAlphaCell - 1)
        return (components[0] >> 11) << 15 | (components[1] >> 11) << 10 | (components[2] >> 11) << 5 | alphaCell
    }

    static func isOpaque(_ code: Int) -> Bool { code & 31 == opaqueAlphaCell }

    /// The smallest and largest ``PremultipliedColor`` components of the colours in a cell.
    static func bounds(_ code: Int) -> (low: SIMD4<Int>, high: SIMD4<Int>) {
        let red = code >> 15 & 31
        let green = code >> 10 & 31
        let blue = code >> 5 & 31
        let alphaCell = code & 31
        let alphas =
            alphaCell == opaqueAlphaCell
            ? 255...255
            : max(1, alphaCell << 3)...(alphaCell == opaqueAlphaCell - 1 ? 254 : alphaCell << 3 + 7)
        let low = SIMD4(red << 11, green << 11, blue << 11, alphas.lowerBound * 255)
        let high = SIMD4((red + 1) << 11 - 1, (green + 1) << 11 - 1, (blue + 1) << 11 - 1, alphas.upperBound * 255)
        return (low, high)
    }
}

/// The coordinates colours are compared in: premultiplied by alpha and scaled by 255, so that
/// `(r·a, g·a, b·a, 255·a)` runs over 0...65025 on each axis.
///
/// Euclidean distance here is the error of the colour drawn over any background, which is what a
/// viewer (and `compare`, which blends onto white) sees: the colour of a faint pixel matters
/// little, and that of a fully transparent one not at all.
struct PremultipliedColor {
    var components: SIMD4<Int>

    @inline(__always)
    init(_ color: UInt32) {
        let alpha = Int(color >> 24)
        components = SIMD4(
            Int(color & 0xFF) &* alpha, Int(color >> 8 & 0xFF) &* alpha, Int(color >> 16 & 0xFF) &* alpha, alpha &* 255
        )
    }
}
