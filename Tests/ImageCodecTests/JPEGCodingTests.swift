import Foundation
import ImageCodec
import Testing

struct JPEGCodingTests {
    /// 48 x 32 pixels in four flat quadrants, which JPEG keeps close to their colours.
    private func quadrants(width: Int = 48, height: Int = 32) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x: x, y: y] =
                    switch (x < width / 2, y < height / 2) {
                    case (true, true): RGBAPixel(red: 255, green: 0, blue: 0)
                    case (false, true): RGBAPixel(red: 0, green: 255, blue: 0)
                    case (true, false): RGBAPixel(red: 0, green: 0, blue: 255)
                    case (false, false): RGBAPixel(red: 255, green: 255, blue: 255)
                    }
            }
        }
        return image
    }

    @Test func encodedJPEGDecodesToTheSameColoursOpaque() throws {
        let data = try quadrants().jpegData(quality: 95)
        #expect(Array(data.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let decoded = try RGBAImage(jpegData: data)
        #expect(decoded.size == ImageSize(width: 48, height: 32))
        for (x, y, expected) in [
            (5, 5, (255, 0, 0)), (40, 5, (0, 255, 0)), (5, 28, (0, 0, 255)), (40, 28, (255, 255, 255)),
        ] {
            let pixel = decoded[x: x, y: y]
            #expect(abs(Int(pixel.red) - expected.0) < 16, "red at \(x),\(y) is \(pixel)")
            #expect(abs(Int(pixel.green) - expected.1) < 16, "green at \(x),\(y) is \(pixel)")
            #expect(abs(Int(pixel.blue) - expected.2) < 16, "blue at \(x),\(y) is \(pixel)")
            #expect(pixel.alpha == 255)
        }
    }

    @Test func reducedScaleDecodeKeepsTheShorterSideAtLeastTheMinimum() throws {
        let data = try quadrants(width: 800, height: 600).jpegData()
        #expect(try RGBAImage(jpegData: data, minimumSide: 92).size == ImageSize(width: 200, height: 150))
        #expect(try RGBAImage(jpegData: data, minimumSide: 1000).size == ImageSize(width: 800, height: 600))
    }

    @Test func scaledSizeIsTheSmallestScaleNotBelowTheMinimum() {
        #expect(
            // 1/8
            RGBAImage.jpegDecodedSize(width: 4000, height: 3000, minimumSide: 92) == ImageSize(width: 500, height: 375))
        #expect(
            // 1/4
            RGBAImage.jpegDecodedSize(width: 800, height: 600, minimumSide: 92) == ImageSize(width: 200, height: 150))
        #expect(
            // 1/4
            RGBAImage.jpegDecodedSize(width: 800, height: 600, minimumSide: 138) == ImageSize(width: 200, height: 150))
        #expect(
            // 3/8
            RGBAImage.jpegDecodedSize(width: 800, height: 600, minimumSide: 160) == ImageSize(width: 300, height: 225))
        // full
        #expect(RGBAImage.jpegDecodedSize(width: 100, height: 80, minimumSide: 92) == ImageSize(width: 100, height: 80))
    }

    @Test func bytesThatAreNotAJPEGAreRejectedWithAMessage() throws {
        let png = try quadrants().pngData()
        #expect {
            try RGBAImage(jpegData: png)
        } throws: { error in
            guard case ImageCodecError.unreadableJPEG(nil, let reason) = error else { return false }
            return !reason.isEmpty && "\(error)".hasPrefix("not readable JPEG data: ")
        }
        #expect(throws: ImageCodecError.unreadableJPEG(path: nil, reason: "the data is empty")) {
            try RGBAImage(jpegData: Data())
        }
    }

    /// A file cut inside its image data decodes in libjpeg-turbo with a warning and a gray lower
    /// part; it is refused, at full and reduced scale. Extraneous bytes before a marker (common in
    /// camera files) are only a warning and still decode.
    @Test func aJPEGCutInsideItsImageDataIsRefused() throws {
        let data = try quadrants(width: 800, height: 600).jpegData()
        let cut = data.prefix(data.count * 2 / 3)
        let expected = ImageCodecError.unreadableJPEG(
            path: nil, reason: "the file is cut short: its image data ends early")
        #expect(throws: expected) { try RGBAImage(jpegData: cut) }
        #expect(throws: expected) { try RGBAImage(jpegData: cut, minimumSide: 92) }

        var padded = data
        let endOfImage = padded.count - 2
        padded.insert(contentsOf: [0x00, 0x00, 0x00], at: endOfImage)
        #expect(try RGBAImage(jpegData: padded).size == ImageSize(width: 800, height: 600))
    }
}
