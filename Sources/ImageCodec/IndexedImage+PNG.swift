import CPNGShim
public import Foundation
import MapUtilities

extension IndexedImage {
    /// Encodes the image as an 8-bit palette PNG (colour type 3), not interlaced.
    ///
    /// The palette becomes the `PLTE` chunk. When a colour is not opaque, a `tRNS` chunk holds the
    /// alphas up to the last such colour, so a palette that lists its translucent colours first
    /// (as ``RGBAImage/quantized(maximumColorCount:dithering:)``'s do) keeps the chunk short.
    /// No time or text chunk is written: identical inputs give identical bytes.
    ///
    /// - Parameter compressionLevel: zlib's level, from 0 (store, fastest) to 9 (smallest).
    ///   The default is 6, zlib's own default.
    /// - Returns: The PNG file's bytes.
    /// - Throws: ``ImageCodecError/unencodablePNG(reason:)`` when libpng refuses the image, for
    ///   example one with no pixels.
    public func pngData(compressionLevel: Int = 6) throws(ImageCodecError) -> Data {
        precondition((0...9).contains(compressionLevel), "PNG compression levels run from 0 to 9")
        guard width > 0, height > 0 else { throw .unencodablePNG(reason: "the image has no pixels (\(size))") }
        let paletteBytes = palette.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }
        return try PNGEncoder.encode { output, message in
            indices.withUnsafeBufferPointer { indexBuffer in
                mw_png_write_palette(
                    indexBuffer.baseAddress, UInt32(width), UInt32(height), paletteBytes, Int32(palette.count),
                    Int32(compressionLevel), output, message
                )
            }
        }
    }

    /// Writes the image as a palette PNG file, atomically (MapUtilities' `AtomicFile`: a temporary file renamed into place).
    ///
    /// - Parameters:
    ///   - url: The destination; its directory must exist.
    ///   - compressionLevel: zlib's level, from 0 to 9. The default is 6.
    /// - Throws: ``ImageCodecError/unencodablePNG(reason:)`` or ``ImageCodecError/unwritableFile(path:reason:)``.
    public func writePNG(to url: URL, compressionLevel: Int = 6) throws(ImageCodecError) {
        let data = try pngData(compressionLevel: compressionLevel)
        do throws(MapUtilitiesError) {
            try AtomicFile.write(data, to: url)
        } catch {
            throw .unwritableFile(path: error.path, reason: error.reason)
        }
    }
}
