/// One file of SDF glyphs, as MapLibre styles' `glyphs` URLs serve them
/// (`{fontstack}/{range}.pbf`: 256 code points each), decoded.
///
/// Each glyph is a signed distance field of its outline rendered at 24 points, in a bitmap
/// with a 3-pixel border: `(width + 6) × (height + 6)` bytes, 192 at the outline, more inside.
/// The format is the `glyphs.proto` of mapbox/glyph-pbf-composite and node-fontnik:
/// `glyphs { repeated fontstack stacks = 1 }`, `fontstack { name = 1; range = 2; repeated glyph
/// glyphs = 3 }`, `glyph { id = 1; bitmap = 2; width = 3; height = 4; sint32 left = 5; sint32 top
/// = 6; advance = 7 }`.
public struct GlyphRange: Sendable {
    /// One glyph: its SDF bitmap and its metrics at 24 points.
    public struct Glyph: Hashable, Sendable {
        /// The code point.
        public var id: UInt32
        /// `(width + 6) × (height + 6)` distance bytes, row-major; empty for a blank glyph (a space).
        public var bitmap: [UInt8]
        /// The outline's size in pixels, without the border.
        public var width: Int, height: Int
        /// The outline's left edge from the pen, and its top above the baseline, in pixels.
        public var left: Int, top: Int
        /// How far the pen moves, in pixels.
        public var advance: Int

        public init(id: UInt32, bitmap: [UInt8], width: Int, height: Int, left: Int, top: Int, advance: Int) {
            self.id = id
            self.bitmap = bitmap
            self.width = width
            self.height = height
            self.left = left
            self.top = top
            self.advance = advance
        }
    }

    /// The border of SDF pixels round each glyph's outline.
    public static let border = 3

    /// The glyphs, by code point.
    public var glyphs: [UInt32: Glyph]

    /// Decodes a glyph range file's bytes.
    ///
    /// - Throws: ``VectorTileError`` for damaged protobuf bytes.
    public init(data: [UInt8]) throws(VectorTileError) {
        let location = VectorTileError.Location()
        var reader = ProtobufReader(bytes: data, range: 0..<data.count, location: location)
        var glyphs: [UInt32: Glyph] = [:]
        while let field = try reader.nextField() {
            guard field.number == 1 else {
                try reader.skip(field)
                continue
            }
            var stack = ProtobufReader(
                bytes: data, range: try reader.readLengthDelimited(field, named: "stacks"), location: location)
            while let stackField = try stack.nextField() {
                guard stackField.number == 3 else {
                    try stack.skip(stackField)
                    continue
                }
                var glyphReader = ProtobufReader(
                    bytes: data, range: try stack.readLengthDelimited(stackField, named: "glyphs"), location: location)
                var glyph = Glyph(id: 0, bitmap: [], width: 0, height: 0, left: 0, top: 0, advance: 0)
                func zigzag(_ value: UInt64) -> Int {
                    Int(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
                }
                while let glyphField = try glyphReader.nextField() {
                    switch glyphField.number {
                    case 1: glyph.id = UInt32(truncatingIfNeeded: try glyphReader.readVarint(glyphField, named: "id"))
                    case 2: glyph.bitmap = Array(data[try glyphReader.readLengthDelimited(glyphField, named: "bitmap")])
                    case 3:
                        glyph.width = Int(truncatingIfNeeded: try glyphReader.readVarint(glyphField, named: "width"))
                    case 4:
                        glyph.height = Int(truncatingIfNeeded: try glyphReader.readVarint(glyphField, named: "height"))
                    case 5: glyph.left = zigzag(try glyphReader.readVarint(glyphField, named: "left"))
                    case 6: glyph.top = zigzag(try glyphReader.readVarint(glyphField, named: "top"))
                    case 7:
                        glyph.advance = Int(
                            truncatingIfNeeded: try glyphReader.readVarint(glyphField, named: "advance"))
                    default: try glyphReader.skip(glyphField)
                    }
                }
                // A bitmap that does not match its size is drawn as a blank glyph.
                let expected = (glyph.width + 2 * GlyphRange.border) * (glyph.height + 2 * GlyphRange.border)
                if glyph.bitmap.count != expected || glyph.width == 0 || glyph.height == 0 { glyph.bitmap = [] }
                glyphs[glyph.id] = glyph
            }
        }
        self.glyphs = glyphs
    }
}
