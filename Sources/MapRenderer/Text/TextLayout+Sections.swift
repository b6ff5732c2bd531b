import CCairo
import Foundation
import ImageCodec
import MapCore
import MapData
import MapJSON
import MapStyle

/// A `format` section of a label drawn with the installed fonts: its text and how it differs
/// from the layer's text.
package struct TextSection: Hashable, Sendable {
    let text: String
    /// `font-scale`: a factor on the layer's text size. The default is 1.
    var scale = 1.0
    /// `text-font`: its font stack (families and weight found as for the layer's); nil keeps the
    /// layer's.
    var fontStack: [String]?
    /// `text-color`; nil keeps the layer's.
    var color: Color?
    /// For an image section (its text one object replacement character, U+FFFC), the image:
    /// as wide and high as its points times ``scale``, its bottom on the baseline.
    var image: StyleImage?
    /// `vertical-align` (``ShapedText/Run/verticalAlignment(_:)``): 0 top, 0.5 centre, 1 bottom
    /// (the default).
    var verticalAlignment = 1.0

    /// A symbol layer's sections for a feature, when some is styled apart; nil otherwise.
    ///
    /// - Parameter images: The style's images; an image section whose image is missing, or all
    ///   of them when nil, is left out (and named in `context`'s missing images).
    static func sections(
        of symbol: SymbolLayer, properties: [String: FeatureValue], zoom: Double, context: SymbolContext? = nil
    ) -> [TextSection]? {
        symbol.labelSections(for: properties, atZoom: zoom)?.compactMap { section in
            let alignment = ShapedText.Run.verticalAlignment(section.verticalAlign)
            if let name = section.image {
                guard let context else { return nil }
                guard let image = context.images[name] else {
                    context.missingImages.value.insert(name)
                    return nil
                }
                return TextSection(
                    text: "\u{FFFC}", scale: section.scale ?? 1, image: image, verticalAlignment: alignment)
            }
            return TextSection(
                text: section.text, scale: section.scale ?? 1,
                fontStack: section.fontStack.map {
                    $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                },
                color: section.textColor, verticalAlignment: alignment)
        }
    }
}

extension TextLayout {
    /// Styles each section's run of the text (the sections joined) with its font, size and
    /// colour as Pango attributes; the layer's colour and font stay for the rest.
    func apply(_ sections: [TextSection], font: FontSpec) {
        guard let attributes = pango_attr_list_new() else { return }
        // The largest text's scale and the layer font's ascent: `vertical-align` sets a section
        // against the line's largest text (GL aligns within each line; Pango's sections are
        // aligned against the label's largest).
        let largest = sections.filter { $0.image == nil }.map(\.scale).max() ?? 1
        let ascent = fontAscentPoints
        var start = 0
        for section in sections {
            let end = start + section.text.utf8.count
            defer { start = end }
            if let image = section.image {
                // A box as large as the image for U+FFFC, its bottom on the baseline (GL's
                // default), its top at the largest text's ascent at the top, or between.
                let width = image.widthPoints * section.scale
                let height = image.heightPoints * section.scale
                let top = -height + (1 - section.verticalAlignment) * (height - ascent * largest)
                var box = PangoRectangle(
                    x: 0, y: Int32((top * Double(PANGO_SCALE)).rounded()),
                    width: Int32((width * Double(PANGO_SCALE)).rounded()),
                    height: Int32((height * Double(PANGO_SCALE)).rounded()))
                insert(pango_attr_shape_new(&box, &box), from: start, to: end, into: attributes)
                continue
            }
            if section.verticalAlignment < 1, section.scale < largest {
                // Raised towards the largest text's top by the share of the difference in ascent.
                let rise = (1 - section.verticalAlignment) * ascent * (largest - section.scale)
                insert(
                    pango_attr_rise_new(Int32((rise * Double(PANGO_SCALE)).rounded())), from: start, to: end,
                    into: attributes)
            }
            var spec = section.fontStack.map { FontSpec(fontStack: $0, sizePoints: font.sizePoints) } ?? font
            spec.sizePoints = font.sizePoints * section.scale
            if section.fontStack != nil || section.scale != 1 {
                let description = pango_font_description_from_string(spec.families)
                pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(spec.weight)))
                if spec.italic { pango_font_description_set_style(description, PANGO_STYLE_ITALIC) }
                pango_font_description_set_absolute_size(description, spec.sizePoints * Double(PANGO_SCALE))
                insert(pango_attr_font_desc_new(description), from: start, to: end, into: attributes)
                pango_font_description_free(description)
            }
            if let color = section.color {
                func channel(_ value: Double) -> UInt16 { UInt16((min(1, max(0, value)) * 65535).rounded()) }
                insert(
                    pango_attr_foreground_new(channel(color.red), channel(color.green), channel(color.blue)),
                    from: start, to: end, into: attributes)
                insert(pango_attr_foreground_alpha_new(channel(color.alpha)), from: start, to: end, into: attributes)
            }
        }
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)
    }

    private func insert(
        _ attribute: UnsafeMutablePointer<PangoAttribute>?, from start: Int, to end: Int, into list: OpaquePointer
    ) {
        guard let attribute else { return }
        attribute.pointee.start_index = UInt32(start)
        attribute.pointee.end_index = UInt32(end)
        pango_attr_list_insert(list, attribute)
    }
}

extension TextLayout {
    /// The layer font's ascent in points (Pango's metrics for the layout's font).
    var fontAscentPoints: Double {
        guard let context = pango_layout_get_context(layout),
            let metrics = pango_context_get_metrics(context, pango_layout_get_font_description(layout), nil)
        else { return 0 }
        defer { pango_font_metrics_unref(metrics) }
        return Double(pango_font_metrics_get_ascent(metrics)) / Double(PANGO_SCALE)
    }

    /// The images of the sections (``TextSection/image``) at their places in the layout: each
    /// rectangle in points from the layout's origin.
    var sectionImages: [(image: StyleImage, rect: ViewRect)] {
        guard let sections, sections.contains(where: { $0.image != nil }) else { return [] }
        var result: [(StyleImage, ViewRect)] = []
        var start = 0
        for section in sections {
            defer { start += section.text.utf8.count }
            guard let image = section.image else { continue }
            guard let iterator = pango_layout_get_iter(layout) else { continue }
            defer { pango_layout_iter_free(iterator) }
            repeat {
                guard pango_layout_iter_get_index(iterator) == Int32(start) else { continue }
                var logical = PangoRectangle()
                pango_layout_iter_get_char_extents(iterator, &logical)
                let scale = Double(PANGO_SCALE)
                // The character's extents are the line's height; the image's own box is its
                // size with its bottom where the shape put it.
                let width = image.widthPoints * section.scale
                let height = image.heightPoints * section.scale
                let baseline = Double(pango_layout_iter_get_baseline(iterator)) / scale
                let largest = sections.filter { $0.image == nil }.map(\.scale).max() ?? 1
                let top = baseline - height + (1 - section.verticalAlignment) * (height - fontAscentPoints * largest)
                result.append((image, ViewRect(x: Double(logical.x) / scale, y: top, width: width, height: height)))
                break
            } while pango_layout_iter_next_char(iterator) != 0
        }
        return result
    }

    /// Draws the sections' images with their top-left corners relative to `origin` (the
    /// layout's origin), at `opacity`.
    func drawSectionImages(at origin: ViewPoint, opacity: Double) {
        for (image, rect) in sectionImages {
            guard rect.size.width > 0, rect.size.height > 0, let surface = image.makeSurface() else { continue }
            cairo_save(cairo)
            cairo_translate(cairo, origin.x + rect.minX, origin.y + rect.minY)
            cairo_scale(
                cairo, rect.size.width / Double(image.pixels.width), rect.size.height / Double(image.pixels.height))
            cairo_set_source_surface(cairo, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
            cairo_paint_with_alpha(cairo, opacity)
            cairo_restore(cairo)
            cairo_surface_destroy(surface)
        }
    }
}
