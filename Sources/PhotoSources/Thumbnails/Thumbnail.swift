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
    /// The square thumbnail of a photo file's bytes, told apart by content as
    /// ``JPEGFolderSource`` reads them: a JPEG as ``init(jpegData:file:pixelSize:)``; a HEIC
    /// decoded by libheif (its stored thumbnail when that is large enough, else its primary
    /// image, turned as the file says); a raw file's embedded JPEG preview (the smallest at least
    /// `pixelSize` on its shorter side, else the largest), turned upright by the raw file's own
    /// Orientation. Its centre square is resampled to `pixelSize`.
    ///
    /// - Throws: ``PhotoSourceError/undecodableImage(file:reason:)``, saying why: libjpeg-turbo's
    ///   or libheif's message, or that a raw file holds no JPEG preview.
    public init(photoData data: Data, file: URL, pixelSize: Int) throws(PhotoSourceError) {
        precondition(pixelSize >= 1, "a thumbnail is at least 1 pixel a side")
        switch PhotoFileKind(data: data) {
        case .heif?:
            do {
                self = try HEIFFile.decodedImage(data, minimumSide: pixelSize).centerSquare(resampledTo: pixelSize)
            } catch {
                switch error {
                case .notHEIF(let reason), .damaged(let reason): throw .undecodableImage(file: file, reason: reason)
                }
            }
        case .tiff?:
            let preview: TIFFFile.EmbeddedJPEG?
            let orientation: Int
            do {
                let tiff = try TIFFFile(data: data)
                preview = try tiff.preview(forSide: pixelSize)
                orientation = ExifMetadata.orientation(try TIFFTagReader(tiff))
            } catch {
                switch error {
                case .notTIFF(let reason), .damaged(let reason): throw .undecodableImage(file: file, reason: reason)
                }
            }
            guard let preview else {
                throw .undecodableImage(file: file, reason: "the raw file holds no embedded JPEG preview")
            }
            let start = data.startIndex + preview.offset
            try self.init(
                jpegData: data[start..<start + preview.length], file: file, pixelSize: pixelSize,
                orientation: orientation)
        case .jpeg?, nil:
            try self.init(jpegData: data, file: file, pixelSize: pixelSize)
        }
    }

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
        try self.init(
            jpegData: data, file: file, pixelSize: pixelSize, orientation: ExifMetadata.orientation(ofJPEG: data))
    }

    /// A JPEG's thumbnail turned by `orientation` (EXIF 1 to 8) rather than by its own tag.
    init(jpegData data: Data, file: URL, pixelSize: Int, orientation: Int) throws(PhotoSourceError) {
        precondition(pixelSize >= 1, "a thumbnail is at least 1 pixel a side")
        let image: RGBAImage
        do { image = try RGBAImage(jpegData: data, minimumSide: pixelSize) } catch {
            guard case .unreadableJPEG(_, let reason) = error else {
                throw .undecodableImage(file: file, reason: "\(error)")
            }
            throw .undecodableImage(file: file, reason: reason)
        }
        let decoded = Thumbnail(width: image.width, height: image.height, rgba: image.pixels)
        self = decoded.oriented(orientation).centerSquare(resampledTo: pixelSize)
    }
}
