public import FontGlyphs
public import Foundation
import MapUtilities

/// The SDF glyph fonts served to GL clients under `/fonts/{fontstack}/{range}.pbf`: a folder of
/// ready ranges (`serve --fonts`), and the fonts installed, whose ranges are generated on demand.
///
/// The folder is laid out as TileServer GL's fonts folder and openmaptiles/fonts' releases are:
/// one folder per font, named as styles name the font, holding its glyph ranges of 256 code
/// points each (`FOLDER/Open Sans Regular/0-255.pbf`, `256-511.pbf`, …). Its fonts are the
/// subfolders that hold at least one range file, listed once when the value is made. A font name
/// in a URL is only ever looked up among them: it is never used as a path. The range files are
/// read when asked for, so a font's files replaced on disk are served as they are now.
///
/// The installed fonts (``installed``: the faces the renderer's fontconfig configuration finds,
/// named `"Family Style"` as GL styles name them, see FontGlyphs' `InstalledFonts`) answer for
/// the names the folder does not have: their ranges are made as the GL suite's glyphs were made
/// (`GlyphGenerator`) and kept (`GeneratedGlyphRanges`). A folder's font of the same name wins.
public struct ServedFonts: Sendable {
    /// The fonts folder; nil for none.
    public let directory: URL?
    /// The folder's fonts' names, sorted: its subfolders holding range files (hidden ones left out).
    public let names: [String]
    /// The installed fonts whose ranges are generated; nil (the default) for none.
    public let installed: InstalledFonts?

    /// The largest range file read: 16 MiB (a range of CJK glyphs is about 200 KiB).
    static let maximumFileBytes = 16 << 20

    /// Lists the fonts of `directory` (nil, or a folder that cannot be listed, has none), with
    /// `installed` (nil, the default, for none) answering for the names it does not have.
    public init(directory: URL?, installed: InstalledFonts? = nil) {
        self.directory = directory
        self.installed = installed
        guard let directory else {
            names = []
            return
        }
        let files = FileManager.default
        let entries = (try? files.contentsOfDirectory(atPath: directory.path)) ?? []
        names = entries.filter { name in
            guard !name.hasPrefix(".") else { return false }
            let font = directory.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard files.fileExists(atPath: font.path, isDirectory: &isFolder), isFolder.boolValue else { return false }
            let ranges = (try? files.contentsOfDirectory(atPath: font.path)) ?? []
            return ranges.contains { $0.hasSuffix(".pbf") && GlyphRangeName($0.dropLast(4)) != nil }
        }.sorted()
    }

    /// Every font served, as `/fonts.json` lists them: the folder's and the installed faces'
    /// `"Family Style"` names, sorted, each once.
    public var allNames: [String] {
        Array(Set(names + (installed?.names ?? []))).sorted()
    }

    /// Whether `name` is served: the folder's or an installed face's.
    func serves(_ name: String) -> Bool {
        names.contains(name) || installed?.font(named: name) != nil
    }

    /// Whether a stack is drawn: it names a font served, or the installed fonts have a fallback
    /// face for it (see ``rangeFiles(of:range:generated:)``).
    func draws(_ stack: [String]) -> Bool {
        stack.contains(where: serves) || stack.first.flatMap { installed?.fallback(for: $0) } != nil
    }

    /// The range files of `fonts` for the range starting at `start`, in the order of `fonts`:
    /// each font of the folder that has a file for the range, and each installed face the folder
    /// does not have, its range generated or kept by `generated` (a face named twice in the
    /// stack counts once). Names not served are passed over; when none of `fonts` is served,
    /// the installed fonts' ``FontGlyphs/InstalledFonts/fallback(for:)`` for the first name.
    ///
    /// - Throws: ``MapUtilities/MapUtilitiesError`` when a range file exists but cannot be read;
    ///   ``FontGlyphs/FontGlyphsError`` when an installed font cannot be read.
    func rangeFiles(of fonts: [String], range: GlyphRangeName, generated: GeneratedGlyphRanges) throws -> [(
        font: String, bytes: Data
    )] {
        var found: [(font: String, bytes: Data)] = []
        var generatedFonts: Set<InstalledFont> = []
        func generate(_ font: InstalledFont) throws {
            guard generatedFonts.insert(font).inserted else { return }
            found.append((font.name, Data(try generated.rangeFile(of: font, start: range.start))))
        }
        for font in fonts {
            if let directory, names.contains(font) {
                let file = directory.appendingPathComponent(font).appendingPathComponent(range.fileName)
                guard FileManager.default.fileExists(atPath: file.path) else { continue }
                found.append((font, try Data(readingFile: file, maximumBytes: Self.maximumFileBytes)))
            } else if let face = installed?.font(named: font) {
                try generate(face)
            }
        }
        if !fonts.contains(where: serves), let first = fonts.first, let fallback = installed?.fallback(for: first) {
            try generate(fallback)
        }
        return found
    }
}

/// The name of a glyph range file, `START-END.pbf` without the extension: 256 code points from a
/// multiple of 256, `0-255` to `65280-65535`, as GL clients ask for them.
struct GlyphRangeName: Hashable, Sendable {
    /// The first code point, a multiple of 256.
    let start: Int

    /// Reads `START-END`; nil for any other text (`0-256`, `1-256`, `0255`, `-0-255`).
    init?(_ text: Substring) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 5 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let start = Int(parts[0]), let end = Int(parts[1]),
            start % 256 == 0, end == start + 255, end <= 0xFFFF
        else { return nil }
        self.start = start
    }

    /// `START-END`.
    var text: String { "\(start)-\(start + 255)" }

    /// `START-END.pbf`.
    var fileName: String { text + ".pbf" }
}
