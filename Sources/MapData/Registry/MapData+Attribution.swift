public import MapStyle

extension MapData {
    /// The map's credit line, as ``Style/attributionText`` has it (`metadata.mapwright.attribution.text`,
    /// or the distinct `attribution`s of the sources the layers use), except that a vector source
    /// reading a tileset is credited by the tileset's own `attribution` (it describes the data:
    /// OpenStreetMap data carries "© OpenStreetMap contributors" there), the source's being the
    /// fallback for tilesets that name none (tilemaker writes none); nil when nobody is credited.
    /// The text is as the files have it, HTML included (TileJSON carries it so);
    /// ``plainText(ofAttribution:)`` makes the drawn line.
    ///
    /// - Parameter zoom: The zoom the map shows: only the sources of layers visible at it are
    ///   credited, as MapLibre credits the sources it shows. Nil (the default) credits every
    ///   source the layers draw (a tileset's metadata, a TileJSON).
    public func attributionText(for style: Style, zoom: Double? = nil) -> String? {
        if let text = style.mapwright.attribution.text { return text }
        var credits: [String] = []
        for layer in style.layers where zoom.map({ layer.isVisible(atZoom: $0) }) ?? true {
            guard let id = layer.source, let source = style.sources[id] else { continue }
            // Street-level basemaps the user has none of draw nothing, so credit no one.
            if case .vector(let vector) = source, vector.location == .tilesets([]) { continue }
            if case .vector(let vector) = source, case .streetBasemaps = vector.location { continue }
            var text = source.attribution
            if case .vector(let vector) = source, let own = (try? vectorTileSource(vector))??.attribution, !own.isEmpty
            {
                text = own
            }
            if let text, !text.isEmpty, !credits.contains(text) { credits.append(text) }
        }
        return credits.isEmpty ? nil : credits.joined(separator: " · ")
    }

    /// An attribution as the map draws it: HTML tags removed (OpenMapTiles and Planetiler write
    /// `<a href=…>&copy; OpenMapTiles</a>`), character references decoded (`&copy;`, `&#169;`,
    /// `&#xA9;` and HTML's common named ones), runs of white space made one space.
    public static func plainText(ofAttribution html: String) -> String {
        var text = ""
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                text.append(" ")
                index = html.index(after: close)
            } else if character == "&", let semicolon = html[index...].prefix(12).firstIndex(of: ";"),
                let decoded = Self.decodedReference(html[html.index(after: index)..<semicolon])
            {
                text.append(decoded)
                index = html.index(after: semicolon)
            } else {
                text.append(character)
                index = html.index(after: index)
            }
        }
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The character of an HTML character reference's name (`copy`, `#169`, `#xA9`); nil for
    /// names it does not know, which are then kept as written.
    private static func decodedReference(_ name: Substring) -> Character? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
        let named: [Substring: Character] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "copy": "©", "reg": "®",
            "ndash": "–", "mdash": "—", "middot": "·",
        ]
        return named[name]
    }
}
