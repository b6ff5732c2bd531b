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
        var text = String(format: "%.\(maximumFractionDigits)f", self)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
