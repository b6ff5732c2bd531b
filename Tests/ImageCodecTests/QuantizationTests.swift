import Foundation
import ImageCodec
import ImageCompare
import Testing

struct QuantizationTests {
    // MARK: - Few colours: exact

    @Test func imageWithAtMost256ColoursKeepsThemExactly() throws {
        let image = makeImage(colorCount: 256)
        let indexed = image.quantized()
        #expect(indexed.palette.count == 256)
        #expect(indexed.expanded() == image)
    }

    @Test func exactPaletteIsSortedWithTranslucentColoursFirst() {
        var image = RGBAImage(width: 4, height: 1, filledWith: .white)
        image[x: 0, y: 0] = RGBAPixel(red: 9, green: 9, blue: 9, alpha: 128)
        image[x: 1, y: 0] = .black
        image[x: 2, y: 0] = RGBAPixel(red: 200, green: 0, blue: 0, alpha: 0)
        let indexed = image.quantized()
        #expect(indexed.palette == [.transparent, RGBAPixel(red: 9, green: 9, blue: 9, alpha: 128), .black, .white])
        #expect(indexed.indices == [1, 2, 0, 3])
    }

    @Test func fullyTransparentPixelsShareOneTransparentEntry() {
        var image = RGBAImage(width: 300, height: 1, filledWith: .white)
        for x in 0..<300 {
            // 300 different colours, all invisible.
            image[x: x, y: 0] = RGBAPixel(red: UInt8(x % 256), green: UInt8(x / 256), blue: 1, alpha: 0)
        }
        let indexed = image.quantized()
        #expect(indexed.palette == [.transparent])
        #expect(indexed.expanded() == RGBAImage(width: 300, height: 1))
    }

    @Test func maximumColorCountBoundsTheExactPalette() {
        let image = makeImage(colorCount: 20)
        #expect(image.quantized(maximumColorCount: 20).expanded() == image)
        let reduced = image.quantized(maximumColorCount: 8)
        #expect(reduced.palette.count <= 8)
        #expect(reduced.expanded() != image)
    }

    // MARK: - Many colours: median cut

    @Test func mapWithManyColoursQuantizesWithFewVisibleDifferences() throws {
        let image = MapScene(width: 480, height: 320).draw()
        let indexed = image.quantized()
        #expect(indexed.palette.count <= 256)
        let result = try compare(image, indexed.expanded())
        // 1% of pixels may differ visibly; only the photo's grain (4% of the image) is at risk.
        #expect(result.ratio < 0.01, "\(result.differentPixels) of \(result.totalPixels) pixels differ")
    }

    @Test func smoothGradientQuantizesWithSmallError() throws {
        var image = RGBAImage(width: 256, height: 256)
        for y in 0..<256 {
            for x in 0..<256 {
                image[x: x, y: y] = RGBAPixel(red: UInt8(x), green: UInt8(y), blue: UInt8((x + y) / 2))
            }
        }
        let expanded = image.quantized().expanded()
        // 65,536 colours in 256 entries: cells of about 16 levels on a side, so errors of up to
        // about 8 per channel. pixelmatch's default threshold, 0.1, is about 19 levels of gray.
        #expect(try compare(image, expanded).ratio < 0.01)
        #expect(maximumChannelError(image, expanded) <= 16)
    }

    @Test func opaquePixelsStayOpaqueAndTranslucentOnesKeepTheirAlpha() {
        let image = MapScene(width: 240, height: 160).draw()
        let expanded = image.quantized().expanded()
        for y in 0..<image.height {
            for x in 0..<image.width {
                let original = image[x: x, y: y].alpha
                let quantized = expanded[x: x, y: y].alpha
                if original == 255 || original == 0 {
                    #expect(quantized == original)
                } else {
                    #expect(quantized < 255 && quantized > 0)
                }
            }
        }
    }

    @Test func quantizingTwiceGivesTheSamePaletteAndIndices() {
        let image = MapScene(width: 300, height: 200).draw()
        #expect(image.quantized() == image.quantized())
        #expect(
            image.quantized(maximumColorCount: 32, dithering: true)
                == image.quantized(maximumColorCount: 32, dithering: true))
    }

    @Test func quantizedOutputMatchesTheRecordedChecksum() {
        // Recorded from this implementation. A dependence on Swift's per-process hash seed (a
        // Dictionary or Set iterated in its order) would change this from one run to the next.
        let indexed = MapScene(width: 300, height: 200).draw().quantized()
        let bytes = Data(indexed.palette.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] } + indexed.indices)
        #expect(crc32(bytes) == Self.recordedChecksum, "checksum \(crc32(bytes))")
    }

    private static let recordedChecksum: UInt32 = 1_644_854_982

    @Test func reducedPaletteHoldsAtMostTheRequestedColours() throws {
        let image = MapScene(width: 300, height: 200).draw()
        for count in [2, 3, 16, 100] {
            let indexed = image.quantized(maximumColorCount: count)
            #expect(indexed.palette.count <= count)
            #expect(indexed.palette.contains(.transparent))
        }
    }

    @Test func ditheringSpreadsErrorOnlyAcrossOpaquePixels() throws {
        let image = MapScene(width: 240, height: 160).draw()
        let plain = image.quantized(maximumColorCount: 16)
        let dithered = image.quantized(maximumColorCount: 16, dithering: true)
        #expect(plain.palette == dithered.palette)
        #expect(plain.indices != dithered.indices)
        for offset in plain.indices.indices where image.pixels[offset * 4 + 3] < 255 {
            #expect(plain.indices[offset] == dithered.indices[offset])
        }
    }

    // MARK: - Fixtures

    /// An image of 16x16 pixels holding `colorCount` distinct colours, some translucent, one transparent.
    private func makeImage(colorCount: Int) -> RGBAImage {
        var image = RGBAImage(width: 16, height: 16)
        for index in 0..<256 {
            let colour = index % colorCount
            let alpha: UInt8 = colour == 0 ? 0 : colour % 5 == 0 ? UInt8(colour) : 255
            image[x: index % 16, y: index / 16] =
                colour == 0
                ? .transparent
                : RGBAPixel(red: UInt8(colour), green: UInt8(255 - colour), blue: UInt8(colour * 7 % 256), alpha: alpha)
        }
        return image
    }

    private func maximumChannelError(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}
