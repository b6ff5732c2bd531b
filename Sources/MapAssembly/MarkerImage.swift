import Foundation
public import ImageCodec
public import MapCore
import MapUtilities
/// A custom marker drawn instead of pins: a PNG, @2x (64 × 64 pixels is 32 × 32 points).
public enum MarkerImage {
    /// The PNG at `path`, decoded (once per run: the caller keeps it) and checked to fit in a
    /// map of `size` points.
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming `--marker-image` when the file cannot
    ///   be read as a PNG, or when the marker is wider or taller than the map.
    public static func load(_ path: String, mapSize size: ViewSize) throws(AssemblyError) -> RGBAImage {
        try AssemblyError.checkReadableFile(path, input: .markerImage)
        let image: RGBAImage
        do throws(ImageCodecError) { image = try RGBAImage(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .invalid(.markerImage, reason: error.description)
        }
        let points = (width: Double(image.width) / 2, height: Double(image.height) / 2)
        guard points.width <= size.width, points.height <= size.height else {
            func number(_ value: Double) -> String { value.decimalText(maximumFractionDigits: 10) }
            throw .invalid(
                .markerImage,
                reason: "'\(path)' is \(image.width)x\(image.height) pixels, a \(number(points.width))x\(number(points.height))-point marker (@2x), "
                    + "larger than the \(number(size.width))x\(number(size.height))-point map (--size)")
        }
        return image
    }
}
