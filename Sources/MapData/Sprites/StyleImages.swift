import Foundation
package import ImageCodec
package import MapStyle
import MapUtilities
package import Tilesets

/// One image of a style's sprites, cut out of its sheet.
package struct StyleImage: Hashable, Sendable {
    /// The image's pixels, straight (not premultiplied) RGBA.
    package let pixels: RGBAImage
    /// Its place and drawing in the index: pixel ratio, SDF, stretch ranges, content box.
    package let entry: SpriteIndex.Entry
    /// The pixels premultiplied in floats, as GL samples them: made once, when the sprite loads.
    package let texture: PatternTexture

    package init(pixels: RGBAImage, entry: SpriteIndex.Entry) {
        self.pixels = pixels
        self.entry = entry
        texture = PatternTexture(pixels)
    }

    /// Pixels per point.
    package var pixelRatio: Double { entry.pixelRatio }
    /// The image's size in view points: its pixels over its pixel ratio.
    package var widthPoints: Double { Double(pixels.width) / entry.pixelRatio }
    package var heightPoints: Double { Double(pixels.height) / entry.pixelRatio }

    package static func == (a: StyleImage, b: StyleImage) -> Bool { a.entry == b.entry && a.pixels == b.pixels }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(entry)
        hasher.combine(pixels)
    }
}

/// The images of a style's sprites at one pixel ratio, by the name layers give them (`NAME` in
/// the sprite `default`, `ID:NAME` in others); made by ``MapData/styleImages(for:pixelRatio:)``.
package struct StyleImages: Sendable {
    /// The images, by qualified name.
    package let images: [String: StyleImage]
    /// Why a sprite gave no images: one line each.
    package let failures: [String]

    /// No images.
    package static let none = StyleImages(images: [:], failures: [])

    /// The image a layer names, or nil when no sprite has it.
    package subscript(name: String) -> StyleImage? { images[name] }

    /// Reads `sprites` for `pixelRatio`: each one's `@2x` files above 1 (its plain files when it
    /// has no `@2x` ones), as MapLibre picks them for the screen's density; a sprite whose path is
    /// a folder is a folder of SVG icons, drawn at `pixelRatio` (``loadSVGFolder(_:sprite:pixelRatio:)``);
    /// a sprite at an `http(s)` URL is fetched through `files` (kept there for later renders and
    /// for offline ones).
    package static func load(_ sprites: [SpriteReference], pixelRatio: Double, files: HTTPFileCache = HTTPFileCache())
        -> StyleImages
    {
        var images: [String: StyleImage] = [:]
        var failures: [String] = []
        for sprite in sprites {
            if sprite.url.isFileURL {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: sprite.url.path, isDirectory: &isFolder), isFolder.boolValue {
                    let folder = loadSVGFolder(sprite.url, sprite: sprite, pixelRatio: pixelRatio)
                    images.merge(folder.images) { _, new in new }
                    failures += folder.failures
                    continue
                }
            }
            do {
                let (index, sheet) = try sheet(of: sprite, pixelRatio: pixelRatio, files: files)
                for (name, entry) in index.entries {
                    guard entry.x + entry.width <= sheet.width, entry.y + entry.height <= sheet.height else { continue }
                    images[sprite.qualifiedName(name)] = StyleImage(pixels: sheet.cropped(to: entry), entry: entry)
                }
            } catch {
                failures.append(
                    "\(sprite.url.isFileURL ? sprite.url.displayPath : sprite.url.absoluteString): the sprite cannot be read (\(error)): its images are not drawn"
                )
            }
        }
        return StyleImages(images: images, failures: failures)
    }

    /// The index and the sheet of `sprite` for `pixelRatio`: its `@2x` files above 1, its plain
    /// ones when it has no `@2x` index (missing on disk, or 404 from a server).
    private static func sheet(of sprite: SpriteReference, pixelRatio: Double, files: HTTPFileCache) throws -> (
        SpriteIndex, RGBAImage
    ) {
        let highDensity = pixelRatio > 1 ? try highDensityIndex(of: sprite, files: files) : nil
        let ratio = highDensity == nil ? 1 : pixelRatio
        let indexURL = sprite.indexURL(pixelRatio: ratio)
        let imageURL = sprite.imageURL(pixelRatio: ratio)
        let displayName = indexURL.isFileURL ? indexURL.displayPath : indexURL.absoluteString
        let indexData = try highDensity ?? read(indexURL, maximumBytes: 64 << 20, files: files)
        let index = try SpriteIndex(data: indexData, file: displayName)
        return (index, try RGBAImage(pngData: try read(imageURL, maximumBytes: 256 << 20, files: files)))
    }

    /// The `@2x` index of `sprite`, nil when it has none (no such file, or a 404).
    private static func highDensityIndex(of sprite: SpriteReference, files: HTTPFileCache) throws -> Data? {
        let url = sprite.indexURL(pixelRatio: 2)
        if url.isFileURL {
            return FileManager.default.fileExists(atPath: url.path)
                ? try read(url, maximumBytes: 64 << 20, files: files) : nil
        }
        let result = Result { () throws(TilesetsError) -> Data in try files.data(from: url, maximumBytes: 64 << 20) }
        if case .failure(.httpStatus(_, 404)) = result { return nil }
        return try result.get()
    }

    /// A sprite file from disk, or over HTTP through `files`.
    private static func read(_ url: URL, maximumBytes: Int, files: HTTPFileCache) throws -> Data {
        url.isFileURL
            ? try Data(readingFile: url, maximumBytes: maximumBytes)
            : try files.data(from: url, maximumBytes: maximumBytes)
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
