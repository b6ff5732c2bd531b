extension Int {
    /// The number with commas between thousands, for people: `1,000,000`, `-12,345`. The
    /// package's one grouped count: tile counts in `tiles export` and `tiles info`.
    public var groupedText: String {
        let digits = String(magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (self < 0 ? "-" : "") + grouped
    }
}
