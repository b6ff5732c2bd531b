import Foundation
import ImageCodec
import MapTestSupport
import Testing

struct PalettePNGTests {
    @Test func imageWithAtMost256ColoursRoundTripsExactly() throws {
        // A quantized map holds at most 256 colours, anti-aliased, translucent and transparent ones included.
        let image = MapScene(width: 200, height: 120).draw().quantized().expanded()
        #expect(try RGBAImage(pngData: image.pngData(colorMode: .palette)) == image)
        #expect(try RGBAImage(pngData: image.pngData(compressionLevel: 0, colorMode: .palette)) == image)
    }

    @Test func headerSaysPaletteColourTypeAt8Bits() throws {
        let png = try MapScene(width: 64, height: 48).draw().pngData(colorMode: .palette)
        // IHDR's data starts after the 8-byte signature, 4-byte length and 4-byte type:
        // width (4), height (4), bit depth, colour type.
        #expect(png[24] == 8)
        #expect(png[25] == 3)
        #expect(
            try RGBAImage(width: 2, height: 2, filledWith: RGBAPixel(red: 255, green: 255, blue: 255, alpha: 128))
                .pngData()[25] == 6)
    }

    @Test func transparencyIsStoredInATRNSChunk() throws {
        var image = RGBAImage(width: 3, height: 1, filledWith: .white)
        image[x: 0, y: 0] = .transparent
        image[x: 1, y: 0] = RGBAPixel(red: 10, green: 20, blue: 30, alpha: 77)
        let png = try image.pngData(colorMode: .palette)
        let chunks = chunkTypes(png)
        #expect(chunks == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
        #expect(try RGBAImage(pngData: png) == image)
        // Translucent entries come first, so tRNS stops before the opaque white.
        #expect(chunkData("tRNS", in: png) == Data([0, 77]))
    }

    @Test func opaqueImageHasNoTRNSChunkNorTimeChunk() throws {
        let png = try RGBAImage(width: 5, height: 5, filledWith: .black).pngData(colorMode: .palette)
        #expect(chunkTypes(png) == ["IHDR", "PLTE", "IDAT", "IEND"])
    }

    @Test func encodingTwiceGivesTheSameBytes() throws {
        let image = MapScene(width: 320, height: 200).draw()
        #expect(try image.pngData(colorMode: .palette) == image.pngData(colorMode: .palette))
        #expect(
            try image.pngData(compressionLevel: 9, colorMode: .palette)
                == image.pngData(compressionLevel: 9, colorMode: .palette))
    }

    @Test func paletteFileIsSmallerThanRGBAForAMap() throws {
        let image = MapScene(width: 480, height: 320).draw()
        let rgba = try image.pngData()
        let palette = try image.pngData(colorMode: .palette)
        #expect(palette.count * 2 < rgba.count, "palette \(palette.count) bytes, RGBA \(rgba.count) bytes")
    }

    @Test func writePNGWritesThePaletteFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("map.png")
        let image = MapScene(width: 64, height: 48).draw()
        try image.writePNG(to: url, compressionLevel: 9, colorMode: .palette)
        #expect(try Data(contentsOf: url) == image.pngData(compressionLevel: 9, colorMode: .palette))
        let dithered = directory.appendingPathComponent("dithered.png")
        try image.quantized(maximumColorCount: 8, dithering: true).writePNG(to: dithered)
        #expect(
            try RGBAImage(contentsOf: dithered) == image.quantized(maximumColorCount: 8, dithering: true).expanded())
    }

    @Test func emptyImageIsATypedError() {
        #expect(throws: ImageCodecError.self) { try RGBAImage(width: 0, height: 3).pngData(colorMode: .palette) }
    }

    // MARK: - Chunks

    private func chunks(_ png: Data) -> [(type: String, data: Data)] {
        var result: [(String, Data)] = []
        var offset = png.startIndex + 8
        while offset + 8 <= png.endIndex {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            result.append((type, Data(png[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return result
    }

    private func chunkTypes(_ png: Data) -> [String] { chunks(png).map(\.type) }

    private func chunkData(_ type: String, in png: Data) -> Data? { chunks(png).first { $0.type == type }?.data }
}
