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
/// A sheet's images are cut out when it loads; an SVG folder's are drawn when first named.
package struct StyleImages: Sendable {
    /// The images cut from sheets or added at run time, by qualified name.
    private let loaded: [String: StyleImage]
    /// The SVG folder icons, by qualified name: the folder and the icon's name in it.
    private let onDemand: [String: SVGIcon]
    /// Why a sprite gave no images, found when it loaded.
    private let loadFailures: [String]

    /// An icon of an SVG folder.
    private struct SVGIcon: Sendable {
        let folder: SVGFolderIcons
        let name: String
    }

    private init(loaded: [String: StyleImage], onDemand: [String: SVGIcon], loadFailures: [String]) {
        self.loaded = loaded
        self.onDemand = onDemand
        self.loadFailures = loadFailures
    }

    /// No images.
    package static let none = StyleImages(loaded: [:], onDemand: [:], loadFailures: [])

    /// The image a layer names, or nil when no sprite has it (an SVG icon is drawn the first time).
    package subscript(name: String) -> StyleImage? {
        if let image = loaded[name] { return image }
        guard let icon = onDemand[name] else { return nil }
        return icon.folder.image(named: icon.name)
    }

    /// How many images the sprites name (an SVG folder's counted whether drawn yet or not).
    package var count: Int { loaded.count + onDemand.count }

    /// Why a sprite gave no images or some of its images cannot be drawn: one line each (an
    /// SVG folder's unreadable icons are known once named).
    package var failures: [String] {
        var folders: [ObjectIdentifier: SVGFolderIcons] = [:]
        for icon in onDemand.values { folders[ObjectIdentifier(icon.folder)] = icon.folder }
        return loadFailures + folders.values.compactMap(\.failure).sorted()
    }

    /// These images with `images` added over them, by qualified name (what
    /// ``MapData/addImage(_:named:pixelRatio:sdf:)`` adds replaces a sprite's image).
    package func adding(_ images: [String: StyleImage]) -> StyleImages {
        StyleImages(
            loaded: loaded.merging(images) { $1 }, onDemand: onDemand.filter { images[$0.key] == nil },
            loadFailures: loadFailures)
    }

    /// Reads `sprites` for `pixelRatio`: each one's `@2x` files above 1 (its plain files when it
    /// has no `@2x` ones), as MapLibre picks them for the screen's density; a sprite whose path is
    /// a folder is a folder of SVG icons, drawn at `pixelRatio` when first named
    /// (``SVGFolderIcons``); a sprite at an `http(s)` URL is fetched through `files` (kept there
    /// for later renders and for offline ones). A later sprite's image replaces an earlier one's
    /// of the same qualified name.
    package static func load(_ sprites: [SpriteReference], pixelRatio: Double, files: HTTPFileCache = HTTPFileCache())
        -> StyleImages
    {
        var images: [String: StyleImage] = [:]
        var onDemand: [String: SVGIcon] = [:]
        var failures: [String] = []
        for sprite in sprites {
            if sprite.url.isFileURL {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: sprite.url.path, isDirectory: &isFolder), isFolder.boolValue {
                    do {
                        let folder = try SVGFolderIcons(folder: sprite.url, pixelRatio: pixelRatio)
                        for name in folder.files.keys {
                            let qualified = sprite.qualifiedName(name)
                            onDemand[qualified] = SVGIcon(folder: folder, name: name)
                            images[qualified] = nil
                        }
                    } catch {
                        failures.append(
                            "\(sprite.url.displayPath): the sprite folder cannot be read (\(error.localizedDescription)): its images are not drawn"
                        )
                    }
                    continue
                }
            }
            do {
                let (index, sheet) = try sheet(of: sprite, pixelRatio: pixelRatio, files: files)
                for (name, entry) in index.entries {
                    guard entry.x + entry.width <= sheet.width, entry.y + entry.height <= sheet.height else { continue }
                    let qualified = sprite.qualifiedName(name)
                    images[qualified] = StyleImage(pixels: sheet.cropped(to: entry), entry: entry)
                    onDemand[qualified] = nil
                }
            } catch {
                failures.append(
                    "\(sprite.url.isFileURL ? sprite.url.displayPath : sprite.url.absoluteString): the sprite cannot be read (\(error)): its images are not drawn"
                )
            }
        }
        return StyleImages(loaded: images, onDemand: onDemand, loadFailures: failures)
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
