import Foundation
public import ImageCodec
public import MapCore
public import MapData
import MapRenderer
public import MapStyle
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
        return try checked(image, named: "'\(path)'", mapSize: size)
    }

    /// `--marker-image`'s value: a PNG file when one is at `argument`, else the image of that name
    /// in `style`'s sprites (`--marker-image museum_11` with OSM Bright), drawn at its own size in
    /// points (taken at pixel ratio 2, as markers are @2x).
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming `--marker-image` when it is neither a
    ///   readable PNG nor an image of the style's sprites, or is larger than the map.
    public static func load(_ argument: String, mapSize size: ViewSize, style: Style, data: MapData)
        throws(AssemblyError) -> RGBAImage
    {
        if FileManager.default.fileExists(atPath: argument) || isPathLike(argument) || style.sprites.isEmpty {
            return try load(argument, mapSize: size)
        }
        guard let found = data.spriteImage(named: argument, in: style, pixelRatio: 2) else {
            throw .invalid(
                .markerImage,
                reason:
                    "'\(argument)' is neither a file nor an image in the sprite of style '\(style.name ?? style.id)'")
        }
        // @2x: an image of pixel ratio 1 is doubled, texel for pixel.
        let image =
            found.pixelRatio >= 2 ? found.image : found.image.scaled(by: max(1, Int((2 / found.pixelRatio).rounded())))
        return try checked(image, named: "sprite image '\(argument)'", mapSize: size)
    }

    /// Whether `argument` reads as a path rather than an image name: a folder in it, or a PNG's extension.
    public static func isPathLike(_ argument: String) -> Bool {
        argument.contains("/") || argument.lowercased().hasSuffix(".png")
    }

    private static func checked(_ image: RGBAImage, named name: String, mapSize size: ViewSize) throws(AssemblyError)
        -> RGBAImage
    {
        let points = (width: Double(image.width) / 2, height: Double(image.height) / 2)
        guard points.width <= size.width, points.height <= size.height else {
            func number(_ value: Double) -> String { value.decimalText(maximumFractionDigits: 10) }
            throw .invalid(
                .markerImage,
                reason:
                    "\(name) is \(image.width)x\(image.height) pixels, a \(number(points.width))x\(number(points.height))-point marker (@2x), "
                    + "larger than the \(number(size.width))x\(number(size.height))-point map (--size)")
        }
        return image
    }
}

extension RGBAImage {
    /// The image `factor` times as large, each pixel repeated.
    fileprivate func scaled(by factor: Int) -> RGBAImage {
        guard factor > 1 else { return self }
        var bytes = [UInt8](repeating: 0, count: width * factor * height * factor * 4)
        for y in 0..<(height * factor) {
            for x in 0..<(width * factor) {
                let from = ((y / factor) * width + x / factor) * 4
                let to = (y * width * factor + x) * 4
                for channel in 0..<4 { bytes[to + channel] = pixels[from + channel] }
            }
        }
        return RGBAImage(width: width * factor, height: height * factor, pixels: bytes)
    }
}
