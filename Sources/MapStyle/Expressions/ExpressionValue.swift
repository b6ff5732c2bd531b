import Foundation
public import MapJSON

/// A value an expression gives: the JSON types, colours, and the specification's own values
/// (formatted text, images, collators).
public enum ExpressionValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(Color)
    case array([ExpressionValue])
    case object([String: ExpressionValue])
    /// `format`'s value: sections of text (or images) with their own font, scale and colour.
    case formatted(FormattedText)
    /// `image`'s value: an image name, and whether the renderer has it.
    case image(ResolvedImage)
    /// `collator`'s value: how strings compare.
    case collator(Collator)

    /// The value as a feature property reads: arrays and colours are not properties.
    public init(_ value: FeatureValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        }
    }

    /// A JSON value as a literal: objects and arrays kept as they are.
    init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(ExpressionValue.init(json:)))
        case .object(let members): self = .object(members.mapValues(ExpressionValue.init(json:)))
        }
    }

    /// The number, or nil.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The string, or nil.
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value's type, as `typeof` names it: an array's item type is the one type all its
    /// items share (`value` when they differ), with its length.
    public var type: ExpressionType {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .number: return .number
        case .string: return .string
        case .color: return .color
        case .object: return .object
        case .formatted: return .formatted
        case .image: return .resolvedImage
        case .collator: return .collator
        case .array(let items):
            var item: ExpressionType?
            for value in items {
                let type = value.type
                if item == nil {
                    item = type
                } else if item != type || type.isArray {
                    // GL compares item types by identity: two array types never match.
                    item = .value
                    break
                }
            }
            return .array(item ?? .value, count: items.count)
        }
    }

    /// The value as `to-string` writes it: null is `""`, numbers as JavaScript writes them,
    /// colours as `rgba(r,g,b,a)`, formatted text as its sections' text, arrays and objects as JSON.
    public var text: String {
        switch self {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return Self.javaScriptText(number)
        case .string(let text): return text
        case .color(let color):
            return
                "rgba(\(Int((color.red * 255).rounded())),\(Int((color.green * 255).rounded())),\(Int((color.blue * 255).rounded())),"
                + "\(Self.javaScriptText(color.alpha)))"
        case .formatted(let formatted): return formatted.text
        case .image(let image): return image.name
        case .collator: return "[object Object]"
        case .array, .object: return jsonText
        }
    }

    /// The value as `JSON.stringify` writes it (object keys sorted).
    var jsonText: String {
        switch self {
        case .null: return "null"
        case .string(let text): return JSONValue.string(text).jsonText
        case .number(let number): return number.isFinite ? Self.javaScriptText(number) : "null"
        case .array(let items): return "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            return "{"
                + members.keys.sorted().map { JSONValue.string($0).jsonText + ":" + members[$0]!.jsonText }.joined(
                    separator: ",") + "}"
        case .color(let color):
            return
                "{\"r\":\(Self.javaScriptText(color.red * color.alpha)),\"g\":\(Self.javaScriptText(color.green * color.alpha)),"
                + "\"b\":\(Self.javaScriptText(color.blue * color.alpha)),\"a\":\(Self.javaScriptText(color.alpha))}"
        default: return JSONValue.string(text).jsonText
        }
    }

    /// JavaScript's truthiness, as `to-boolean` has it.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let number): return number != 0 && !number.isNaN
        case .string(let text): return !text.isEmpty
        default: return true
        }
    }

    /// A number as JavaScript's `String(number)` writes it: `3`, `0.1`, `1e+21`, `1e-7`.
    static func javaScriptText(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == 0 { return "0" }
        let sign = number < 0 ? "-" : ""
        // Swift writes the shortest round-tripping digits, as JavaScript does; only the layout differs.
        let written = "\(abs(number))"
        let parts = written.split(separator: "e")
        var exponent = parts.count > 1 ? Int(parts[1])! : 0
        let mantissa = parts[0]
        var digits = mantissa.replacingOccurrences(of: ".", with: "")
        exponent +=
            (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count)
        while digits.hasPrefix("0") && digits.count > 1 {
            digits.removeFirst()
            exponent -= 1
        }
        while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
        let k = digits.count
        let n = exponent
        if k <= n && n <= 21 { return sign + digits + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 { return sign + digits.prefix(n) + "." + digits.dropFirst(n) }
        if -6 < n && n <= 0 { return sign + "0." + String(repeating: "0", count: -n) + digits }
        let e = n - 1
        return sign + digits.prefix(1) + (k > 1 ? "." + digits.dropFirst() : "") + "e" + (e >= 0 ? "+" : "-")
            + String(abs(e))
    }
}

/// Formatted text (`format`): sections, each with its text or image and optional style.
public struct FormattedText: Hashable, Sendable {
    public struct Section: Hashable, Sendable {
        /// The text; empty for an image section.
        public var text: String
        /// The image's name, for an image section.
        public var image: String?
        /// `font-scale`: a factor on `text-size`; nil keeps the layer's.
        public var scale: Double?
        /// `text-font`, the fonts joined with commas; nil keeps the layer's.
        public var fontStack: String?
        /// `text-color`; nil keeps the layer's.
        public var textColor: Color?
        /// `vertical-align`: `bottom`, `center` or `top`; nil is the baseline.
        public var verticalAlign: String?
    }

    public var sections: [Section]

    /// The text of every section, joined: what a label shows when sections are not styled apart.
    public var text: String { sections.map(\.text).joined() }
}

/// An image `image` names, and whether the renderer has it (`available`).
public struct ResolvedImage: Hashable, Sendable {
    public var name: String
    public var available: Bool
}

/// How `collator` compares strings: case and diacritics, in a locale.
public struct Collator: Hashable, Sendable {
    public var caseSensitive: Bool
    public var diacriticSensitive: Bool
    /// A BCP 47 tag; nil is the process's locale.
    public var locale: String?

    func compare(_ a: String, _ b: String) -> Int {
        var options: String.CompareOptions = []
        if !caseSensitive { options.insert(.caseInsensitive) }
        if !diacriticSensitive { options.insert(.diacriticInsensitive) }
        let result = a.compare(b, options: options, range: nil, locale: Locale(identifier: resolvedLocale))
        return result == .orderedAscending ? -1 : result == .orderedDescending ? 1 : 0
    }

    /// The locale the comparison uses: the given one when the system knows its language, else `en`.
    var resolvedLocale: String {
        guard let locale else { return "en" }
        let language = Locale(identifier: locale).language.languageCode?.identifier ?? ""
        return Locale.LanguageCode.isoLanguageCodes.contains(where: { $0.identifier == language }) ? locale : "en"
    }
}
