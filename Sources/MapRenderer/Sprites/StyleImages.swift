import CCairo
import Foundation
import ImageCodec
import MapStyle
import MapUtilities

/// One image of a style's sprites, cut out of its sheet.
struct StyleImage: Hashable, Sendable {
    /// The image's pixels, straight (not premultiplied) RGBA.
    let pixels: RGBAImage
    /// Its place and drawing in the index: pixel ratio, SDF, stretch ranges, content box.
    let entry: SpriteIndex.Entry
    /// The pixels premultiplied in floats, as GL samples them: made once, when the sprite loads.
    let texture: PatternTexture

    init(pixels: RGBAImage, entry: SpriteIndex.Entry) {
        self.pixels = pixels
        self.entry = entry
        texture = PatternTexture(pixels)
    }

    /// Pixels per point.
    var pixelRatio: Double { entry.pixelRatio }
    /// The image's size in view points: its pixels over its pixel ratio.
    var widthPoints: Double { Double(pixels.width) / entry.pixelRatio }
    var heightPoints: Double { Double(pixels.height) / entry.pixelRatio }

    static func == (a: StyleImage, b: StyleImage) -> Bool { a.entry == b.entry && a.pixels == b.pixels }

    func hash(into hasher: inout Hasher) {
        hasher.combine(entry)
        hasher.combine(pixels)
    }

    /// A Cairo ARGB32 surface (premultiplied) of the pixels; nil when Cairo cannot make one.
    /// The caller destroys it.
    func makeSurface() -> OpaquePointer? { ImagePainter.makeSurface(pixels) }
}

/// The images of a style's sprites at one pixel ratio, by the name layers give them (`NAME` in
/// the sprite `default`, `ID:NAME` in others); made by ``MapData/styleImages(for:pixelRatio:)``.
struct StyleImages: Sendable {
    /// The images, by qualified name.
    let images: [String: StyleImage]
    /// Why a sprite gave no images: one line each.
    let failures: [String]

    /// No images.
    static let none = StyleImages(images: [:], failures: [])

    /// The image a layer names, or nil when no sprite has it.
    subscript(name: String) -> StyleImage? { images[name] }

    /// Reads `sprites` for `pixelRatio`: each one's `@2x` files above 1 (its plain files when it
    /// has no `@2x` ones), as MapLibre picks them for the screen's density; a sprite whose path is
    /// a folder is a folder of SVG icons, drawn at `pixelRatio` (``loadSVGFolder(_:sprite:pixelRatio:)``).
    static func load(_ sprites: [SpriteReference], pixelRatio: Double) -> StyleImages {
        var images: [String: StyleImage] = [:]
        var failures: [String] = []
        for sprite in sprites {
            guard sprite.url.isFileURL else {
                failures.append("\(sprite.url.absoluteString): sprites over HTTP are not fetched: its images are not drawn")
                continue
            }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: sprite.url.path, isDirectory: &isFolder), isFolder.boolValue {
                let folder = loadSVGFolder(sprite.url, sprite: sprite, pixelRatio: pixelRatio)
                images.merge(folder.images) { _, new in new }
                failures += folder.failures
                continue
            }
            var ratio = pixelRatio
            if ratio > 1, !FileManager.default.fileExists(atPath: sprite.indexURL(pixelRatio: ratio).path) { ratio = 1 }
            let indexURL = sprite.indexURL(pixelRatio: ratio), imageURL = sprite.imageURL(pixelRatio: ratio)
            do {
                let index = try SpriteIndex(data: try Data(readingFile: indexURL, maximumBytes: 64 << 20), file: indexURL.displayPath)
                let sheet = try RGBAImage(pngData: try Data(readingFile: imageURL, maximumBytes: 256 << 20))
                for (name, entry) in index.entries {
                    guard entry.x + entry.width <= sheet.width, entry.y + entry.height <= sheet.height else { continue }
                    images[sprite.qualifiedName(name)] = StyleImage(pixels: sheet.cropped(to: entry), entry: entry)
                }
            } catch {
                failures.append("\(sprite.url.displayPath): the sprite cannot be read (\(error)): its images are not drawn")
            }
        }
        return StyleImages(images: images, failures: failures)
    }
}

extension RGBAImage {
    /// The rectangle of a sprite entry, as an image of its own.
    fileprivate func cropped(to entry: SpriteIndex.Entry) -> RGBAImage {
        var bytes = [UInt8](repeating: 0, count: entry.width * entry.height * 4)
        pixels.withUnsafeBufferPointer { source in
            for row in 0..<entry.height {
                let from = ((entry.y + row) * width + entry.x) * 4
                for index in 0..<(entry.width * 4) { bytes[row * entry.width * 4 + index] = source[from + index] }
            }
        }
        return RGBAImage(width: entry.width, height: entry.height, pixels: bytes)
    }
}
