public import Foundation

/// A fontconfig configuration document that lists only the given font folders: what the
/// renderer's fonts (MapRenderer's `FontConfiguration`) and the glyph generator's installed fonts
/// (FontGlyphs' `InstalledFonts`) load into an `FcConfig` of their own, so that the process's
/// fontconfig configuration and environment never choose the fonts.
///
/// For example:
///
/// ```swift
/// let text = FontconfigDocument.text(fontDirectories: ["/usr/share/fonts/truetype/dejavu"], cacheDirectory: nil)
/// ```
public enum FontconfigDocument {
    /// The document listing `fontDirectories`, in order, with `cacheDirectory` as fontconfig's
    /// cache when given (nil: none, the fonts are scanned in memory), never rescanned while
    /// running; paths are XML-escaped.
    public static func text(fontDirectories: [String], cacheDirectory: URL?) -> String {
        var lines = ["<?xml version=\"1.0\"?>", "<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">", "<fontconfig>"]
        lines += fontDirectories.map { "  <dir>\(escaped($0))</dir>" }
        if let cacheDirectory { lines.append("  <cachedir>\(escaped(cacheDirectory.path))</cachedir>") }
        lines += ["  <config><rescan><int>0</int></rescan></config>", "</fontconfig>"]
        return lines.joined(separator: "\n")
    }

    /// `text` with XML's five special characters escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }
}
