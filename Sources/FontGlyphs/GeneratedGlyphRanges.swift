public import Foundation
import MapUtilities

/// Glyph ranges generated from installed fonts (``GlyphGenerator``) and kept, so that a range
/// is generated once: in memory (the ranges least recently asked for forgotten past
/// ``memoryCapacityBytes``), and in a folder when one is given, where they outlive the process.
///
/// Identical requests at once are made once: the others wait for it (MapUtilities'
/// `OnceCache`). A kept file is named by its font's identity and the generator's version,
/// `FOLDER/<16 hex digits>/START-END.pbf`, the digits the FNV-1a hash of the font file's path,
/// face index, size and modification time and ``GlyphGenerator/version``: a font file replaced
/// or a generator that draws otherwise never reads an older range. Files are written atomically;
/// one that cannot be written is not kept on disk (the range is still answered and kept in memory).
public final class GeneratedGlyphRanges: Sendable {
    /// Where ranges are kept on disk; nil keeps them in memory only.
    public let folder: URL?
    /// Whether ranges are written to ``folder`` (a read-only folder's are only read).
    public let writesFiles: Bool
    /// The bytes of ranges kept in memory at most: 16 MiB by default (a range of Latin glyphs is
    /// 40-70 KiB, one of CJK ~200 KiB).
    public let memoryCapacityBytes: Int
    private let kept: OnceCache<Key, [UInt8]>

    private struct Key: Hashable, Sendable {
        var font: InstalledFont
        var start: Int
    }

    /// - Parameters:
    ///   - folder: Where ranges are kept on disk; nil (the default) keeps them in memory only.
    ///   - writesFiles: Whether new ranges are written to `folder`. The default is `true`.
    ///   - memoryCapacityBytes: The bytes kept in memory at most. The default is 16 MiB.
    public init(folder: URL? = nil, writesFiles: Bool = true, memoryCapacityBytes: Int = 16 << 20) {
        self.folder = folder
        self.writesFiles = writesFiles
        self.memoryCapacityBytes = memoryCapacityBytes
        kept = OnceCache(maximumCost: memoryCapacityBytes) { $0.count }
    }

    /// The range file of `font` for the 256 code points from `start`: kept in memory, else read
    /// from ``folder``, else generated (and kept).
    ///
    /// - Throws: As ``GlyphGenerator/glyphs(of:start:)``.
    public func rangeFile(of font: InstalledFont, start: Int) throws(FontGlyphsError) -> [UInt8] {
        try kept.value(for: Key(font: font, start: start)) { () throws(FontGlyphsError) -> [UInt8] in
            let file = self.file(of: font, start: start)
            if let file, let data = try? Data(readingFile: file, maximumBytes: 16 << 20) { return [UInt8](data) }
            let bytes = try GlyphGenerator.rangeFile(of: font, start: start)
            if let file, writesFiles {
                try? FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? AtomicFile.write(Data(bytes), to: file)
            }
            return bytes
        }
    }

    /// The file a range of `font` is kept in, under ``folder``.
    func file(of font: InstalledFont, start: Int) -> URL? {
        guard let folder else { return nil }
        var hash = FNV1a()
        hash.combine(font.path.utf8)
        hash.combine("\u{0}\(font.index)\u{0}\(font.file?.sizeBytes ?? -1)\u{0}".utf8)
        hash.combine("\(font.file?.modifiedNanoseconds ?? -1)\u{0}\(GlyphGenerator.version)".utf8)
        return folder.appendingPathComponent(hash.hexDigits, isDirectory: true).appendingPathComponent(
            "\(start)-\(start + 255).pbf")
    }
}
