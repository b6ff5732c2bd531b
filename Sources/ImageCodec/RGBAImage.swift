/// An image held in memory as 8-bit RGBA pixels with straight alpha.
///
/// The pixels are stored row by row from the top-left corner, four bytes per pixel (red, green,
/// blue, alpha) and no padding between rows, so pixel (x, y) starts at byte `(y * width + x) * 4`.
/// This is the layout pixelmatch, pngjs and Cairo's unpremultiplied output use.
///
/// For example:
/// ```swift
/// var image = RGBAImage(width: 2, height: 1, filledWith: .white)
/// image[x: 1, y: 0] = RGBAPixel(red: 255, green: 0, blue: 0)
/// try image.writePNG(to: URL(filePath: "red-dot.png"))
/// ```
public struct RGBAImage: Hashable, Sendable {
    /// The number of columns, in pixels.
    public let width: Int
    /// The number of rows, in pixels.
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A for each pixel, row-major, no row padding.
    public private(set) var pixels: [UInt8]

    /// Wraps `pixels`, which must hold exactly `width * height * 4` bytes in this type's layout.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "image dimensions must not be negative")
        precondition(
            pixels.count == width * height * 4,
            "\(width)x\(height) RGBA pixels need \(width * height * 4) bytes, not \(pixels.count)"
        )
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Creates an image of `width` by `height` pixels, all equal to `pixel`.
    ///
    /// The default fill is ``RGBAPixel/transparent``.
    public init(width: Int, height: Int, filledWith pixel: RGBAPixel = .transparent) {
        precondition(width >= 0 && height >= 0, "image dimensions must not be negative")
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        if pixel != .transparent {
            for offset in stride(from: 0, to: pixels.count, by: 4) {
                pixels[offset] = pixel.red
                pixels[offset + 1] = pixel.green
                pixels[offset + 2] = pixel.blue
                pixels[offset + 3] = pixel.alpha
            }
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The image's dimensions.
    public var size: ImageSize { ImageSize(width: width, height: height) }

    /// The pixel in column `x` and row `y`, counted from the top-left corner.
    public subscript(x x: Int, y y: Int) -> RGBAPixel {
        get {
            let offset = byteOffset(x: x, y: y)
            return RGBAPixel(
                red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2], alpha: pixels[offset + 3]
            )
        }
        set {
            let offset = byteOffset(x: x, y: y)
            pixels[offset] = newValue.red
            pixels[offset + 1] = newValue.green
            pixels[offset + 2] = newValue.blue
            pixels[offset + 3] = newValue.alpha
        }
    }

    private func byteOffset(x: Int, y: Int) -> Int {
        precondition((0..<width).contains(x) && (0..<height).contains(y), "pixel (\(x), \(y)) is outside \(size)")
        return (y * width + x) * 4
    }
}
