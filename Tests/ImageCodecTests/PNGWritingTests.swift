import Foundation
import ImageCodec
import Testing

struct PNGWritingTests {
    /// A 64 × 32 image of soft gradients and flat blocks; `alpha` for every pixel.
    private func makeImage(alpha: UInt8) -> RGBAImage {
        var image = RGBAImage(width: 64, height: 32)
        for y in 0..<32 {
            for x in 0..<64 {
                image[x: x, y: y] = x < 32
                    ? RGBAPixel(red: UInt8(x * 4), green: UInt8(y * 8), blue: 200, alpha: alpha)
                    : RGBAPixel(red: 242, green: 239, blue: 233, alpha: alpha)
            }
        }
        return image
    }

    /// The IHDR colour type byte: 2 RGB, 6 RGBA.
    private func colorType(_ png: Data) -> UInt8 { png[png.startIndex + 25] }

    @Test(arguments: [PNGFiltering.adaptive, .none])
    func opaqueImagesAreWrittenAsRGBAndReadBackExactly(filtering: PNGFiltering) throws {
        let image = makeImage(alpha: 255)
        let png = try image.pngData(filtering: filtering)
        #expect(colorType(png) == 2)
        #expect(try RGBAImage(pngData: png) == image)
    }

    @Test(arguments: [PNGFiltering.adaptive, .none])
    func translucentImagesKeepTheirAlpha(filtering: PNGFiltering) throws {
        var image = makeImage(alpha: 255)
        image[x: 3, y: 3] = RGBAPixel(red: 10, green: 20, blue: 30, alpha: 128)
        let png = try image.pngData(filtering: filtering)
        #expect(colorType(png) == 6)
        #expect(try RGBAImage(pngData: png) == image)
    }
}
