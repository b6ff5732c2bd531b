extension String {
    /// Levenshtein's edit distance to `other`, by characters: the fewest insertions, deletions
    /// and substitutions that turn one into the other. For "did you mean" suggestions.
    ///
    /// For example, `"Germny".editDistance(to: "Germany")` is 1.
    public func editDistance(to other: String) -> Int {
        let a = Array(self)
        let b = Array(other)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = Swift.min(
                    previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
