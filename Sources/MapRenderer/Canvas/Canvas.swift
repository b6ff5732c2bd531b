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

    /// Creates a canvas `widthPoints` × `heightPoints` points large.
    ///
    /// - Parameters:
    ///   - widthPoints: Width in view points.
    ///   - heightPoints: Height in view points.
    ///   - scale: Pixels per point for an image; vector targets ignore it.
    ///   - target: An image in memory, or a PDF or SVG file written at ``finish()``.
    ///   - fonts: The fonts text on the canvas is drawn with (``MapData``'s).
    init(widthPoints: Double, heightPoints: Double, scale: Double, target: Target, fonts: FontConfiguration) throws(RendererError) {
        let surface: OpaquePointer?
        switch target {
        case .image:
            pixelWidth = Int((widthPoints * scale).rounded())
            pixelHeight = Int((heightPoints * scale).rounded())
            surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight))
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
            let reason = surface.map { String(cString: cairo_status_to_string(cairo_surface_status($0))) } ?? "no surface"
            if let surface { cairo_surface_destroy(surface) }
            throw .canvas(reason: reason)
        }
        guard let cairo = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            throw .canvas(reason: "Cairo could not create a context")
        }
        self.surface = surface
        self.cairo = cairo
        if case .image = target { cairo_scale(cairo, scale, scale) }
        fonts.attach(to: cairo)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    /// Flushes and closes the surface: a PDF or SVG file is complete after this.
    func finish() throws(RendererError) {
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw .canvas(reason: String(cString: cairo_status_to_string(status))) }
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
}
