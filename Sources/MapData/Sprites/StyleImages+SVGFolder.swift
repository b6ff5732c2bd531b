import CCairo
import CRsvg
import Foundation
import ImageCodec
import MapStyle
import MapUtilities
import Synchronization

/// A sprite made from a folder of SVG icons, as martin serves one: each `NAME.svg` in the folder
/// (not its subfolders) is the image `NAME`, drawn by librsvg at the pixel ratio the map is drawn
/// at, so icons are sharp at any scale without a `@2x` sheet.
///
/// Loading the sprite lists the folder; an icon is drawn the first time a layer names it and
/// kept from then on (OSM Bright's folder holds 101 icons, a street-level view draws a dozen:
/// drawing them all was a third of a whole `render` process). A file librsvg cannot read is
/// found when first named, and then counted in the sprite's failure line.
final class SVGFolderIcons: Sendable {
    /// The folder, for the failure line.
    let folder: URL
    /// The SVG files, by image name (not qualified by the sprite's id).
    let files: [String: URL]
    /// Pixels per point the icons are drawn at.
    let pixelRatio: Double
    /// What was drawn, by image name; nil for a file librsvg could not draw.
    private let drawn = Mutex<[String: StyleImage?]>([:])

    /// The SVG files of `folder` (not its subfolders); throws when the folder cannot be listed.
    init(folder: URL, pixelRatio: Double) throws {
        self.folder = folder
        self.pixelRatio = pixelRatio
        var files: [String: URL] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where name.lowercased().hasSuffix(".svg") {
            files[String(name.dropLast(4))] = folder.appendingPathComponent(name)
        }
        self.files = files
    }

    /// The icon `name`, drawn on first use (two threads asking at once may both draw it: the
    /// same pixels, one kept); nil when the folder has no such file or librsvg cannot draw it.
    func image(named name: String) -> StyleImage? {
        if let kept = drawn.withLock({ $0[name] }) { return kept }
        guard let file = files[name] else { return nil }
        let image = StyleImages.rasterizedSVG(at: file, pixelRatio: pixelRatio).map { pixels in
            var entry = SpriteIndex.Entry(x: 0, y: 0, width: pixels.width, height: pixels.height)
            entry.pixelRatio = pixelRatio
            return StyleImage(pixels: pixels, entry: entry)
        }
        return drawn.withLock { drawn in
            if let kept = drawn[name] { return kept }
            drawn[name] = .some(image)
            return image
        }
    }

    /// One line naming the files found unreadable so far, nil when none was.
    var failure: String? {
        let unreadable = drawn.withLock { drawn in drawn.filter { $0.value == nil }.keys.sorted() }.map { "\($0).svg" }
        guard !unreadable.isEmpty else { return nil }
        return
            "\(folder.displayPath): \(unreadable.count) SVG icon(s) cannot be drawn (\(unreadable.prefix(3).joined(separator: ", "))\(unreadable.count > 3 ? ", ..." : "")): they are not drawn"
    }
}

extension StyleImages {
    /// The SVG file at `url` drawn at its own size (its `width` and `height`, or its `viewBox`)
    /// times `pixelRatio`, in whole pixels; nil when librsvg cannot read it or it has no size.
    static func rasterizedSVG(at url: URL, pixelRatio: Double) -> RGBAImage? {
        guard let data = try? Data(readingFile: url, maximumBytes: 16 << 20) else { return nil }
        let handle: OpaquePointer? = data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return nil }
            return rsvg_handle_new_from_data(base.assumingMemoryBound(to: UInt8.self), bytes.count, nil)
        }
        guard let handle else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        var widthPoints = 0.0
        var heightPoints = 0.0
        guard rsvg_handle_get_intrinsic_size_in_pixels(handle, &widthPoints, &heightPoints) != 0 else {
            return nil
        }
        let width = Int((widthPoints * pixelRatio).rounded())
        let height = Int((heightPoints * pixelRatio).rounded())
        guard width > 0, height > 0, width <= 4096, height <= 4096 else { return nil }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            return nil
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cairo = cairo_create(surface) else {
            return nil
        }
        defer { cairo_destroy(cairo) }
        var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
        guard rsvg_handle_render_document(handle, UnsafeMutableRawPointer(cairo), &viewport, nil) != 0 else {
            return nil
        }
        cairo_surface_flush(surface)
        guard let pixels = cairo_image_surface_get_data(surface) else { return RGBAImage(width: width, height: height) }
        let rowBytes = Int(cairo_image_surface_get_stride(surface))
        return PremultipliedPixels(base: pixels, rowBytes: rowBytes, width: width, height: height).rgbaImage()
    }
}
