import MapTestSupport
import Testing
import VectorTiles

/// Glyph ranges encoded as node-fontnik writes them: byte for byte the tests' field-by-field
/// writer's, sorted by code point, read back as written.
@Suite struct GlyphRangeEncodingTests {
    @Test func aRangeIsWrittenAsFontnikWritesIt() throws {
        let test = [
            TestGlyphs.Glyph(id: 0x41, size: 8, advance: 10, ink: 202),
            TestGlyphs.Glyph(id: 0x42, size: 9, advance: 11),
        ]
        let glyphs = test.reversed().map {
            GlyphRange.Glyph(
                id: $0.id, bitmap: [UInt8](repeating: $0.ink, count: ($0.size + 6) * ($0.size + 6)), width: $0.size,
                height: $0.size, left: 1, top: -$0.size, advance: $0.advance)
        }
        let bytes = GlyphRange.encoded(glyphs, name: "Test Sans", range: "0-255")
        #expect(bytes == TestGlyphs.rangeFile(fontstack: "Test Sans", range: "0-255", glyphs: test))
        let space = GlyphRange.Glyph(id: 0x20, bitmap: [], width: 0, height: 0, left: 0, top: -26, advance: 6)
        let decoded = try GlyphRange(data: GlyphRange.encoded(glyphs + [space], name: "Test Sans", range: "0-255"))
        #expect(decoded.glyphs[0x20] == space)
        #expect(decoded.glyphs[0x41] == glyphs[1] && decoded.glyphs[0x42] == glyphs[0])
    }
}
