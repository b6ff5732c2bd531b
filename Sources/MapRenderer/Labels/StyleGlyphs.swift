import Foundation
import MapData
import MapJSON
import MapStyle
import VectorTiles

/// A style's local SDF glyphs (its root `glyphs`, filled in per font stack and range of 256
/// code points), read through ``MapData``'s cache and kept per layout.
///
/// A font stack is drawn from glyphs when its first range (`0-255`) exists; then a character
/// whose range or glyph is missing is skipped, as GL skips it. Font stacks without glyphs are
/// drawn with the installed fonts.
final class StyleGlyphs {
    private let data: MapData
    private let template: String
    private var ranges: [String: GlyphRange?] = [:]
    private var stacks: [String: Bool] = [:]

    /// The glyphs of a style, or nil when it names none on this machine (no `glyphs`, or a URL).
    init?(style: Style, data: MapData) {
        guard let template = style.glyphs, template.hasPrefix("/") else { return nil }
        self.data = data
        self.template = template
    }

    /// The font stack's name as GL asks for it: the fonts joined with commas.
    static func fontStack(_ fonts: [String]) -> String { fonts.joined(separator: ",") }

    private func path(fontStack: String, rangeStart: UInt32) -> String {
        template.replacingOccurrences(of: "{fontstack}", with: fontStack)
            .replacingOccurrences(of: "{range}", with: "\(rangeStart)-\(rangeStart + 255)")
    }

    /// Whether the stack has glyphs here.
    func hasGlyphs(forFontStack fontStack: String) -> Bool {
        if let known = stacks[fontStack] { return known }
        let found = FileManager.default.fileExists(atPath: path(fontStack: fontStack, rangeStart: 0))
        stacks[fontStack] = found
        return found
    }

    /// Whether the stack has a glyph for every character of `text` but whitespace and controls:
    /// what decides that a label is drawn from the glyphs rather than the installed fonts (GL
    /// would leave the missing characters out; a folder with only some ranges, as the GL suite
    /// ships, then still draws every label whole).
    func hasGlyphs(for text: String, fontStack: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .format
                || glyph(scalar.value, fontStack: fontStack) != nil
        }
    }

    /// The stack's glyph for a code point, or nil.
    func glyph(_ codePoint: UInt32, fontStack: String) -> GlyphRange.Glyph? {
        let path = path(fontStack: fontStack, rangeStart: codePoint / 256 * 256)
        if let range = ranges[path] { return range?.glyphs[codePoint] }
        let range = data.glyphRange(atPath: path)
        ranges[path] = .some(range)
        return range?.glyphs[codePoint]
    }

    /// A label's text as runs drawn from the glyphs: its `format` sections styled apart, each
    /// from its own font stack (the layer's `fontStack` where it names none), or the whole text
    /// from `fontStack`; nil when some character has no glyph or needs complex shaping (the
    /// installed fonts draw the label then).
    ///
    /// An image section draws its image from `context`'s sprites; one missing there is left out
    /// and named once in the warnings, as GL leaves it out.
    func runs(
        of symbol: SymbolLayer, text: String, properties: [String: FeatureValue], zoom: Double, fontStack: String,
        context: SymbolContext? = nil
    ) -> [ShapedText.Run]? {
        guard !ShapedText.needsComplexShaping(text) else { return nil }
        guard let sections = symbol.labelSections(for: properties, atZoom: zoom) else {
            guard hasGlyphs(for: text, fontStack: fontStack) else { return nil }
            return [ShapedText.Run(text: text) { self.glyph($0, fontStack: fontStack) }]
        }
        var runs: [ShapedText.Run] = []
        for section in sections {
            if let name = section.image {
                if let image = context?.images[name] {
                    runs.append(
                        .image(
                            image, scale: section.scale ?? 1,
                            verticalAlignment: ShapedText.Run.verticalAlignment(section.verticalAlign)))
                } else {
                    context?.missingImages.value.insert(name)
                }
                continue
            }
            let stack = section.fontStack ?? fontStack
            guard hasGlyphs(for: section.text, fontStack: stack) else { return nil }
            runs.append(
                ShapedText.Run(
                    text: section.text, scale: section.scale ?? 1, color: section.textColor,
                    glyph: { self.glyph($0, fontStack: stack) },
                    verticalAlignment: ShapedText.Run.verticalAlignment(section.verticalAlign)))
        }
        return runs
    }
}
