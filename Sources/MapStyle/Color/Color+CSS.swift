import Foundation

extension Color {
    /// Parses a CSS colour as the MapLibre Style Specification's
    /// [Color type](https://maplibre.org/maplibre-style-spec/types/#color) allows.
    ///
    /// Accepted, case-insensitively and with surrounding spaces:
    /// - hex: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`;
    /// - `rgb()` and `rgba()` with channels in 0–255 or percentages, and alpha in 0–1 or a percentage;
    /// - `hsl()` and `hsla()` with hue in degrees (optionally suffixed `deg`), saturation and
    ///   lightness as percentages;
    /// - the 148 CSS named colours and `transparent`.
    ///
    /// Function arguments may be separated by commas (`rgba(0, 0, 0, 0.5)`) or by spaces with a
    /// slash before alpha (`rgb(0 0 0 / 50%)`). Out-of-range channels are clamped, as CSS does.
    ///
    /// - Throws: ``StyleError/Kind/invalidColor(_:)`` naming the string.
    public init(css string: String) throws(StyleError) {
        let text = string.trimmingCharacters(in: .whitespaces).lowercased()
        let parsed: Color?
        if text.hasPrefix("#") {
            parsed = Color.parsingHex(text.dropFirst())
        } else if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            let name = String(text[..<open]).trimmingCharacters(in: .whitespaces)
            let arguments = text[text.index(after: open)..<text.index(before: text.endIndex)]
            parsed = Color.parsingFunction(name, arguments: String(arguments))
        } else {
            parsed = Color.namedColors[text]
        }
        guard let parsed else { throw StyleError(.invalidColor(string)) }
        self = parsed
    }

    private static func parsingHex(_ digits: Substring) -> Color? {
        guard [3, 4, 6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        let expanded = digits.count <= 4 ? String(digits.flatMap { [$0, $0] }) : String(digits)
        var values: [Double] = []
        var index = expanded.startIndex
        while index < expanded.endIndex {
            let next = expanded.index(index, offsetBy: 2)
            guard let byte = UInt8(expanded[index..<next], radix: 16) else { return nil }
            values.append(Double(byte) / 255)
            index = next
        }
        return Color(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 1)
    }

    private static func parsingFunction(_ name: String, arguments: String) -> Color? {
        // Split "a, b, c, d", "a b c / d" and "a,b,c/d" alike into tokens, remembering a slash.
        let spaced = arguments.replacingOccurrences(of: ",", with: " ").replacingOccurrences(of: "/", with: " / ")
        var tokens = spaced.split(separator: " ").map(String.init)
        if let slash = tokens.firstIndex(of: "/") {
            guard slash == 3, tokens.count == 5 else { return nil }
            tokens.remove(at: slash)
        }
        guard tokens.count == 3 || tokens.count == 4 else { return nil }
        let alpha: Double
        if tokens.count == 4 {
            guard let value = fraction(tokens[3], scale: 1) else { return nil }
            alpha = value
        } else {
            alpha = 1
        }
        switch name {
        case "rgb", "rgba":
            let channels = tokens.prefix(3).compactMap { fraction($0, scale: 255) }
            guard channels.count == 3 else { return nil }
            return Color(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha)
        case "hsl", "hsla":
            let hueText = tokens[0].hasSuffix("deg") ? String(tokens[0].dropLast(3)) : tokens[0]
            guard let hue = Double(hueText), hue.isFinite,
                let saturation = fraction(tokens[1], scale: 100),
                let lightness = fraction(tokens[2], scale: 100)
            else { return nil }
            return fromHSL(hueDegrees: hue, saturation: saturation, lightness: lightness, alpha: alpha)
        default:
            return nil
        }
    }

    /// A CSS number or percentage as a fraction: `128` with scale 255 is 0.502, `50%` is 0.5.
    private static func fraction(_ token: String, scale: Double) -> Double? {
        if token.hasSuffix("%") {
            guard let percent = Double(token.dropLast()), percent.isFinite else { return nil }
            return percent / 100
        }
        guard let value = Double(token), value.isFinite else { return nil }
        return value / scale
    }

    /// Converts HSL (CSS Color 4, section 7.1) to RGB.
    private static func fromHSL(hueDegrees: Double, saturation: Double, lightness: Double, alpha: Double) -> Color {
        let hue = hueDegrees.truncatingRemainder(dividingBy: 360) + (hueDegrees < 0 ? 360 : 0)
        let s = min(1, max(0, saturation))
        let l = min(1, max(0, lightness))
        func channel(_ n: Double) -> Double {
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return Color(red: channel(0), green: channel(8), blue: channel(4), alpha: alpha)
    }
}
