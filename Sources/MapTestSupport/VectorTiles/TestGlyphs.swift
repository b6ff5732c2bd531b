/// Glyph range files as GL glyph servers write them (the `glyphs.proto` of node-fontnik and
/// mapbox/glyph-pbf-composite), built field by field for the tests: square glyphs whose SDF
/// bytes are all one value, so a glyph can be told by its metrics and its bytes.
///
/// For example, a range of `A` and `B` of the font "Test Sans":
///
/// ```swift
/// let file = TestGlyphs.rangeFile(fontstack: "Test Sans", range: "0-255", glyphs: [
///     TestGlyphs.Glyph(id: 0x41, size: 10, advance: 12), TestGlyphs.Glyph(id: 0x42, size: 12, advance: 14),
/// ])
/// ```
public enum TestGlyphs {
    /// One glyph: a square outline of `size` pixels, its bitmap `(size + 6)²` bytes of `ink`.
    public struct Glyph: Hashable, Sendable {
        public var id: UInt32
        public var size: Int
        public var advance: Int
        /// The value of every SDF byte. The default is 200.
        public var ink: UInt8
        /// A field number no decoder knows, written as a varint after the others when set (a
        /// glyph carrying something new); nil (the default) writes none.
        public var unknownField: Int?

        public init(id: UInt32, size: Int, advance: Int, ink: UInt8 = 200, unknownField: Int? = nil) {
            self.id = id
            self.size = size
            self.advance = advance
            self.ink = ink
            self.unknownField = unknownField
        }

        /// The glyph's message: `id = 1`, `bitmap = 2`, `width = 3`, `height = 4`, `left = 5`
        /// (sint32, 1), `top = 6` (sint32, -size), `advance = 7`.
        public var message: [UInt8] {
            var glyph = ProtobufWriter()
            glyph.varint(1, UInt64(id))
            glyph.lengthDelimited(2, [UInt8](repeating: ink, count: (size + 6) * (size + 6)))
            glyph.varint(3, UInt64(size))
            glyph.varint(4, UInt64(size))
            glyph.varint(5, 2)
            glyph.varint(6, UInt64(max(0, 2 * size - 1)))
            glyph.varint(7, UInt64(advance))
            if let unknownField { glyph.varint(unknownField, 7) }
            return glyph.bytes
        }
    }

    /// A range file: one `fontstack` (`name = 1`, `range = 2`, `glyphs = 3`) in a `glyphs`
    /// message (`stacks = 1`), the glyphs in the order given.
    public static func rangeFile(fontstack: String, range: String, glyphs: [Glyph]) -> [UInt8] {
        var file = ProtobufWriter()
        file.message(1) { stack in
            stack.string(1, fontstack)
            stack.string(2, range)
            for glyph in glyphs { stack.lengthDelimited(3, glyph.message) }
        }
        return file.bytes
    }
}
