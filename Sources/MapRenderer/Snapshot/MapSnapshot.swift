public import Foundation
public import ImageCodec
public import MapCore

/// A rendered map image and the viewport it shows (MapKit's MKMapSnapshotter.Snapshot).
public struct MapSnapshot: Sendable {
    /// The pixels: the viewport's size in points × its scale.
    public let image: RGBAImage
    /// The viewport the image shows.
    public let viewport: Viewport
    /// Whether raster imagery was drawn: it decides the PNG row filters.
    let hasRasterLayers: Bool

    /// The image as PNG bytes: unfiltered rows for flat-colour vector maps (faster and smaller),
    /// PNG's adaptive filters when raster imagery was drawn.
    ///
    /// - Parameters:
    ///   - compressionLevel: zlib level, 0 to 9. The default is 1, the fastest (ISA-L's igzip, in
    ///     bands on every core; see ``RGBAImage/pngData(compressionLevel:colorMode:filtering:)``).
    ///   - palette: Whether the image is reduced to an 8-bit palette (smaller, lossy). The default is false.
    public func pngData(compressionLevel: Int = 1, palette: Bool = false) throws(ImageCodecError) -> Data {
        try image.pngData(
            compressionLevel: compressionLevel, colorMode: palette ? .palette : .rgba,
            filtering: hasRasterLayers ? .adaptive : .none)
    }

    /// Writes ``pngData(compressionLevel:palette:)`` to a file atomically (temporary file, then rename).
    public func writePNG(to url: URL, compressionLevel: Int = 1, palette: Bool = false) throws(ImageCodecError) {
        try image.writePNG(
            to: url, compressionLevel: compressionLevel, colorMode: palette ? .palette : .rgba,
            filtering: hasRasterLayers ? .adaptive : .none)
    }

    /// Where a coordinate appears in the image, in points (multiply by the scale for pixels);
    /// `nil` behind the camera.
    public func point(for coordinate: Coordinate) -> ViewPoint? {
        viewport.point(for: coordinate)
    }
}
