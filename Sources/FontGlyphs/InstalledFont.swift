public import MapUtilities

/// One face of an installed font file, as fontconfig lists it, named as GL styles name fonts:
/// `"Family Style"` (`Open Sans Semibold`, `DejaVu Sans Bold`, `Noto Sans Regular`, `Roboto
/// Italic`), the family and style being fontconfig's first (English) ones, which are the font's
/// own name table's, as node-fontnik names its stacks from FreeType's `family_name` and
/// `style_name`.
public struct InstalledFont: Hashable, Sendable {
    /// `"Family Style"`: ``families``' first and ``styles``' first.
    public var name: String { "\(families.first ?? "") \(styles.first ?? "")" }
    /// Fontconfig's `family` values, first the font's own.
    public var families: [String]
    /// Fontconfig's `style` values, first the font's own.
    public var styles: [String]
    /// The font file.
    public var path: String
    /// The face in the file (a collection's face, or a variable font's named instance in the
    /// high 16 bits, as fontconfig and FreeType number them).
    public var index: Int
    /// Fontconfig's weight: 0 thin, 40 extra light, 50 light, 80 regular, 100 medium, 180
    /// semibold, 200 bold, 205 extra bold, 210 black.
    public var weight: Int
    /// Fontconfig's slant: 0 roman, 100 italic, 110 oblique.
    public var slant: Int
    /// Fontconfig's width: 100 normal, less condensed, more expanded.
    public var width: Int
    /// The file as it was when listed (size, modification time): part of the key its generated
    /// ranges are kept by on disk.
    public var file: FileIdentity?

    public init(
        families: [String], styles: [String], path: String, index: Int, weight: Int, slant: Int, width: Int = 100,
        file: FileIdentity? = nil
    ) {
        self.families = families
        self.styles = styles
        self.path = path
        self.index = index
        self.weight = weight
        self.slant = slant
        self.width = width
        self.file = file
    }

    /// Every `"Family Style"` the face answers to: each family with each style (`Open Sans
    /// Semibold` also as `Open Sans Semibold Regular`), ``name`` first.
    public var names: [String] {
        var all = [name]
        for family in families {
            for style in styles where !all.contains("\(family) \(style)") { all.append("\(family) \(style)") }
        }
        return all
    }
}
