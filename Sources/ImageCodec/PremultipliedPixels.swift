import CPNGShim
import Dispatch
public import Foundation
import MapUtilities

/// Premultiplied-alpha ARGB32 pixels borrowed from their owner for the length of a call: one
/// native-endian 32-bit word a pixel, alpha in the top byte, rows ``rowBytes`` apart (Cairo's
/// `CAIRO_FORMAT_ARGB32` image surfaces hold this format).
///
/// A renderer's canvas is encoded from this view without first making a straight-alpha
/// ``RGBAImage`` of it: each row is converted as the encoder filters it, on the encoder's cores,
/// and no image-sized copy is made. The bytes equal those of the same pixels converted to an
/// ``RGBAImage`` (``rgbaImage()``) and encoded with the same arguments.
public struct PremultipliedPixels {
    /// The first row's first pixel.
    public let base: UnsafePointer<UInt8>
    /// The distance between rows, in bytes: at least ``width`` × 4.
    public let rowBytes: Int
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int

    /// A view of `height` rows of `width` pixels at `base`, `rowBytes` apart. The memory must stay
    /// valid and unchanged while the view is used.
    public init(base: UnsafePointer<UInt8>, rowBytes: Int, width: Int, height: Int) {
        precondition(width >= 0 && height >= 0 && rowBytes >= width * 4, "rows hold at least their pixels")
        self.base = base
        self.rowBytes = rowBytes
        self.width = width
        self.height = height
    }

    /// The one pixel word every pixel has, or nil when they differ (or there are none): a
    /// uniform image (open sea, an empty overlay tile) encodes alike wherever it is.
    public var uniformWord: UInt32? {
        guard width > 0, height > 0 else { return nil }
        let first = UnsafeRawPointer(base).loadUnaligned(as: UInt32.self)
        for row in 0..<height {
            let words = UnsafeRawPointer(base + row * rowBytes).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width where words[column] != first { return nil }
        }
        return first
    }

    /// The pixels with straight alpha: a transparent pixel all zero, an opaque one its channels,
    /// any other each channel × 255 / alpha rounded, at most 255. Large images are converted in
    /// chunks of rows on every core.
    public func rgbaImage() -> RGBAImage {
        let width = width
        let height = height
        let rowBytes = rowBytes
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, count in
            let chunkRows = max(1, (1 << 18) / max(1, width))
            let chunks = (height + chunkRows - 1) / chunkRows
            // Each chunk writes only its own rows of `output` and reads the borrowed pixels'.
            let shared = UnsafeTransfer((output, base))
            let convert: @Sendable (Int) -> Void = { chunk in
                let (output, base) = shared.wrappedValue
                let first = chunk * chunkRows
                let end = min(height, (chunk + 1) * chunkRows)
                guard let out = output.baseAddress, first < end else { return }
                mw_unpremultiply_argb32(base + first * rowBytes, rowBytes, out + first * width * 4, width, end - first)
            }
            if chunks > 1 { DispatchQueue.concurrentPerform(iterations: chunks, execute: convert) } else { convert(0) }
            count = width * height * 4
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The pixels as an 8-bit PNG, RGB when every pixel is opaque, else RGBA: the bytes
    /// ``RGBAImage/pngData(compressionLevel:colorMode:filtering:)`` gives for ``rgbaImage()`` with
    /// the colour mode ``PNGColorMode/rgba``.
    ///
    /// - Parameters:
    ///   - compressionLevel: zlib's level, from 0 to 9. The default is 6, zlib's own default.
    ///   - filtering: The row filters. The default is ``PNGFiltering/adaptive``.
    /// - Throws: ``ImageCodecError/unencodablePNG(reason:)`` for an image with no pixels.
    public func pngData(compressionLevel: Int = 6, filtering: PNGFiltering = .adaptive) throws(ImageCodecError) -> Data
    {
        precondition((0...9).contains(compressionLevel), "PNG compression levels run from 0 to 9")
        guard width > 0, height > 0 else {
            throw .unencodablePNG(reason: "the image has no pixels (\(ImageSize(width: width, height: height)))")
        }
        var parallel = PNGEncoder.bands(width: width, height: height)
        return try PNGEncoder.encode { output, message in
            mw_png_write_premultiplied_argb32(
                base, rowBytes, UInt32(width), UInt32(height), Int32(compressionLevel),
                filtering == .adaptive ? 1 : 0, &parallel, output, message)
        }
    }
}
