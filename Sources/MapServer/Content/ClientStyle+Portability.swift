import MapJSON
import MapStyle

/// The served style.json's layers rewritten to use only what both MapLibre GL JS 5.x and
/// MapLibre Native draw (see ``ClientStyle``).
///
/// The style specification's `sdk-support` tables name six properties that GL JS 5.3 or MapLibre
/// Native (Android, iOS) cannot take from feature data, although Mapwright can:
/// `line-dasharray` (GL JS from 5.8, Native none), `line-cap`, `line-miter-limit`,
/// `line-round-limit` (GL JS from 5.22, Native none), `icon-padding` and
/// `text-variable-anchor-offset` (Native none). GL JS 5.3 rejects a whole style over one of them
/// ("data expressions not supported"). A layer whose value of one of them reads feature data is
/// split into one layer per value it can take: the value is a `step`, `match` or `case` (nested
/// as deep as it likes) whose outputs are constants, and each layer draws the features for
/// which it gives one of them, its filter the layer's own (legacy filters written as
/// expressions) and `["==", EXPR, "N"]` with EXPR the value with its outputs numbered. The first
/// layer keeps the layer's `id`, the others are `ID#2`, `ID#3`…, in the same place in the
/// order, each with `metadata["mapwright:split-from"]` naming the layer. A value that cannot be
/// split (an output read from the data) is left out, so the property's default is drawn, and
/// `metadata["mapwright:dropped"]` on the layer names it.
extension ClientStyle {
    /// The properties a GL client cannot take from feature data, by where a layer holds them.
    static let featureConstantProperties: [(group: String, name: String)] = [
        ("paint", "line-dasharray"), ("layout", "line-cap"), ("layout", "line-miter-limit"),
        ("layout", "line-round-limit"), ("layout", "icon-padding"), ("layout", "text-variable-anchor-offset"),
    ]

    /// The layers, each split as GL clients need it (see above), and each drawing text without
    /// a `text-font` given Mapwright's default (``MapStyle/SymbolLayer/defaultFont``, DejaVu Sans
    /// Book) where GL clients would ask for the specification's Open Sans Regular and Arial
    /// Unicode MS Regular and draw other letters than `render`.
    static func portableLayers(_ layers: [JSONValue]) -> [JSONValue] {
        layers.flatMap { layer -> [JSONValue] in
            var split = [withTextFont(layer)]
            for (group, name) in featureConstantProperties {
                split = split.flatMap { splitting($0, group: group, property: name) }
            }
            return split
        }
    }

    /// `layer` with Mapwright's default `text-font` when it draws text and names none.
    private static func withTextFont(_ layer: JSONValue) -> JSONValue {
        guard case .object(var members) = layer, case .object(var layout)? = members["layout"],
            layout["text-field"] != nil, layout["text-font"] == nil
        else { return layer }
        layout["text-font"] = .array(SymbolLayer.defaultFont.map(JSONValue.string))
        members["layout"] = .object(layout)
        return .object(members)
    }

    /// `layer` as one layer per value of its `group`'s `property`, or as it is when the value
    /// does not read feature data.
    private static func splitting(_ layer: JSONValue, group: String, property: String) -> [JSONValue] {
        guard case .object(var members) = layer, case .object(var values)? = members[group],
            let value = values[property], readsFeatures(value)
        else { return [layer] }
        var outputs: [JSONValue] = []
        guard let numbered = numberingOutputs(value, into: &outputs), outputs.count > 1 else {
            if outputs.count == 1 {
                values[property] = outputs[0]
                members[group] = .object(values)
                return [.object(members)]
            }
            values[property] = nil
            members[group] = .object(values)
            var metadata = metadataMembers(members["metadata"])
            metadata["mapwright:dropped"] = .string(
                "\(property): its value is read from feature data, which GL clients do not take for it")
            members["metadata"] = .object(metadata)
            return [.object(members)]
        }
        let id = members["id"]?.text ?? ""
        let filter = members["filter"].map(expressionFilter)
        return outputs.enumerated().map { index, output in
            var copy = members
            var copyValues = values
            // A literal array (a dash pattern) as a property's plain value, as styles write it.
            if case .array(let items) = output, items.count == 2, case .string("literal") = items[0] {
                copyValues[property] = items[1]
            } else {
                copyValues[property] = output
            }
            copy[group] = .object(copyValues)
            let condition = JSONValue.array([.string("=="), numbered, .string("\(index)")])
            copy["filter"] = filter.map { .array([.string("all"), $0, condition]) } ?? condition
            if index > 0 {
                copy["id"] = .string("\(id)#\(index + 1)")
            }
            var metadata = metadataMembers(copy["metadata"])
            metadata["mapwright:split-from"] = .string(id)
            copy["metadata"] = .object(metadata)
            return .object(copy)
        }
    }

    /// A layer's `metadata` members (none when it has none or it is not an object).
    private static func metadataMembers(_ metadata: JSONValue?) -> [String: JSONValue] {
        if case .object(let members)? = metadata { return members }
        return [:]
    }

    /// The expression operators that read a feature, and the legacy function form's key.
    private static let featureOperators: Set<String> = [
        "get", "has", "properties", "geometry-type", "id", "feature-state", "in", "accumulated",
    ]

    /// Whether a property value reads feature data: an expression using a feature operator, or a
    /// legacy property function (`{"property": …}`).
    static func readsFeatures(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let items):
            if case .string(let name)? = items.first {
                if name == "literal" { return false }
                if featureOperators.contains(name) { return true }
            }
            return items.contains(where: readsFeatures)
        case .object(let members):
            return members["property"] != nil
        default:
            return false
        }
    }

    /// `value` with each constant output of its `step`, `match` and `case` replaced by its index
    /// among `outputs` as a string (equal outputs sharing one), or nil when some output is not a
    /// constant.
    private static func numberingOutputs(_ value: JSONValue, into outputs: inout [JSONValue]) -> JSONValue? {
        guard case .array(var items) = value, case .string(let name)? = items.first else {
            return constant(value, into: &outputs)
        }
        let positions: [Int]
        switch name {
        case "literal":
            return constant(value, into: &outputs)
        case "step" where items.count >= 3:
            positions = Array(stride(from: 2, to: items.count, by: 2))
        case "match" where items.count >= 5 && items.count % 2 == 1:
            positions = Array(stride(from: 3, to: items.count - 1, by: 2)) + [items.count - 1]
        case "case" where items.count >= 4 && items.count % 2 == 0:
            positions = Array(stride(from: 2, to: items.count - 1, by: 2)) + [items.count - 1]
        default:
            return nil
        }
        for position in positions {
            guard let numbered = numberingOutputs(items[position], into: &outputs) else { return nil }
            items[position] = numbered
        }
        return .array(items)
    }

    /// A constant output's index among `outputs` (added when new) as a string, or nil for a
    /// value that is not a constant (an expression, an object).
    private static func constant(_ value: JSONValue, into outputs: inout [JSONValue]) -> JSONValue? {
        switch value {
        case .array(let items):
            if case .string("literal")? = items.first {
                break
            }
            guard items.allSatisfy({ if case .number = $0 { true } else { false } }) else { return nil }
        case .number, .string, .bool:
            break
        case .null, .object:
            return nil
        }
        let index = outputs.firstIndex(of: value) ?? outputs.count
        if index == outputs.count { outputs.append(value) }
        return .string("\(index)")
    }

    /// A layer's filter as an expression: expression filters as written, legacy ones
    /// (`["==", "class", "minor"]`, `["in", "$type", "Point"]`, `["!has", "name"]`) written as the
    /// expressions GL reads them as, so that they can be combined with an expression in `all`.
    /// Which filters are legacy follows GL's `isExpressionFilter`.
    static func expressionFilter(_ filter: JSONValue) -> JSONValue {
        guard !isExpressionFilter(filter), case .array(let items) = filter, case .string(let name)? = items.first
        else { return filter }
        func key(_ value: JSONValue) -> JSONValue {
            switch value.text {
            case "$type": return .array([.string("geometry-type")])
            case "$id": return .array([.string("id")])
            default: return .array([.string("get"), value])
            }
        }
        func values(_ list: ArraySlice<JSONValue>) -> JSONValue {
            .array([.string("literal"), .array(Array(list))])
        }
        switch name {
        case "==", "!=", "<", ">", "<=",
            ">=" where items.count == 3:
            return .array([.string(name), key(items[1]), items[2]])
        case "has" where items.count == 2:
            return items[1].text == "$id"
                ? .array([.string("!="), key(items[1]), .null])
                : items[1].text == "$type" ? .bool(true) : filter
        case "!has" where items.count == 2:
            return .array([.string("!"), expressionFilter(.array([.string("has"), items[1]]))])
        case "in" where items.count >= 2:
            return .array([.string("in"), key(items[1]), values(items.dropFirst(2))])
        case "!in" where items.count >= 2:
            return .array([.string("!"), .array([.string("in"), key(items[1]), values(items.dropFirst(2))])])
        case "all", "any":
            return .array([.string(name)] + items.dropFirst().map(expressionFilter))
        case "none":
            return .array([.string("!"), .array([.string("any")] + items.dropFirst().map(expressionFilter))])
        default:
            return filter
        }
    }

    /// Whether GL reads `filter` as an expression (its `isExpressionFilter`) rather than a legacy filter.
    static func isExpressionFilter(_ filter: JSONValue) -> Bool {
        switch filter {
        case .bool: return true
        case .array(let items):
            guard case .string(let name)? = items.first else { return false }
            switch name {
            case "has":
                return items.count >= 2 && items[1].text != "$id" && items[1].text != "$type"
            case "in":
                if items.count < 3 { return false }
                if case .string = items[1] {
                    if case .array = items[2] { return true }
                    return false
                }
                return true
            case "!in", "!has", "none":
                return false
            case "==", "!=", ">", ">=", "<", "<=":
                guard items.count == 3 else { return true }
                if case .array = items[1] { return true }
                if case .array = items[2] { return true }
                return false
            case "any", "all":
                return items.dropFirst().allSatisfy { item in
                    if case .bool = item { return true }
                    return isExpressionFilter(item)
                }
            default:
                return true
            }
        default:
            return false
        }
    }
}
