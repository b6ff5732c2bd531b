/// A small square image for a callout: 8-bit RGBA pixels, straight (not premultiplied) alpha.
///
/// Rows run top to bottom, pixels left to right, four bytes each (red, green, blue, alpha). A
/// thumbnail made from a JPEG is opaque: every alpha byte is 255.
public struct Thumbnail: Hashable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height * 4` bytes, RGBA, row after row.
    public var rgba: [UInt8]

    /// Creates a thumbnail from its pixels.
    ///
    /// - Precondition: `rgba.count == width * height * 4`.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(width >= 0 && height >= 0 && rgba.count == width * height * 4, "RGBA size does not match")
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The red, green, blue and alpha bytes of the pixel at column `x`, row `y`.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let offset = (y * width + x) * 4
        return (rgba[offset], rgba[offset + 1], rgba[offset + 2], rgba[offset + 3])
    }
}
