import MapTestSupport
import Testing
import VectorTiles

/// Glyph ranges of a font stack combined as TileServer GL combines them (glyph-pbf-composite):
/// each code point from the first font that has it, glyphs kept byte for byte, sorted.
@Suite struct GlyphRangeCombiningTests {
    private let first = TestGlyphs.rangeFile(
        fontstack: "First", range: "0-255",
        glyphs: [
            TestGlyphs.Glyph(id: 0x42, size: 10, advance: 12, ink: 201, unknownField: 20),
            TestGlyphs.Glyph(id: 0x41, size: 8, advance: 10, ink: 202),
        ])
    private let second = TestGlyphs.rangeFile(
        fontstack: "Second", range: "0-255",
        glyphs: [
            TestGlyphs.Glyph(id: 0x42, size: 14, advance: 16, ink: 203),
            TestGlyphs.Glyph(id: 0x43, size: 6, advance: 7, ink: 204),
            TestGlyphs.Glyph(id: 0x20, size: 0, advance: 5),
        ])

    @Test func eachCodePointComesFromTheFirstFontThatHasIt() throws {
        let combined = try GlyphRange(
            data: try GlyphRange.combining([first, second], name: "First,Second", range: "0-255"))
        #expect(combined.glyphs.keys.sorted() == [0x20, 0x41, 0x42, 0x43])
        #expect(
            combined.glyphs[0x42]?.advance == 12 && combined.glyphs[0x42]?.bitmap.first == 201, "B is the first font's")
        #expect(combined.glyphs[0x41]?.advance == 10)
        #expect(
            combined.glyphs[0x43]?.advance == 7 && combined.glyphs[0x43]?.bitmap.first == 204, "C only the second has")
        #expect(combined.glyphs[0x20]?.advance == 5)
        let reversed = try GlyphRange(
            data: try GlyphRange.combining([second, first], name: "Second,First", range: "0-255"))
        #expect(reversed.glyphs[0x42]?.advance == 16 && reversed.glyphs[0x42]?.bitmap.first == 203)
    }

    /// The answer is a whole `glyphs` message: one stack named as asked, for the range asked,
    /// holding the glyphs' messages as the files have them (a field no decoder knows included),
    /// by code point.
    @Test func theGlyphsAreCopiedByteForByteInCodePointOrder() throws {
        let combined = try GlyphRange.combining([first, second], name: "First,Second", range: "0-255")
        let expected = TestGlyphs.rangeFile(
            fontstack: "First,Second", range: "0-255",
            glyphs: [
                TestGlyphs.Glyph(id: 0x20, size: 0, advance: 5),
                TestGlyphs.Glyph(id: 0x41, size: 8, advance: 10, ink: 202),
                TestGlyphs.Glyph(id: 0x42, size: 10, advance: 12, ink: 201, unknownField: 20),
                TestGlyphs.Glyph(id: 0x43, size: 6, advance: 7, ink: 204),
            ])
        #expect(combined == expected)
    }

    @Test func damagedBytesAreAnError() {
        #expect(throws: VectorTileError.self) {
            try GlyphRange.combining([first, [0x0A, 0x7F, 0x01]], name: "x", range: "0-255")
        }
    }
}
