import CCairo
import Foundation
import ImageCodec

/// A Cairo drawing surface and its context, in view points: an image of pixels (points × scale),
/// or a PDF or SVG page whose units are points.
///
/// A canvas owns live Cairo objects and is used by one render at a time, so it is not Sendable.
final class Canvas {
    /// What the canvas draws into.
    enum Target {
        case image
        case pdf(URL)
        case svg(URL)
    }

    let surface: OpaquePointer
    /// The Cairo context, with the scale from points to pixels applied.
    let cairo: OpaquePointer
    let pixelWidth: Int
    let pixelHeight: Int
    /// The canvas whose pixels this one draws into, kept alive with it (see ``init(rows:of:scale:fonts:)``).
    private let owner: Canvas?

    /// Creates a canvas `widthPoints` × `heightPoints` points large.
    ///
    /// - Parameters:
    ///   - widthPoints: Width in view points.
    ///   - heightPoints: Height in view points.
    ///   - scale: Pixels per point for an image; vector targets ignore it.
    ///   - target: An image in memory, or a PDF or SVG file written at ``finish()``.
    ///   - fonts: The fonts text on the canvas is drawn with (``MapData``'s).
    init(widthPoints: Double, heightPoints: Double, scale: Double, target: Target, fonts: FontConfiguration)
        throws(RendererError)
    {
        let surface: OpaquePointer?
        switch target {
        case .image:
            pixelWidth = Int((widthPoints * scale).rounded())
            pixelHeight = Int((heightPoints * scale).rounded())
            surface = Self.imageSurface(width: pixelWidth, height: pixelHeight)
        case .pdf(let url):
            pixelWidth = Int(widthPoints.rounded())
            pixelHeight = Int(heightPoints.rounded())
            surface = cairo_pdf_surface_create(url.path, widthPoints, heightPoints)
        case .svg(let url):
            pixelWidth = Int(widthPoints.rounded())
            pixelHeight = Int(heightPoints.rounded())
            surface = cairo_svg_surface_create(url.path, widthPoints, heightPoints)
        }
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let reason =
                surface.map { String(cString: cairo_status_to_string(cairo_surface_status($0))) } ?? "no surface"
            if let surface { cairo_surface_destroy(surface) }
            throw .canvas(reason: reason)
        }
        guard let cairo = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            throw .canvas(reason: "Cairo could not create a context")
        }
        self.surface = surface
        self.cairo = cairo
        owner = nil
        if case .image = target { cairo_scale(cairo, scale, scale) }
        fonts.attach(to: cairo)
    }

    /// A canvas over the pixel rows `rows` of an image canvas, drawing into its pixels in place,
    /// its own row 0 at `rows.lowerBound`: one band of an image, drawn on its own thread while
    /// other bands draw into other rows. Flush `image`'s surface before and mark it dirty after.
    init(rows: Range<Int>, of image: Canvas, scale: Double, fonts: FontConfiguration) throws(RendererError) {
        let stride = Int(cairo_image_surface_get_stride(image.surface))
        guard rows.lowerBound >= 0, rows.upperBound <= image.pixelHeight, !rows.isEmpty,
            let data = cairo_image_surface_get_data(image.surface),
            let surface = cairo_image_surface_create_for_data(
                data + rows.lowerBound * stride, CAIRO_FORMAT_ARGB32, Int32(image.pixelWidth), Int32(rows.count),
                Int32(stride)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else {
            throw .canvas(
                reason: "Cairo could not draw rows \(rows) of a \(image.pixelWidth)x\(image.pixelHeight) image")
        }
        guard let cairo = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            throw .canvas(reason: "Cairo could not create a context")
        }
        self.surface = surface
        self.cairo = cairo
        pixelWidth = image.pixelWidth
        pixelHeight = rows.count
        owner = image
        cairo_scale(cairo, scale, scale)
        fonts.attach(to: cairo)
    }

    /// An ARGB32 image surface whose pixels of 2 MiB or more are ``ImageMemory`` (huge pages
    /// where the kernel gives them): a 2400 × 1600 image is 15 MB, which in 4 KiB pages costs
    /// ~3,700 page faults (a tenth of a static map's process time here) the first time it is
    /// painted. The memory is released with the surface's last reference. Smaller images, or
    /// when the memory cannot be had, use Cairo's own allocation.
    private static func imageSurface(width: Int, height: Int) -> OpaquePointer? {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        let bytes = stride * height
        guard width > 0, height > 0, stride > 0, bytes >= 2 << 20, let memory = ImageMemory(count: bytes)
        else { return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) }
        guard
            let surface = cairo_image_surface_create_for_data(
                memory.bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height),
                Int32(stride))
        else { return nil }
        let box = Unmanaged.passRetained(memory).toOpaque()
        let status = cairo_surface_set_user_data(surface, Canvas.pixelsKey, box) { box in
            guard let box else { return }
            Unmanaged<ImageMemory>.fromOpaque(box).release()
        }
        if status != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(surface)
            Unmanaged<ImageMemory>.fromOpaque(box).release()
            return nil
        }
        return surface
    }

    /// The key under which an image surface keeps its ``ImageMemory``.
    nonisolated(unsafe) private static let pixelsKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    /// Flushes and closes the surface: a PDF or SVG file is complete after this.
    func finish() throws(RendererError) {
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .canvas(reason: String(cString: cairo_status_to_string(status)))
        }
    }

    /// The image's pixels as straight-alpha RGBA; only for an image canvas.
    func rgbaImage() -> RGBAImage {
        rgbaImage(x: 0, y: 0, width: pixelWidth, height: pixelHeight)
    }

    /// A rectangle of the image's pixels (a tile of a metatile) as straight-alpha RGBA, row-major;
    /// only for an image canvas, the rectangle inside it.
    func rgbaImage(x: Int, y: Int, width: Int, height: Int) -> RGBAImage {
        ImagePainter.rgbaImage(ofSurface: surface, x: x, y: y, width: width, height: height)
    }

    /// A square of the image's pixels as they are on the canvas (premultiplied ARGB32), valid
    /// while the canvas lives and is not drawn on; only for an image canvas, the square inside it.
    func premultipliedPixels(x: Int, y: Int, side: Int) -> PremultipliedPixels {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        return PremultipliedPixels(
            base: cairo_image_surface_get_data(surface)! + y * stride + x * 4, rowBytes: stride, width: side,
            height: side)
    }

    /// The image's pixels as a PNG, encoded from the canvas itself (no straight-alpha copy
    /// first): the bytes ``rgbaImage()``'s ``RGBAImage/pngData(compressionLevel:colorMode:filtering:)``
    /// gives in RGBA; only for an image canvas.
    func pngData(compressionLevel: Int, filtering: PNGFiltering) throws(ImageCodecError) -> Data {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            return try rgbaImage().pngData(compressionLevel: compressionLevel, filtering: filtering)
        }
        let pixels = PremultipliedPixels(
            base: data, rowBytes: Int(cairo_image_surface_get_stride(surface)), width: pixelWidth, height: pixelHeight)
        return try pixels.pngData(compressionLevel: compressionLevel, filtering: filtering)
    }
}
