import Foundation
import MapJSON

extension StyleDecoder {
    /// Reads a `filter`, legacy or expression (MapLibre Style Specification, "Layers: filter";
    /// "Deprecations: Other filter"; "Expressions").
    ///
    /// As MapLibre does, a comparison is legacy when it has a key and a value and neither is an
    /// array (`["==", "iso_a2", "FR"]`), and an expression otherwise; `in` is legacy when its
    /// second element is a string and its third, if any, is not an array.
    func filter(_ json: JSONValue, at path: StylePath) throws(StyleError) -> Filter {
        do {
            return try simpleFilter(json, at: path)
        } catch  where error.kind.isUnsupportedExpression {
            // Anything beyond the comparisons of a property with values is a general expression.
            return .expression(try expression(json, at: path))
        }
    }

    /// The filters with a model of their own: comparisons of a property with values, `in`,
    /// `has`, and their combinations.
    private func simpleFilter(_ json: JSONValue, at path: StylePath) throws(StyleError) -> Filter {
        if case .bool(let value) = json { return .constant(value) }
        let items = try array(json, at: path)
        guard case .string(let op) = items.first else {
            throw error(.invalidValue("a filter starts with an operator such as \"==\", \"all\" or \"has\""), at: path)
        }
        let arguments = Array(items.dropFirst())
        switch op {
        case "==", "!=", "<", "<=", ">", ">=":
            guard let comparison = Filter.ComparisonOperator(rawValue: op), arguments.count == 2 else {
                throw error(.unsupportedExpression("'\(op)' compares exactly two values"), at: path)
            }
            if case .string(let key) = arguments[0], !arguments[1].isArray {
                try checkLegacyKey(key, at: path.appending(index: 1))
                return .comparison(
                    comparison, .property(key), .literal(try scalar(arguments[1], at: path.appending(index: 2))))
            }
            return .comparison(
                comparison,
                try operand(arguments[0], at: path.appending(index: 1)),
                try operand(arguments[1], at: path.appending(index: 2))
            )
        case "all", "any", "none":
            var filters: [Filter] = []
            for (index, argument) in arguments.enumerated() {
                filters.append(try simpleFilter(argument, at: path.appending(index: index + 1)))
            }
            return op == "all" ? .all(filters) : op == "any" ? .any(filters) : .not(.any(filters))
        case "!":
            guard arguments.count == 1 else {
                throw error(.unsupportedExpression("'!' negates exactly one filter"), at: path)
            }
            return .not(try simpleFilter(arguments[0], at: path.appending(index: 1)))
        case "has", "!has":
            guard arguments.count == 1 else {
                throw error(.unsupportedExpression("'\(op)' takes exactly one property name"), at: path)
            }
            let key = try string(arguments[0], at: path.appending(index: 1))
            try checkLegacyKey(key, at: path.appending(index: 1))
            return op == "has" ? .has(key) : .not(.has(key))
        case "in", "!in":
            let membership = try membership(arguments, legacyOnly: op == "!in", at: path)
            return op == "in" ? membership : .not(membership)
        default:
            throw error(
                .unsupportedExpression(
                    "filter operator '\(op)' is outside Mapwright's subset: expected ==, !=, <, <=, >, >=, in, !in, has, !has, "
                        + "all, any, none, !"
                ), at: path)
        }
    }

    private func membership(_ arguments: [JSONValue], legacyOnly: Bool, at path: StylePath) throws(StyleError) -> Filter
    {
        guard let first = arguments.first else {
            throw error(.unsupportedExpression("'in' needs a property and values"), at: path)
        }
        if case .string(let key) = first, legacyOnly || !(arguments.dropFirst().first?.isArray ?? false) {
            try checkLegacyKey(key, at: path.appending(index: 1))
            var values: [FeatureValue] = []
            for (index, argument) in arguments.dropFirst().enumerated() {
                values.append(try scalar(argument, at: path.appending(index: index + 2)))
            }
            return .isIn(.property(key), values)
        }
        guard arguments.count == 2, case .array(let haystack) = arguments[1], haystack.count == 2,
            haystack[0] == .string("literal"), case .array(let items) = haystack[1]
        else {
            throw error(
                .unsupportedExpression(
                    "'in' expressions are supported as [\"in\", [\"get\", key], [\"literal\", [values...]]]"
                ), at: path)
        }
        let needle = try operand(arguments[0], at: path.appending(index: 1))
        var values: [FeatureValue] = []
        for (index, item) in items.enumerated() {
            values.append(try scalar(item, at: path.appending(index: 2).appending(index: 1).appending(index: index)))
        }
        return .isIn(needle, values)
    }

    /// An expression operand: `["get", key]`, `["literal", value]` or a plain string, number,
    /// boolean or null.
    private func operand(_ json: JSONValue, at path: StylePath) throws(StyleError) -> FilterOperand {
        guard case .array(let items) = json else { return .literal(try scalar(json, at: path)) }
        switch (items.first, items.count) {
        case (.string("get"), 2):
            return .property(try string(items[1], at: path.appending(index: 1)))
        case (.string("literal"), 2):
            return .literal(try scalar(items[1], at: path.appending(index: 1)))
        default:
            throw error(
                .unsupportedExpression(
                    "\(json.jsonText) is outside Mapwright's subset: compare [\"get\", key] with a value"
                ), at: path)
        }
    }

    private func scalar(_ json: JSONValue, at path: StylePath) throws(StyleError) -> FeatureValue {
        switch json {
        case .string(let value): return .string(value)
        case .number(let value): return .number(value)
        case .bool(let value): return .bool(value)
        case .null: return .null
        case .array, .object: throw wrongType("a string, number, boolean or null", json, at: path)
        }
    }

    /// Legacy filters test properties by name, and `$type` (`Point`, `LineString`, `Polygon`)
    /// and `$id`, which the renderer gives every feature; any name is accepted.
    private func checkLegacyKey(_ key: String, at path: StylePath) throws(StyleError) {}

    // MARK: - Text fields

    /// Reads a `text-field`: a `{token}` template string, or a `get` / `coalesce` / `concat` /
    /// `to-string` expression.
    mutating func textField(_ json: JSONValue, at path: StylePath) throws(StyleError) -> TextField {
        if case .string(let template) = json { return TextField(template: template) }
        if case .object = json {
            let reader = self
            return .function(
                try styleValue(
                    json, at: path, fallback: "",
                    parse: { json, path throws(StyleError) in try reader.string(json, at: path) }))
        }
        do {
            return try textExpression(json, at: path)
        } catch  where error.kind.isUnsupportedExpression {
            return .expression(try expression(json, at: path))
        }
    }

    private func textExpression(_ json: JSONValue, at path: StylePath) throws(StyleError) -> TextField {
        switch json {
        case .string(let text):
            return .template([.literal(text)])
        case .number, .bool:
            return .template([.literal(try scalar(json, at: path).text ?? "")])
        case .array(let items):
            guard case .string(let op) = items.first else { break }
            let arguments = Array(items.dropFirst())
            switch (op, arguments.count) {
            case ("get", 1):
                return .property(try string(arguments[0], at: path.appending(index: 1)))
            case ("literal", 1), ("to-string", 1):
                return try textExpression(arguments[0], at: path.appending(index: 1))
            case ("coalesce", 1...), ("concat", 1...):
                var fields: [TextField] = []
                for (index, argument) in arguments.enumerated() {
                    fields.append(try textExpression(argument, at: path.appending(index: index + 1)))
                }
                return op == "coalesce" ? .coalesce(fields) : .concat(fields)
            default:
                break
            }
        case .null, .object:
            break
        }
        throw error(
            .unsupportedExpression(
                "\(json.jsonText) is outside Mapwright's text-field subset: a \"{token}\" string, or get, coalesce, concat, "
                    + "to-string"
            ), at: path)
    }
}

extension JSONValue {
    var isArray: Bool {
        if case .array = self { return true }
        return false
    }
}
