public import Foundation
import MapUtilities

/// A folder of SDF glyph fonts served to GL clients under `/fonts/{fontstack}/{range}.pbf`
/// (`serve --fonts`), laid out as TileServer GL's fonts folder and openmaptiles/fonts' releases
/// are: one folder per font, named as styles name the font, holding its glyph ranges of 256 code
/// points each (`FOLDER/Open Sans Regular/0-255.pbf`, `256-511.pbf`, …).
///
/// The fonts are the folder's subfolders that hold at least one range file, listed once when the
/// value is made. A font name in a URL is only ever looked up among them: it is never used as a
/// path. The range files are read when asked for, so a font's files replaced on disk are served
/// as they are now.
public struct ServedFonts: Sendable {
    /// The fonts folder.
    public let directory: URL
    /// The fonts' names, sorted: the folder's subfolders holding range files (hidden ones left out).
    public let names: [String]

    /// The largest range file read: 16 MiB (a range of CJK glyphs is about 200 KiB).
    static let maximumFileBytes = 16 << 20

    /// Lists the fonts of `directory`; a folder that cannot be listed has none.
    public init(directory: URL) {
        self.directory = directory
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

    /// The range files of `fonts` for the range starting at `start`, in the order of `fonts`:
    /// each font served that has a file for the range. Names not served are passed over.
    ///
    /// - Throws: ``MapUtilities/MapUtilitiesError`` when a range file exists but cannot be read.
    func rangeFiles(of fonts: [String], range: GlyphRangeName) throws(MapUtilitiesError) -> [(
        font: String, bytes: Data
    )] {
        var found: [(font: String, bytes: Data)] = []
        for font in fonts where names.contains(font) {
            let file = directory.appendingPathComponent(font).appendingPathComponent(range.fileName)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            found.append((font, try Data(readingFile: file, maximumBytes: Self.maximumFileBytes)))
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
