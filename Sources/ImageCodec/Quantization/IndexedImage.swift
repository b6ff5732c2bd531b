/// An image whose pixels are indices into a palette of at most 256 RGBA colours: the contents of
/// a PNG of colour type 3.
///
/// ``RGBAImage/quantized(maximumColorCount:dithering:)`` makes one from an RGBA image, and
/// ``pngData(compressionLevel:)`` encodes it.
///
/// For example:
/// ```swift
/// let indexed = render.quantized(maximumColorCount: 64)
/// try indexed.writePNG(to: URL(filePath: "map.png"), compressionLevel: 9)
/// ```
public struct IndexedImage: Hashable, Sendable {
    /// The number of columns, in pixels.
    public let width: Int
    /// The number of rows, in pixels.
    public let height: Int
    /// The colours, 1 to 256 of them, with straight alpha.
    public let palette: [RGBAPixel]
    /// `width * height` indices into ``palette``, row-major from the top-left corner, no row padding.
    public let indices: [UInt8]

    /// Wraps `indices`, which must hold `width * height` indices, each below `palette.count`.
    public init(width: Int, height: Int, palette: [RGBAPixel], indices: [UInt8]) {
        precondition(width >= 0 && height >= 0, "image dimensions must not be negative")
        precondition((1...256).contains(palette.count), "a palette holds 1 to 256 colours, not \(palette.count)")
        precondition(
            indices.count == width * height,
            "\(width)x\(height) indexed pixels need \(width * height) indices, not \(indices.count)"
        )
        precondition(
            palette.count == 256 || indices.allSatisfy { Int($0) < palette.count },
            "an index is past the end of the \(palette.count)-colour palette"
        )
        self.width = width
        self.height = height
        self.palette = palette
        self.indices = indices
    }

    /// The image's dimensions.
    public var size: ImageSize { ImageSize(width: width, height: height) }

    /// The image with every index replaced by its palette colour.
    public func expanded() -> RGBAImage {
        let table = palette.map {
            UInt32($0.red) | UInt32($0.green) << 8 | UInt32($0.blue) << 16 | UInt32($0.alpha) << 24
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: indices.count * 4) { output, initializedCount in
            let raw = UnsafeMutableRawBufferPointer(output)
            for (offset, index) in indices.enumerated() {
                raw.storeBytes(of: table[Int(index)].littleEndian, toByteOffset: offset * 4, as: UInt32.self)
            }
            initializedCount = indices.count * 4
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
