import Foundation
public import ImageCodec
public import MapStyle
import Synchronization
import Tilesets

extension MapData {
    /// The images of a style's sprites for renders at `pixelRatio` (`@2x` sheets above 1), read
    /// once per sprite list and ratio and kept while the map data is; a sprite that cannot be
    /// read gives no images and one warning in ``skippedData()``.
    package func styleImages(for sprites: [SpriteReference], pixelRatio: Double) -> StyleImages {
        let spriteImages = spriteImages(for: sprites, pixelRatio: pixelRatio)
        let runtime = caches.withLock { $0.runtimeImages }
        guard !runtime.isEmpty else { return spriteImages }
        return spriteImages.adding(runtime)
    }

    /// The image `name` of `style`'s sprites (or added with ``addImage(_:named:pixelRatio:sdf:)``)
    /// at `pixelRatio`, with its own pixel ratio; nil when none has it. What a pin drawn from a
    /// sprite image (`--marker-image NAME`) is made from.
    public func spriteImage(named name: String, in style: Style, pixelRatio: Double) -> (
        image: RGBAImage, pixelRatio: Double
    )? {
        guard let image = styleImages(for: style.sprites, pixelRatio: pixelRatio)[name] else { return nil }
        return (image.pixels, image.pixelRatio)
    }

    /// Adds an image every style drawn with this data can name (`icon-image`, `*-pattern`),
    /// as MapLibre's `addImage` does; it replaces a sprite's image of the same name.
    ///
    /// - Parameters:
    ///   - pixelRatio: The image's pixels per point. The default is 1.
    ///   - sdf: Whether the image is a signed distance field, coloured by `icon-color`. The
    ///     default is false.
    public func addImage(_ image: RGBAImage, named name: String, pixelRatio: Double = 1, sdf: Bool = false) {
        var entry = SpriteIndex.Entry(x: 0, y: 0, width: image.width, height: image.height)
        entry.pixelRatio = pixelRatio
        entry.sdf = sdf
        let styleImage = StyleImage(pixels: image, entry: entry)
        caches.withLock { $0.runtimeImages[name] = styleImage }
    }

    /// Removes an image ``addImage(_:named:pixelRatio:sdf:)`` added.
    public func removeImage(named name: String) {
        caches.withLock { $0.runtimeImages[name] = nil }
    }

    private func spriteImages(for sprites: [SpriteReference], pixelRatio: Double) -> StyleImages {
        guard !sprites.isEmpty else { return .none }
        let key =
            sprites.map { "\($0.id)=\($0.url.absoluteString)" }.joined(separator: "|")
            + (pixelRatio > 1 ? "@2x" : "@1x")
        if let kept = caches.withLock({ $0.styleImages[key] }) { return kept }
        let files = HTTPFileCache(directory: tileCacheDirectory.appendingPathComponent("files", isDirectory: true))
        let loaded = StyleImages.load(sprites, pixelRatio: pixelRatio, files: files)
        return caches.withLock { caches in
            if let kept = caches.styleImages[key] { return kept }
            caches.styleImages[key] = loaded
            for failure in loaded.failures where !caches.skippedSources.contains(where: { $0.warning == failure }) {
                caches.skippedSources.append(SkippedData(source: "sprite", warning: failure))
            }
            return loaded
        }
    }

    /// Notes that a layer named an image no sprite has (drawn as nothing, as MapLibre does), for
    /// the one warning of ``skippedData()``.
    package func noteMissingImage(_ name: String) {
        caches.withLock { caches in
            if !caches.missingImages.contains(name) { caches.missingImages.append(name) }
        }
    }
}
