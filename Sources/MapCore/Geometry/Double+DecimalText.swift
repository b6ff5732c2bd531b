import Foundation

extension Double {
    /// The default number of decimal places for degrees shown to people: 7, about 1 cm on the
    /// ground, beyond any GPS. RFC 7946 suggests 6 for GeoJSON.
    public static let displayedDegreeDecimalPlaces = 7

    /// This number rounded to `places` decimal places: the double nearest the short decimal,
    /// which prints and encodes as that decimal (`37.810599999999994` to 7 places is `37.8106`).
    /// Non-finite numbers are returned unchanged.
    public func rounded(toDecimalPlaces places: Int) -> Double {
        guard isFinite else { return self }
        let scale = pow(10, Double(places))
        let scaled = self * scale
        guard scaled.magnitude < 1e15 else { return self }
        let rounded = scaled.rounded() / scale
        return rounded == 0 ? 0 : rounded
    }

    /// This number as decimal text with at most `maximumFractionDigits` digits after the point,
    /// trailing zeros dropped and never in exponent form: `-33.9`, `18`, `0.0000001`.
    public func decimalText(maximumFractionDigits: Int) -> String {
        guard isFinite else { return description }
        let places = Swift.max(0, maximumFractionDigits)
        if let text = Self.shortDecimalText(self, places: places) { return text }
        var text = String(format: "%.\(places)f", self)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// Powers of ten that doubles hold exactly, 10^0 to 10^9.
    private static let exactPowersOfTen: [Double] = (0...9).map { pow(10, Double($0)) }

    /// ``decimalText(maximumFractionDigits:)`` in integer arithmetic, as printf's `%.Nf` rounds
    /// it, for the numbers where that is sure (a million coordinates printed by `cluster` took
    /// seconds through `String(format:)`): at most 9 places, fewer than 10^12 units of the last
    /// place, and not within a thousandth of a unit of a tie (where the product's own rounding
    /// could decide). `nil` for the others, which printf formats.
    private static func shortDecimalText(_ value: Double, places: Int) -> String? {
        guard places <= 9 else { return nil }
        let product = value.magnitude * exactPowersOfTen[places]
        guard product < 1e12 else { return nil }
        let whole = product.rounded(.down)
        let fraction = product - whole
        guard (fraction - 0.5).magnitude > 1e-3 else { return nil }
        var units = UInt64(whole) + (fraction > 0.5 ? 1 : 0)
        // Trailing zeros of the fraction dropped.
        var fractionDigits = places
        while fractionDigits > 0, units % 10 == 0 {
            units /= 10
            fractionDigits -= 1
        }
        var divisor: UInt64 = 1
        for _ in 0..<fractionDigits { divisor *= 10 }
        var text = value < 0 && units != 0 ? "-" : ""
        text += String(units / divisor)
        if fractionDigits > 0 {
            let digits = String(units % divisor)
            text += "." + String(repeating: "0", count: fractionDigits - digits.count) + digits
        }
        return text
    }
}
