import MapUtilities

extension GlyphRange {
    /// A glyph range file's bytes for `glyphs`, as node-fontnik writes them: one `fontstack`
    /// named `name` for the range `range` (`START-END`) in a `glyphs` message, the glyphs sorted
    /// by code point, each with `id`, `bitmap` (only when the glyph has one), `width`, `height`,
    /// `left` and `top` (sint32, zigzag) and `advance`. What ``init(data:)`` reads back.
    ///
    /// For example, the glyphs of one range of a font made by FontGlyphs:
    ///
    /// ```swift
    /// let bytes = GlyphRange.encoded(glyphs, name: "Open Sans Semibold", range: "0-255")
    /// ```
    public static func encoded(_ glyphs: some Sequence<Glyph>, name: String, range: String) -> [UInt8] {
        var stack: [UInt8] = []
        appendLengthDelimited(field: 1, Array(name.utf8), to: &stack)
        appendLengthDelimited(field: 2, Array(range.utf8), to: &stack)
        for glyph in glyphs.sorted(by: { $0.id < $1.id }) {
            var message: [UInt8] = []
            appendVarint(field: 1, UInt64(glyph.id), to: &message)
            if !glyph.bitmap.isEmpty { appendLengthDelimited(field: 2, glyph.bitmap, to: &message) }
            appendVarint(field: 3, UInt64(max(0, glyph.width)), to: &message)
            appendVarint(field: 4, UInt64(max(0, glyph.height)), to: &message)
            appendVarint(field: 5, zigzag(glyph.left), to: &message)
            appendVarint(field: 6, zigzag(glyph.top), to: &message)
            appendVarint(field: 7, UInt64(max(0, glyph.advance)), to: &message)
            appendLengthDelimited(field: 3, message, to: &stack)
        }
        var output: [UInt8] = []
        appendLengthDelimited(field: 1, stack, to: &output)
        return output
    }

    /// A sint32's zigzag encoding: 0, -1, 1, -2 … as 0, 1, 2, 3 ….
    private static func zigzag(_ value: Int) -> UInt64 {
        let value32 = Int32(clamping: value)
        return UInt64(UInt32(bitPattern: (value32 << 1) ^ (value32 >> 31)))
    }

    /// Writes a varint field: its key (wire type 0), then the value.
    private static func appendVarint(field: Int, _ value: UInt64, to output: inout [UInt8]) {
        Varint.append(UInt64(field << 3), to: &output)
        Varint.append(value, to: &output)
    }
}
