/// The dimensions of an image, in pixels.
public struct ImageSize: Hashable, Sendable, CustomStringConvertible {
    /// The number of columns, in pixels.
    public var width: Int
    /// The number of rows, in pixels.
    public var height: Int

    /// Creates a size of `width` by `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The number of pixels, `width * height`.
    public var pixelCount: Int { width * height }

    /// The size as `WIDTHxHEIGHT`, for example `1024x768`.
    public var description: String { "\(width)x\(height)" }
}
