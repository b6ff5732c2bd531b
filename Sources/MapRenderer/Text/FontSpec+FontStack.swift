import Foundation

/// Reading a style's `text-font` fontstack ("Metropolis Medium Italic", "Noto Sans Regular") as
/// families, a weight and a slant, so Pango finds the installed faces by family and weight, as
/// TileServer GL's font names are made from a font's family and style.
extension FontSpec {
    /// The words that end a font name and name its weight, longest first, with the weight each
    /// stands for (CSS/OpenType: 100 thin to 900 black).
    static let weightWords: [(words: [String], weight: Int)] = [
        (["extra", "light"], 200), (["ultra", "light"], 200), (["semi", "bold"], 600), (["demi", "bold"], 600),
        (["extra", "bold"], 800), (["ultra", "bold"], 800), (["extra", "black"], 950),
        (["thin"], 100), (["hairline"], 100), (["extralight"], 200), (["ultralight"], 200), (["light"], 300),
        (["regular"], 400), (["book"], 400), (["normal"], 400), (["roman"], 400), (["medium"], 500),
        (["semibold"], 600), (["demibold"], 600), (["bold"], 700), (["extrabold"], 800), (["ultrabold"], 800),
        (["heavy"], 800), (["black"], 900), (["extrablack"], 950),
    ]

    /// The words that name a slant.
    static let slantWords: Set<String> = ["italic", "oblique"]

    /// One font name read: its family (the name without its trailing weight and slant words), its
    /// weight (400 when none is named) and whether it is italic. "Open Sans Semibold" is Open Sans
    /// at 600; "Metropolis Light Italic" is Metropolis at 300, italic; "Noto Sans" is itself at 400.
    static func parse(fontName: String) -> (family: String, weight: Int, italic: Bool) {
        var words = fontName.split(separator: " ").map(String.init)
        var weight: Int?
        var italic = false
        // Trailing words, in any order ("Bold Italic", "Italic Bold"), but never the whole name.
        scanning: while words.count > 1 {
            let last = words[words.count - 1].lowercased()
            if slantWords.contains(last) {
                italic = true
                words.removeLast()
                continue
            }
            if weight == nil {
                for entry in weightWords where entry.words.count < words.count {
                    let tail = words.suffix(entry.words.count).map { $0.lowercased() }
                    if tail == entry.words {
                        weight = entry.weight
                        words.removeLast(entry.words.count)
                        continue scanning
                    }
                }
            }
            break
        }
        return (words.joined(separator: " "), weight ?? 400, italic)
    }

    /// The font for `fontStack` at `sizePoints`: each name's family in the stack's order, then the
    /// pinned fallbacks (so every script still finds a face); weight and slant from the first name.
    /// A stack naming only DejaVu Sans is the fallbacks themselves.
    init(fontStack: [String], sizePoints: Double) {
        self.init(sizePoints: sizePoints)
        let names = fontStack.isEmpty ? ["DejaVu Sans Book"] : fontStack
        let parsed = names.map(FontSpec.parse(fontName:))
        var families: [String] = []
        for font in parsed where !families.contains(font.family) { families.append(font.family) }
        let fallbacks = FontConfiguration.fallbackFamilies.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for family in fallbacks where !families.contains(family) { families.append(family) }
        self.families = families.joined(separator: ", ")
        weight = parsed[0].weight
        italic = parsed[0].italic
    }
}
