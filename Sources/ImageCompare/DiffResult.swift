public import ImageCodec

/// The outcome of comparing two images of the same size.
public struct DiffResult: Hashable, Sendable {
    /// The number of pixels that differ beyond the threshold, anti-aliased ones excluded unless
    /// ``DiffOptions/includeAntiAliased`` is set. This is pixelmatch's return value.
    public var differentPixels: Int
    /// The dimensions shared by both images.
    public var size: ImageSize
    /// The diff image when one was asked for: see ``compare(_:_:options:makeDiffImage:)``.
    public var diffImage: RGBAImage?

    /// Creates a result.
    public init(differentPixels: Int, size: ImageSize, diffImage: RGBAImage? = nil) {
        self.differentPixels = differentPixels
        self.size = size
        self.diffImage = diffImage
    }

    /// The number of pixels compared, `width * height`.
    public var totalPixels: Int { size.pixelCount }

    /// The fraction of pixels that differ, from 0 to 1; 0 for an image without pixels.
    public var ratio: Double {
        totalPixels == 0 ? 0 : Double(differentPixels) / Double(totalPixels)
    }
}
