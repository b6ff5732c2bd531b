import CFreeType
public import Foundation
import MapUtilities

/// The font faces a fontconfig configuration finds, by the names GL styles give fonts
/// (`"Family Style"`, see ``InstalledFont``), for glyph ranges made from them.
///
/// The configuration is one of its own (an `FcConfig` made, listed and destroyed in
/// ``init(directories:configurationFile:)``): fontconfig's current configuration and the
/// process's environment are left alone. Faces without outlines (bitmap fonts) and a variable
/// font's default face (its named instances are listed) are left out.
///
/// A name is looked up (``font(named:)``) among the faces' ``InstalledFont/names``: a face whose
/// own ``InstalledFont/name`` it is wins over one that answers to it through another family or
/// style, then the first in path order; a name matching none exactly is looked up again without
/// regard to case (`Open Sans SemiBold`, as newer Open Sans releases spell it). A stack naming no installed face is drawn with
/// ``fallback(for:)``: Noto Sans, else DejaVu Sans, of the nearest weight and slant.
public struct InstalledFonts: Sendable {
    /// The faces, sorted by path and index.
    public let fonts: [InstalledFont]
    /// The faces' ``InstalledFont/name``s, sorted, each once.
    public let names: [String]
    private let byName: [String: Int]
    private let byLowercasedName: [String: Int]

    /// The families ``fallback(for:)`` draws from, in order: `Noto Sans`, `DejaVu Sans`.
    public static let fallbackFamilies = ["Noto Sans", "DejaVu Sans"]

    /// The faces given.
    public init(fonts: [InstalledFont]) {
        let sorted = fonts.sorted { ($0.path, $0.index) < ($1.path, $1.index) }
        self.fonts = sorted
        names = Array(Set(sorted.map(\.name))).sorted()
        var byName: [String: Int] = [:]
        for (position, font) in sorted.enumerated() where byName[font.name] == nil { byName[font.name] = position }
        for (position, font) in sorted.enumerated() {
            for name in font.names where byName[name] == nil { byName[name] = position }
        }
        self.byName = byName
        var byLowercasedName: [String: Int] = [:]
        for (name, position) in byName.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            if byLowercasedName[name.lowercased()] == nil { byLowercasedName[name.lowercased()] = position }
        }
        self.byLowercasedName = byLowercasedName
    }

    /// The faces in the font files of `directories` (searched recursively), or those of the
    /// fontconfig file `configurationFile` when one is given instead.
    ///
    /// Fontconfig's cache of the scanned files goes to `cacheDirectory` (the renderer's,
    /// `~/.cache/mapwright/fontconfig`, shares its scans); nil (the default) scans into a new
    /// private temporary folder removed before returning (40-90 ms in release for the 325 faces
    /// of setup.sh's font packages), as fontconfig prints an error on every scan without a
    /// writable cache folder.
    ///
    /// - Throws: ``FontGlyphsError/fontconfigUnavailable(reason:)`` when fontconfig cannot make
    ///   the configuration or list its fonts.
    public init(directories: [String], configurationFile: String? = nil, cacheDirectory: URL? = nil)
        throws(FontGlyphsError)
    {
        guard let config = FcConfigCreate() else { throw .fontconfigUnavailable(reason: "FcConfigCreate failed") }
        defer { FcConfigDestroy(config) }
        if let configurationFile {
            guard FcConfigParseAndLoad(config, configurationFile, FcBool(FcTrue)) != 0 else {
                throw .fontconfigUnavailable(reason: "'\(configurationFile)' cannot be read")
            }
        } else {
            let temporary =
                cacheDirectory == nil
                ? AtomicFile.makeUniqueDirectory(
                    in: FileManager.default.temporaryDirectory, prefix: "mapwright-glyphs-fontconfig-") : nil
            defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
            let document = FontconfigDocument.text(
                fontDirectories: directories, cacheDirectory: cacheDirectory ?? temporary)
            let loaded = (Array(document.utf8) + [0]).withUnsafeBufferPointer {
                FcConfigParseAndLoadFromMemory(config, $0.baseAddress, FcBool(FcTrue))
            }
            guard loaded != 0 else { throw .fontconfigUnavailable(reason: "the configuration cannot be parsed") }
        }
        guard FcConfigBuildFonts(config) != 0 else { throw .fontconfigUnavailable(reason: "FcConfigBuildFonts failed") }
        guard let pattern = FcPatternCreate() else { throw .fontconfigUnavailable(reason: "FcPatternCreate failed") }
        defer { FcPatternDestroy(pattern) }
        let objects = [FC_FAMILY, FC_STYLE, FC_FILE, FC_INDEX, FC_WEIGHT, FC_SLANT, FC_WIDTH, FC_OUTLINE, FC_VARIABLE]
        guard let objectSet = FcObjectSetCreate() else {
            throw .fontconfigUnavailable(reason: "FcObjectSetCreate failed")
        }
        defer { FcObjectSetDestroy(objectSet) }
        for object in objects { _ = FcObjectSetAdd(objectSet, object) }
        guard let list = FcFontList(config, pattern, objectSet) else {
            throw .fontconfigUnavailable(reason: "FcFontList failed")
        }
        defer { FcFontSetDestroy(list) }
        var fonts: [InstalledFont] = []
        for position in 0..<Int(list.pointee.nfont) {
            guard let face = list.pointee.fonts[position] else { continue }
            if Self.integer(face, FC_OUTLINE) == 0 || Self.integer(face, FC_VARIABLE) == 1 { continue }
            guard let path = Self.strings(face, FC_FILE).first else { continue }
            let families = Self.strings(face, FC_FAMILY)
            let styles = Self.strings(face, FC_STYLE)
            guard !families.isEmpty, !styles.isEmpty else { continue }
            fonts.append(
                InstalledFont(
                    families: families, styles: styles, path: path, index: Self.integer(face, FC_INDEX) ?? 0,
                    weight: Self.number(face, FC_WEIGHT) ?? 80, slant: Self.integer(face, FC_SLANT) ?? 0,
                    width: Self.number(face, FC_WIDTH) ?? 100, file: FileIdentity(path: path)))
        }
        self.init(fonts: fonts)
    }

    /// The face `name` names (`"Family Style"`, case aside), or nil when none is installed. A
    /// regular face answers to `Regular` and `Book` alike (`DejaVu Sans Book` is DejaVu's own
    /// name, `DejaVu Sans Regular` the one styles write).
    public func font(named name: String) -> InstalledFont? {
        func find(_ name: String) -> InstalledFont? {
            (byName[name] ?? byLowercasedName[name.lowercased()]).map { fonts[$0] }
        }
        if let found = find(name) { return found }
        for (written, other) in [(" Regular", " Book"), (" Book", " Regular")] where name.hasSuffix(written) {
            return find(String(name.dropLast(written.count)) + other)
        }
        return nil
    }

    /// The face drawing a stack none of whose fonts is installed: of ``fallbackFamilies``' first
    /// installed family, the face of normal width nearest `name`'s weight and slant, read from its
    /// last words as GL styles write them (`Metropolis Light` light, `Foo Semibold Italic`
    /// semibold italic, `Bar` regular); nil when neither family is installed.
    public func fallback(for name: String) -> InstalledFont? {
        let (weight, slant) = Self.weightAndSlant(of: name)
        for family in Self.fallbackFamilies {
            let candidates = fonts.filter { $0.families.first == family }
            if let best = candidates.min(by: { score($0) < score($1) }) { return best }
        }
        return nil
        func score(_ font: InstalledFont) -> (Int, Int, Int) {
            ((font.slant == 0) != (slant == 0) ? 1 : 0, abs(font.weight - weight), abs(font.width - 100))
        }
    }

    /// Fontconfig's weight and slant a font name's last words say: `Light` 50, `Semibold` 180,
    /// `Bold` 200 …, regular 80 when none does; `Italic` or `Oblique` 100, roman 0.
    static func weightAndSlant(of name: String) -> (weight: Int, slant: Int) {
        var words = name.lowercased().split(separator: " ").map(String.init)
        var slant = 0
        if let last = words.last, last == "italic" || last == "oblique" {
            slant = 100
            words.removeLast()
        }
        let weights: [String: Int] = [
            "thin": 0, "hairline": 0, "extralight": 40, "ultralight": 40, "light": 50, "regular": 80, "book": 80,
            "normal": 80, "medium": 100, "semibold": 180, "demibold": 180, "bold": 200, "extrabold": 205,
            "ultrabold": 205, "black": 210, "heavy": 210,
        ]
        return (words.count > 1 ? weights[words.last ?? ""] ?? 80 : 80, slant)
    }

    private static func strings(_ pattern: OpaquePointer, _ object: String) -> [String] {
        var values: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(pattern, object, Int32(values.count), &value) == FcResultMatch, let value {
            values.append(String(cString: value))
        }
        return values
    }

    private static func integer(_ pattern: OpaquePointer, _ object: String) -> Int? {
        var value: Int32 = 0
        guard FcPatternGetInteger(pattern, object, 0, &value) == FcResultMatch else {
            var bool: FcBool = 0
            guard FcPatternGetBool(pattern, object, 0, &bool) == FcResultMatch else { return nil }
            return Int(bool)
        }
        return Int(value)
    }

    private static func number(_ pattern: OpaquePointer, _ object: String) -> Int? {
        var value: Double = 0
        guard FcPatternGetDouble(pattern, object, 0, &value) == FcResultMatch else { return integer(pattern, object) }
        return Int(value.rounded())
    }
}
