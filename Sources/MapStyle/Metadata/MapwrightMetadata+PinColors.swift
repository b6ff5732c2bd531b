import MapUtilities

extension MapwrightMetadata.Pins {
    /// The palette colour a key gets on its own, such as a photographer's name: the palette
    /// entry at its FNV-1a hash (of its UTF-8), the same in every run; ``defaultColor`` for an
    /// empty palette. On a map of several keys, use ``colors(forKeys:)``: two keys may share a
    /// hash slot.
    public func color(forKey key: String) -> Color {
        guard !palette.isEmpty else { return defaultColor }
        return palette[preferredSlot(forKey: key)]
    }

    /// The colours of the keys shown together on one map, such as the photographers present:
    /// different colours for different keys while there are no more keys than palette colours.
    ///
    /// Each key wants its ``color(forKey:)`` slot; taking the keys in sorted order, a key whose
    /// slot is taken gets the next free one (linear probing, wrapping around). So the same set of
    /// keys always gets the same colours, whatever order they are given in, and a key mostly
    /// keeps its colour from map to map. Beyond `palette.count` keys, colours repeat: each
    /// further round of keys probes the whole palette afresh. An empty palette gives every key
    /// ``defaultColor``.
    public func colors(forKeys keys: some Sequence<String>) -> [String: Color] {
        let sorted = Set(keys).sorted()
        guard !palette.isEmpty else { return Dictionary(uniqueKeysWithValues: sorted.map { ($0, defaultColor) }) }
        var taken = [Bool](repeating: false, count: palette.count)
        var takenCount = 0
        var colors: [String: Color] = [:]
        for key in sorted {
            if takenCount == palette.count {
                taken = [Bool](repeating: false, count: palette.count)
                takenCount = 0
            }
            var slot = preferredSlot(forKey: key)
            while taken[slot] { slot = (slot + 1) % palette.count }
            taken[slot] = true
            takenCount += 1
            colors[key] = palette[slot]
        }
        return colors
    }

    /// The palette index a key's hash points at; the palette must not be empty.
    private func preferredSlot(forKey key: String) -> Int {
        Int(FNV1a(key.utf8).value % UInt64(palette.count))
    }
}
