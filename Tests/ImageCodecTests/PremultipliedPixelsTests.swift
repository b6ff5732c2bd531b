import Foundation
import ImageCodec
import Testing

/// Premultiplied pixels (a canvas's, in Cairo's format) encode to the bytes their straight-alpha
/// conversion encodes to, without the conversion.
struct PremultipliedPixelsTests {
    /// `height` rows of `width` premultiplied ARGB32 words, `rowBytes` apart: flat opaque blocks,
    /// soft gradients, translucent and transparent pixels (each channel at most its alpha, as a
    /// premultiplied pixel holds it), from a fixed seed.
    private func words(width: Int, height: Int, rowBytes: Int, opaque: Bool) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 33)
        }
        var bytes = [UInt8](repeating: 0xEE, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<width {
                let alpha: UInt32 = opaque || x < width / 2 ? 255 : [0, 1, 64, 128, 254, 255][Int(next() % 6)]
                let gradient = UInt32((x * 255) / max(1, width - 1))
                let channels: [UInt32] = x % 40 < 20 ? [242, 239, 233] : [gradient, UInt32(y % 256), next() % 256]
                let premultiplied = channels.map { ($0 * alpha + 127) / 255 }
                let word = alpha << 24 | premultiplied[0] << 16 | premultiplied[1] << 8 | premultiplied[2]
                withUnsafeBytes(of: word.littleEndian) {
                    bytes.replaceSubrange(y * rowBytes + x * 4..<y * rowBytes + x * 4 + 4, with: $0)
                }
            }
        }
        return bytes
    }

    @Test(arguments: [(PNGFiltering.none, 1), (.adaptive, 1), (.none, 6), (.adaptive, 9)])
    func encodesAsItsStraightAlphaImageEncodes(filtering: PNGFiltering, level: Int) throws {
        // Rows wider than their pixels (a tile cut from a wider canvas), a million pixels and more
        // (encoded in bands on every core), translucent and opaque.
        for (width, height, opaque) in [(300, 70, false), (300, 70, true), (1100, 1000, false), (1100, 1000, true)] {
            let rowBytes = width * 4 + 36
            let bytes = words(width: width, height: height, rowBytes: rowBytes, opaque: opaque)
            try bytes.withUnsafeBufferPointer { buffer in
                let pixels = PremultipliedPixels(
                    base: buffer.baseAddress!, rowBytes: rowBytes, width: width, height: height)
                let image = pixels.rgbaImage()
                let direct = try pixels.pngData(compressionLevel: level, filtering: filtering)
                let converted = try image.pngData(compressionLevel: level, filtering: filtering)
                #expect(direct == converted, "\(width)x\(height) opaque: \(opaque)")
                // The colour type follows the pixels: RGB when every one is opaque.
                #expect(direct[direct.startIndex + 25] == (opaque ? 2 : 6))
                #expect(try RGBAImage(pngData: direct) == image)
            }
        }
    }

    @Test func oneTranslucentPixelInTheLastBandKeepsTheAlphaChannel() throws {
        // The opacity is checked band by band on every core: a pixel in the last row counts.
        let (width, height) = (1100, 1000)
        var bytes = words(width: width, height: height, rowBytes: width * 4, opaque: true)
        let last = (height - 1) * width * 4 + (width - 1) * 4
        bytes.replaceSubrange(last..<last + 4, with: [0x40, 0x40, 0x40, 0x80])  // 50% grey, premultiplied
        try bytes.withUnsafeBufferPointer { buffer in
            let pixels = PremultipliedPixels(
                base: buffer.baseAddress!, rowBytes: width * 4, width: width, height: height)
            let png = try pixels.pngData(compressionLevel: 1)
            #expect(png[png.startIndex + 25] == 6)
            #expect(try RGBAImage(pngData: png) == pixels.rgbaImage())
        }
    }

    @Test func straightAlphaUndoesThePremultiplication() {
        // Opaque, transparent, half and nearly transparent, in Cairo's native-endian words.
        let words: [UInt32] = [0xFF10_2030, 0x0000_0000, 0x8040_2000, 0x0101_0000]
        let bytes = words.flatMap { word in withUnsafeBytes(of: word.littleEndian) { Array($0) } }
        let image = bytes.withUnsafeBufferPointer { buffer in
            PremultipliedPixels(base: buffer.baseAddress!, rowBytes: 16, width: 4, height: 1).rgbaImage()
        }
        #expect(image.pixels == [0x10, 0x20, 0x30, 255, 0, 0, 0, 0, 128, 64, 0, 128, 255, 0, 0, 1])
    }

    @Test func aUniformImageHasItsOneWord() {
        let uniform = [UInt8](repeating: 7, count: 4 * 4 * 3)
        let varied = uniform.enumerated().map { $0.offset == 45 ? UInt8(8) : $0.element }
        uniform.withUnsafeBufferPointer { buffer in
            #expect(
                PremultipliedPixels(base: buffer.baseAddress!, rowBytes: 16, width: 4, height: 3).uniformWord
                    == 0x0707_0707)
        }
        varied.withUnsafeBufferPointer { buffer in
            #expect(
                PremultipliedPixels(base: buffer.baseAddress!, rowBytes: 16, width: 4, height: 3).uniformWord == nil)
            // The pixels past a row's width are not the image's.
            #expect(
                PremultipliedPixels(base: buffer.baseAddress!, rowBytes: 16, width: 3, height: 3).uniformWord
                    == 0x0707_0707)
        }
    }
}
