import FontGlyphs
import Foundation
import MapTestSupport
import Testing
import VectorTiles

/// Generated ranges kept in memory and in a folder: a second request is a lookup, a font file
/// of another identity is generated anew.
@Suite struct GeneratedGlyphRangesTests {
    @Test func aRangeIsGeneratedOnceAndKeptInTheFolder() throws {
        let folder = try TemporaryDirectory()
        let fonts = try InstalledFonts(directories: ["/usr/share/fonts/truetype/dejavu"])
        let font = try #require(fonts.font(named: "DejaVu Sans Bold"))
        let first = try GeneratedGlyphRanges(folder: folder.url).rangeFile(of: font, start: 0)
        #expect(first == (try GlyphGenerator.rangeFile(of: font, start: 0)))
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".pbf") }
        #expect(files.count == 1 && files[0].hasSuffix("/0-255.pbf"), "\(files)")
        // A new instance reads the kept file: changed on disk, its bytes are what it answers.
        let kept = folder.url.appendingPathComponent(files[0])
        try Data([0x0A, 0x00]).write(to: kept)
        #expect(try GeneratedGlyphRanges(folder: folder.url).rangeFile(of: font, start: 0) == [0x0A, 0x00])
        // Another identity of the font file (a newer one) is another file.
        var newer = font
        newer.file = nil
        #expect(try GeneratedGlyphRanges(folder: folder.url).rangeFile(of: newer, start: 0) == first)
        // Kept in memory: the same instance answers without reading the folder again.
        let ranges = GeneratedGlyphRanges(folder: folder.url, writesFiles: false)
        let latin = try ranges.rangeFile(of: font, start: 256)
        #expect(
            !FileManager.default.fileExists(
                atPath: kept.deletingLastPathComponent().appendingPathComponent("256-511.pbf").path))
        #expect(try ranges.rangeFile(of: font, start: 256) == latin)
    }
}
