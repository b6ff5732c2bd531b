import MapUtilities

extension GlyphRange {
    /// Glyph range files of several fonts made one, as TileServer GL answers a font stack
    /// (mapbox/glyph-pbf-composite's `combine`): every glyph of the first file, then each glyph of
    /// the next files whose code point no earlier file has, sorted by code point, in one
    /// `fontstack` named `name` for the range `range`.
    ///
    /// Each glyph's message is copied byte for byte (whatever fields it carries), so nothing is
    /// lost in decoding and writing again; only the `glyphs` and `fontstack` messages round them
    /// are written anew. For example:
    ///
    /// ```swift
    /// let bytes = try GlyphRange.combining([openSans, notoSans], name: "Open Sans Regular,Noto Sans Regular", range: "0-255")
    /// ```
    ///
    /// - Parameters:
    ///   - files: The fonts' files for one range, first font first.
    ///   - name: The stack's `name` in the answer.
    ///   - range: The stack's `range` in the answer, `START-END`.
    /// - Returns: The `glyphs` message's bytes.
    /// - Throws: ``VectorTileError`` for damaged protobuf bytes in any file.
    public static func combining(_ files: [[UInt8]], name: String, range: String) throws(VectorTileError) -> [UInt8] {
        var seen: Set<UInt32> = []
        var kept: [(id: UInt32, bytes: ArraySlice<UInt8>)] = []
        let location = VectorTileError.Location()
        for data in files {
            var reader = ProtobufReader(bytes: data, range: 0..<data.count, location: location)
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
                    let glyphBytes = try stack.readLengthDelimited(stackField, named: "glyphs")
                    var glyph = ProtobufReader(bytes: data, range: glyphBytes, location: location)
                    var id: UInt32?
                    while let glyphField = try glyph.nextField() {
                        if glyphField.number == 1 {
                            id = UInt32(truncatingIfNeeded: try glyph.readVarint(glyphField, named: "id"))
                        } else {
                            try glyph.skip(glyphField)
                        }
                    }
                    // `id` is required: a glyph without one stands for no code point.
                    guard let id, seen.insert(id).inserted else { continue }
                    kept.append((id, data[glyphBytes]))
                }
            }
        }
        kept.sort { $0.id < $1.id }
        var stack: [UInt8] = []
        appendLengthDelimited(field: 1, Array(name.utf8), to: &stack)
        appendLengthDelimited(field: 2, Array(range.utf8), to: &stack)
        for glyph in kept { appendLengthDelimited(field: 3, glyph.bytes, to: &stack) }
        var output: [UInt8] = []
        appendLengthDelimited(field: 1, stack, to: &output)
        return output
    }

    /// Writes a length-delimited field: its key (wire type 2), the length as a varint, the bytes.
    static func appendLengthDelimited(field: Int, _ bytes: some Collection<UInt8>, to output: inout [UInt8]) {
        Varint.append(UInt64(field << 3 | 2), to: &output)
        Varint.append(UInt64(bytes.count), to: &output)
        output.append(contentsOf: bytes)
    }
}
