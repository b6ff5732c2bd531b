public import MapJSON

/// A symbol layer's `text-field`: the label text drawn for a feature.
///
/// The MapLibre Style Specification allows a string with `{token}` placeholders ("Layers:
/// symbol, text-field"; a token is replaced by the feature property of that name) and
/// expressions. This subset takes templates such as `"{NAME}"` or `"{name} ({iso_a2})"`, and the
/// expressions `["get", key]`, `["coalesce", ...]`, `["concat", ...]`, `["to-string", ...]` and
/// string literals. For example:
///
/// ```swift
/// let field = TextField.coalesce([.property("name_en"), .property("NAME")])
/// field.text(for: ["NAME": "France"]) // "France"
/// ```
///
/// A missing property yields no text, and a label with no text is not drawn.
public indirect enum TextField: Hashable, Sendable {
    /// A template: literal text with `{property}` tokens. A missing property reads as empty.
    case template([TemplatePart])
    /// A feature property, `["get", key]`; null when missing.
    case property(String)
    /// The first of the fields that is not null, `["coalesce", ...]`.
    case coalesce([TextField])
    /// The fields joined, `["concat", ...]`; a null part reads as empty.
    case concat([TextField])
    /// Any other expression (`match`, `case`, `upcase`...): its value as text.
    case expression(StyleExpression)
    /// A legacy function object (`{"stops": ...}`, `{"property": ...}`): its value, with
    /// `{token}`s in it replaced as in a template.
    case function(StyleValue<String>)

    /// A piece of a template.
    public enum TemplatePart: Hashable, Sendable {
        /// Text drawn as written.
        case literal(String)
        /// `{key}`: the property's value.
        case token(String)
    }

    /// Parses a template string: `{NAME}` is a token, anything else literal text. A `{` without a
    /// closing `}` is literal text.
    public init(template: String) {
        var parts: [TemplatePart] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            parts.append(.token(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self = .template(parts)
    }

    /// The label text for a feature: empty when the properties it reads are missing.
    public func text(for properties: [String: FeatureValue], zoom: Double = 0) -> String {
        value(for: properties, zoom: zoom) ?? ""
    }

    /// The sections of the label for a feature when the field is a `format` expression; nil for
    /// any other field (its label is plain text, ``text(for:zoom:)``).
    public func formatted(for properties: [String: FeatureValue], zoom: Double = 0) -> FormattedText? {
        guard case .expression(let expression) = self,
            case .formatted(let formatted) = expression.evaluate(
                in: ExpressionContext(zoom: zoom, properties: properties))
        else { return nil }
        return formatted
    }

    /// The value as an expression sees it: nil is null.
    private func value(for properties: [String: FeatureValue], zoom: Double) -> String? {
        switch self {
        case .template(let parts):
            return parts.map { part in
                switch part {
                case .literal(let text): return text
                case .token(let key): return properties[key]?.text ?? ""
                }
            }.joined()
        case .property(let key):
            return properties[key]?.text
        case .coalesce(let fields):
            return fields.lazy.compactMap { $0.value(for: properties, zoom: zoom) }.first
        case .concat(let fields):
            return fields.map { $0.value(for: properties, zoom: zoom) ?? "" }.joined()
        case .expression(let expression):
            let value = expression.evaluate(in: ExpressionContext(zoom: zoom, properties: properties))
            return value == .null ? nil : value.text
        case .function(let function):
            return TextField(template: function.value(atZoom: zoom, properties: properties)).value(
                for: properties, zoom: zoom)
        }
    }
}
