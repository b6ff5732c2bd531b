import CCairo
import Foundation
package import MapCore
package import MapStyle

/// A halo behind text: a stroke of `widthPoints` on each side of the glyphs' outlines.
package struct TextHalo: Hashable, Sendable {
    var color: Color
    var widthPoints: Double
}

/// A font request as Pango takes it: families in fallback order, one weight and slant, a size in
/// points. Made from a style's fontstack by ``init(fontStack:sizePoints:)`` (`FontSpec+FontStack.swift`).
package struct FontSpec: Hashable, Sendable {
    /// Comma-separated families, e.g. "DejaVu Sans, WenQuanYi Micro Hei".
    var families: String = FontConfiguration.fallbackFamilies
    /// The CSS/OpenType weight, 100 (thin) to 900 (black); 400 is regular, 700 bold.
    var weight = 400
    /// Whether the italic (or oblique) face is asked for.
    var italic = false
    var sizePoints: Double

    /// A font spec from one font name such as "DejaVu Sans Bold", keeping the fallbacks.
    package init(styleFontName: String, sizePoints: Double) {
        self.init(fontStack: [styleFontName], sizePoints: sizePoints)
    }

    /// The fallback families, regular weight.
    init(sizePoints: Double) {
        self.sizePoints = sizePoints
    }
}

/// One paragraph of text laid out by Pango for a Cairo context, measured and drawn in points.
///
/// Text of any script shapes through HarfBuzz and falls back across the pinned fonts (see
/// ``FontConfiguration``). Hinting is off so glyph positions scale exactly from 1x to 3x.
package final class TextLayout {
    /// The Pango layout, owned by ``kept`` (and shared with other text laid out alike on this
    /// thread, see `FontConfiguration.sharedLayout(for:key:configure:)`).
    let layout: OpaquePointer
    /// The layout with what it measures, kept with it.
    let kept: FontConfiguration.KeptLayout
    let cairo: OpaquePointer
    /// The text laid out, before any ellipsis.
    let text: String
    /// Its `format` sections styled apart, or nil.
    let sections: [TextSection]?

    /// Lays out `text`.
    ///
    /// - Parameters:
    ///   - maximumWidth: When set, a longer single line is cut with an ellipsis at this width
    ///     in points; with `wraps`, the text wraps onto lines this wide instead, between words
    ///     only (a word longer than the width stands on a line of its own), as MapLibre wraps.
    ///   - sections: `format` sections styled apart (the text is then theirs, joined), each
    ///     with its own font, size and colour.
    package init(
        _ text: String, font: FontSpec, in cairo: OpaquePointer, maximumWidth: Double? = nil, wraps: Bool = false,
        sections: [TextSection]? = nil
    ) {
        self.cairo = cairo
        let text = sections.map { $0.map(\.text).joined() } ?? text
        self.text = text
        self.sections = sections
        let configure = { (layout: OpaquePointer) in
            let options = cairo_font_options_create()
            cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            let context = pango_layout_get_context(layout)
            pango_cairo_context_set_font_options(context, options)
            cairo_font_options_destroy(options)
            pango_layout_context_changed(layout)

            let description = pango_font_description_from_string(font.families)
            pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(font.weight)))
            if font.italic { pango_font_description_set_style(description, PANGO_STYLE_ITALIC) }
            pango_font_description_set_absolute_size(description, font.sizePoints * Double(PANGO_SCALE))
            pango_layout_set_font_description(layout, description)
            pango_font_description_free(description)

            if let maximumWidth {
                // In Pango units, at most Int32.max: a callout in a tile zoom's world (millions of
                // points wide from tile zoom 14) may be as wide as the world.
                pango_layout_set_width(layout, Int32(min(maximumWidth * Double(PANGO_SCALE), Double(Int32.max))))
                if wraps {
                    pango_layout_set_wrap(layout, PANGO_WRAP_WORD)
                    pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
                } else {
                    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
                    pango_layout_set_height(layout, -1)
                }
            }
            pango_layout_set_text(layout, text, -1)
        }
        if let sections {
            let layout = FontConfiguration.makeLayout(for: cairo)
            configure(layout)
            kept = FontConfiguration.KeptLayout(taking: layout, madeFor: cairo)
            self.layout = layout
            apply(sections, font: font)
        } else {
            let attached = FontConfiguration.attached(to: cairo) ?? .pinned
            kept = FontConfiguration.sharedLayout(
                for: cairo,
                key: FontConfiguration.LayoutKey(
                    text: text, font: font, maximumWidth: maximumWidth, wraps: wraps, configuration: attached),
                configure: configure)
            layout = kept.layout
        }
    }

    /// The logical size of the text in points.
    package var size: ViewSize { logicalRect.size }

    /// Whether the text was cut with an ellipsis to fit its maximum width.
    var isEllipsized: Bool { pango_layout_is_ellipsized(layout) != 0 }

    /// The middle of the text's logical rectangle, down from the layout's top, in points.
    var logicalMiddleY: Double { logicalRect.midY }

    /// The text's logical rectangle in the layout's own coordinates: centred lines of a wrapping
    /// layout start right of its origin.
    private var logicalRect: ViewRect {
        if let measured = kept.logicalRect { return measured }
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let scale = Double(PANGO_SCALE)
        let rect = ViewRect(
            x: Double(logical.x) / scale, y: Double(logical.y) / scale,
            width: Double(logical.width) / scale, height: Double(logical.height) / scale)
        kept.logicalRect = rect
        return rect
    }

    /// Draws the text with the top-left corner of its logical rectangle at `textOrigin`, with an
    /// optional halo behind it.
    package func draw(at textOrigin: ViewPoint, color: Color, halo: TextHalo? = nil) {
        let logical = logicalRect
        let origin = ViewPoint(x: textOrigin.x - logical.minX, y: textOrigin.y - logical.minY)
        cairo_save(cairo)
        cairo_new_path(cairo)
        cairo_move_to(cairo, origin.x, origin.y)
        kept.update(to: cairo)
        if let halo, halo.widthPoints > 0, halo.color.alpha > 0 {
            // Round the glyphs as they are drawn below; text of sections in colours of their own
            // round its outlines (a colour's alpha would thin a halo drawn from the glyphs).
            if sections == nil {
                halo.paint(around: .layout(layout, origin: origin), on: cairo)
            } else {
                pango_cairo_layout_path(cairo, layout)
                halo.paint(on: cairo)
            }
            cairo_move_to(cairo, origin.x, origin.y)
        }
        cairo.setSource(color)
        pango_cairo_show_layout(cairo, layout)
        drawSectionImages(at: origin, opacity: color.alpha)
        cairo_restore(cairo)
    }
}
