public import Foundation
import ImageCodec

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

extension Thumbnail {
    /// The square thumbnail of a JPEG's bytes: decoded at a reduced scale (never below the
    /// thumbnail's side) by ImageCodec's libjpeg-turbo path, turned upright by its EXIF
    /// Orientation, its centre square resampled to `pixelSize`.
    ///
    /// - Parameters:
    ///   - data: The JPEG file's bytes.
    ///   - file: The file, for messages.
    ///   - pixelSize: The side in pixels; at least 1.
    /// - Throws: ``PhotoSourceError/undecodableImage(file:reason:)``.
    public init(jpegData data: Data, file: URL, pixelSize: Int) throws(PhotoSourceError) {
        precondition(pixelSize >= 1, "a thumbnail is at least 1 pixel a side")
        let image: RGBAImage
        do { image = try RGBAImage(jpegData: data, minimumSide: pixelSize) } catch {
            guard case .unreadableJPEG(_, let reason) = error else { throw .undecodableImage(file: file, reason: "\(error)") }
            throw .undecodableImage(file: file, reason: reason)
        }
        let decoded = Thumbnail(width: image.width, height: image.height, rgba: image.pixels)
        self = decoded.oriented(ExifMetadata.orientation(ofJPEG: data)).centerSquare(resampledTo: pixelSize)
    }
}
