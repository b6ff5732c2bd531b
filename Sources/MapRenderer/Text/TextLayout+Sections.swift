import CCairo
import Foundation
import MapStyle

/// A `format` section of a label drawn with the installed fonts: its text and how it differs
/// from the layer's text.
struct TextSection: Hashable, Sendable {
    let text: String
    /// `font-scale`: a factor on the layer's text size. The default is 1.
    var scale = 1.0
    /// `text-font`: its font stack (families and weight found as for the layer's); nil keeps the
    /// layer's.
    var fontStack: [String]?
    /// `text-color`; nil keeps the layer's.
    var color: Color?

    /// A symbol layer's sections for a feature, when some is styled apart; nil otherwise.
    static func sections(of symbol: SymbolLayer, properties: [String: StyleFeatureValue], zoom: Double) -> [TextSection]? {
        symbol.labelSections(for: properties, atZoom: zoom)?.map { section in
            TextSection(
                text: section.text, scale: section.scale ?? 1,
                fontStack: section.fontStack.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } },
                color: section.textColor)
        }
    }
}

extension TextLayout {
    /// Styles each section's run of the text (the sections joined) with its font, size and
    /// colour as Pango attributes; the layer's colour and font stay for the rest.
    func apply(_ sections: [TextSection], font: FontSpec) {
        guard let attributes = pango_attr_list_new() else { return }
        var start = 0
        for section in sections {
            let end = start + section.text.utf8.count
            defer { start = end }
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
                insert(pango_attr_foreground_new(channel(color.red), channel(color.green), channel(color.blue)), from: start, to: end, into: attributes)
                insert(pango_attr_foreground_alpha_new(channel(color.alpha)), from: start, to: end, into: attributes)
            }
        }
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)
    }

    private func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?, from start: Int, to end: Int, into list: OpaquePointer) {
        guard let attribute else { return }
        attribute.pointee.start_index = UInt32(start)
        attribute.pointee.end_index = UInt32(end)
        pango_attr_list_insert(list, attribute)
    }
}
