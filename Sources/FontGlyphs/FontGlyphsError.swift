/// Why glyphs could not be made from an installed font: the one error of the FontGlyphs module.
/// A broken glyph inside a font is never one: it is left out of its range.
public enum FontGlyphsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fontconfig could not be set up to list the fonts (`reason` says which step failed).
    case fontconfigUnavailable(reason: String)
    /// FreeType could not open the face at `index` of the file at `path` (FreeType's error `code`).
    case unreadableFont(path: String, index: Int, code: Int32)
    /// A range's first code point is not a multiple of 256 in 0…65280.
    case invalidRange(start: Int)

    /// One line for a person.
    public var description: String {
        switch self {
        case .fontconfigUnavailable(let reason): return "the installed fonts cannot be listed: \(reason)"
        case .unreadableFont(let path, let index, let code):
            return "FreeType cannot open face \(index) of '\(path)' (error \(code))"
        case .invalidRange(let start): return "\(start) does not start a glyph range (a multiple of 256 up to 65280)"
        }
    }
}
