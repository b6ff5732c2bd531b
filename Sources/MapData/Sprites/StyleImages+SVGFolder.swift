import CCairo
import CRsvg
import Foundation
import ImageCodec
import MapStyle
import MapUtilities

/// A sprite made from a folder of SVG icons, as martin serves one: each `NAME.svg` in the folder
/// (not its subfolders) is the image `NAME`, drawn by librsvg at the pixel ratio the map is drawn
/// at, so icons are sharp at any scale without a `@2x` sheet.
extension StyleImages {
    /// The images of the SVG folder at `folder`, drawn at `pixelRatio` pixels per point; a file that
    /// librsvg cannot read is a failure line of its own, the others still load.
    static func loadSVGFolder(_ folder: URL, sprite: SpriteReference, pixelRatio: Double) -> (
        images: [String: StyleImage], failures: [String]
    ) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.lowercased().hasSuffix(".svg")
            }.sorted()
        } catch {
            return (
                [:],
                [
                    "\(folder.displayPath): the sprite folder cannot be read (\(error.localizedDescription)): its images are not drawn"
                ]
            )
        }
        var images: [String: StyleImage] = [:]
        var unreadable: [String] = []
        // On every core: a public style's folder holds a hundred icons, most of its process's start.
        let rasterized = [RGBAImage?](concurrentlyComputing: names.count) { index in
            rasterizedSVG(at: folder.appendingPathComponent(names[index]), pixelRatio: pixelRatio)
        }
        for (file, pixels) in zip(names, rasterized) {
            guard let pixels else {
                unreadable.append(file)
                continue
            }
            var entry = SpriteIndex.Entry(x: 0, y: 0, width: pixels.width, height: pixels.height)
            entry.pixelRatio = pixelRatio
            images[sprite.qualifiedName(String(file.dropLast(4)))] = StyleImage(pixels: pixels, entry: entry)
        }
        let failures =
            unreadable.isEmpty
            ? []
            : [
                "\(folder.displayPath): \(unreadable.count) SVG icon(s) cannot be drawn (\(unreadable.prefix(3).joined(separator: ", "))\(unreadable.count > 3 ? ", ..." : "")): they are not drawn"
            ]
        return (images, failures)
    }

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
