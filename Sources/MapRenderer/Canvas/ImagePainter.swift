import CCairo
package import ImageCodec
package import MapCore

/// Draws RGBA images onto a Cairo context.
package enum ImagePainter {
    /// A rectangle of a Cairo image surface's pixels (the whole surface by default) as
    /// straight-alpha RGBA, row-major; the rectangle lies inside the surface.
    ///
    /// Cairo stores premultiplied ARGB in native-endian 32-bit words; this undoes both.
    package static func rgbaImage(
        ofSurface surface: OpaquePointer, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil
    ) -> RGBAImage {
        let width = width ?? Int(cairo_image_surface_get_width(surface))
        let height = height ?? Int(cairo_image_surface_get_height(surface))
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return RGBAImage(width: width, height: height) }
        return PremultipliedPixels(base: data + y * stride + x * 4, rowBytes: stride, width: width, height: height)
            .rgbaImage()
    }

    /// Draws `image` scaled to fill `frame` (points), clipped to rounded corners.
    package static func draw(_ image: RGBAImage, in frame: ViewRect, cornerRadius: Double, cairo: OpaquePointer) {
        guard let surface = makeSurface(image) else { return }
        defer { cairo_surface_destroy(surface) }
        draw(image, surface: surface, in: frame, cornerRadius: cornerRadius, cairo: cairo)
    }

    /// Draws `image`, already made into `surface` by ``makeSurface(_:)``, scaled to fill `frame`
    /// (points), clipped to rounded corners.
    package static func draw(
        _ image: RGBAImage, surface: OpaquePointer, in frame: ViewRect, cornerRadius: Double, cairo: OpaquePointer
    ) {
        cairo_save(cairo)
        cairo.addRoundedRect(frame, radius: cornerRadius)
        cairo_clip(cairo)
        cairo_translate(cairo, frame.minX, frame.minY)
        cairo_scale(cairo, frame.size.width / Double(image.width), frame.size.height / Double(image.height))
        cairo_set_source_surface(cairo, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cairo), CAIRO_EXTEND_PAD)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }

    /// A Cairo ARGB32 surface (premultiplied, native-endian) holding `image`; `nil` for an
    /// image without pixels. The caller destroys it.
    package static func makeSurface(_ image: RGBAImage) -> OpaquePointer? {
        guard image.width > 0, image.height > 0,
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else { return nil }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<image.height {
                let target = UnsafeMutableRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
                for column in 0..<image.width {
                    let offset = (row * image.width + column) * 4
                    let alpha = UInt32(pixels[offset + 3])
                    func premultiplied(_ value: UInt8) -> UInt32 { (UInt32(value) * alpha + 127) / 255 }
                    target[column] =
                        alpha << 24 | premultiplied(pixels[offset]) << 16
                        | premultiplied(pixels[offset + 1]) << 8 | premultiplied(pixels[offset + 2])
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
