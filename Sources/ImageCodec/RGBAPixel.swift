/// One pixel: 8-bit red, green, blue and straight (not premultiplied) alpha.
public struct RGBAPixel: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// Opacity: 0 is fully transparent, 255 fully opaque.
    public var alpha: UInt8

    /// Creates a pixel; the default alpha is 255, opaque.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Fully transparent black, (0, 0, 0, 0).
    public static let transparent = RGBAPixel(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque white.
    public static let white = RGBAPixel(red: 255, green: 255, blue: 255)
    /// Opaque black.
    public static let black = RGBAPixel(red: 0, green: 0, blue: 0)
}
