extension StringProtocol {
    /// The text without white space at either end: the set Foundation's
    /// `CharacterSet.whitespacesAndNewlines` holds on Linux, Unicode's White_Space characters
    /// (spaces of category Zs, tab, and U+000A-U+000D, U+0085, U+2028, U+2029 for line ends) and
    /// U+200B ZERO WIDTH SPACE, in pure Swift: Foundation trims through an `NSString`, which cost
    /// a map's labels a percent of its time.
    public func trimmingWhiteSpace() -> String {
        let string = String(self)
        let scalars = string.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isWhiteSpace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.isWhiteSpace }) ?? first
        // Most labels have nothing to trim: then the text itself, without a copy of its scalars.
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return string }
        // The scalars between, their UTF-8 copied at once (appending scalar by scalar was 3% of a
        // warm render of a style whose labels end in a line break when a name is missing).
        return String(Substring(scalars[first...last]))
    }
}

extension Unicode.Scalar {
    /// Whether the scalar has Unicode's White_Space property or is U+200B (ASCII answered
    /// without a table).
    var isWhiteSpace: Bool {
        value < 0x80 ? value == 0x20 || (0x09...0x0D).contains(value) : value == 0x200B || properties.isWhitespace
    }
}
