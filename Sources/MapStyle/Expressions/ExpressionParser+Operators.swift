import Foundation
import MapJSON

extension ExpressionParser {
    /// An operator's operand types: a fixed list, or any number of one type.
    enum Signature {
        case fixed([ExpressionType])
        case variadic(ExpressionType)

        var text: String {
            switch self {
            case .fixed(let types): return "(" + types.map(\.description).joined(separator: ", ") + ")"
            case .variadic(let type): return "(\(type)...)"
            }
        }
    }

    /// The functions of fixed operands: result type and overloads.
    static let definitions: [ExpressionOperator: (ExpressionType, [Signature])] = {
        let n = ExpressionType.number
        let s = ExpressionType.string
        var table: [ExpressionOperator: (ExpressionType, [Signature])] = [
            .get: (.value, [.fixed([s]), .fixed([s, .object])]),
            .has: (.boolean, [.fixed([s]), .fixed([s, .object])]),
            .properties: (.object, [.fixed([])]),
            .geometryType: (s, [.fixed([])]),
            .id: (.value, [.fixed([])]),
            .zoom: (n, [.fixed([])]),
            .heatmapDensity: (n, [.fixed([])]),
            .lineProgress: (n, [.fixed([])]),
            .accumulated: (.value, [.fixed([])]),
            .featureState: (.value, [.fixed([s])]),
            .typeOf: (s, [.fixed([.value])]),
            .error: (.error, [.fixed([s])]),
            .toRGBA: (.array(n, count: 4), [.fixed([.color])]),
            .rgb: (.color, [.fixed([n, n, n])]),
            .rgba: (.color, [.fixed([n, n, n, n])]),
            .add: (n, [.variadic(n)]),
            .multiply: (n, [.variadic(n)]),
            .subtract: (n, [.fixed([n, n]), .fixed([n])]),
            .divide: (n, [.fixed([n, n])]),
            .remainder: (n, [.fixed([n, n])]),
            .power: (n, [.fixed([n, n])]),
            .minimum: (n, [.variadic(n)]),
            .maximum: (n, [.variadic(n)]),
            .not: (.boolean, [.fixed([.boolean])]),
            .isSupportedScript: (.boolean, [.fixed([s])]),
            .upcase: (s, [.fixed([s])]),
            .downcase: (s, [.fixed([s])]),
            .concat: (s, [.variadic(.value)]),
            .resolvedLocale: (s, [.fixed([.collator])]),
            .split: (.array(s, count: nil), [.fixed([s, s])]),
            .join: (s, [.fixed([.array(s, count: nil), s])]),
        ]
        for op: ExpressionOperator in [.e, .pi, .ln2] { table[op] = (n, [.fixed([])]) }
        for op: ExpressionOperator in [
            .absolute, .floor, .ceil, .round, .squareRoot, .ln, .log10, .log2, .sin, .cos, .tan, .asin, .acos, .atan,
        ] {
            table[op] = (n, [.fixed([n])])
        }
        return table
    }()

    /// The first two operands of `in` and `index-of`, parsed and checked as GL checks them: a
    /// needle of a basic type and a string or array to look in; nil after reporting an error.
    private mutating func needleAndHaystack(_ args: [JSONValue], key: String) -> (Typed, Typed)? {
        guard let needle = parse(args[0], key: key + "[1]", expected: .value),
            let haystack = parse(args[1], key: key + "[2]", expected: .value)
        else { return nil }
        guard ["boolean", "string", "number", "null", "value"].contains(needle.type.kind) else {
            _ = error(
                "Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead",
                key)
            return nil
        }
        guard ["string", "array", "value"].contains(haystack.type.kind) else {
            _ = error("Expected second argument to be of type array or string, but found \(haystack.type) instead", key)
            return nil
        }
        return (needle, haystack)
    }

    /// An optional trailing number operand (`index-of`'s start, `slice`'s end): `.some(nil)`
    /// when absent, the parsed expression when present, nil after reporting an error.
    private mutating func optionalNumber(_ args: [JSONValue], at index: Int, key: String) -> StyleExpression?? {
        guard args.count > index else { return .some(nil) }
        guard let parsed = parse(args[index], key: key + "[\(index + 1)]", expected: .number) else { return nil }
        return .some(parsed.expression)
    }

    mutating func parseOperator(_ op: String, _ items: [JSONValue], key: String, expected: ExpressionType?) -> Typed? {
        let args = Array(items.dropFirst())
        func at(_ index: Int) -> String { key + "[\(index)]" }
        switch op {
        case "literal":
            guard args.count == 1 else {
                return error(
                    "'literal' expression requires exactly one argument, but found \(args.count) instead.", key)
            }
            let value = ExpressionValue(json: args[0])
            var type = value.type
            if case .array(.value, 0) = type, case .array(_, let count)? = expected, count == nil || count == 0 {
                type = expected!
            }
            return Typed(expression: .literal(value), type: type)
        case "let":
            guard args.count >= 3 else {
                return error("Expected at least 3 arguments, but found \(args.count) instead.", key)
            }
            var bindings: [String: Typed] = [:]
            var index = 1
            while index < items.count - 1 {
                guard case .string(let name) = items[index] else {
                    return error("Expected string, but found \(items[index].kindName) instead.", at(index))
                }
                guard name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else {
                    return error("Variable names must contain only alphanumeric characters or '_'.", at(index))
                }
                guard let value = parse(items[index + 1], key: at(index + 1), expected: nil) else { return nil }
                bindings[name] = value
                index += 2
            }
            return parse(items[items.count - 1], key: at(items.count - 1), expected: expected, bindings: bindings)
        case "var":
            guard args.count == 1, case .string(let name) = args[0] else {
                return error("'var' expression requires exactly one string literal argument.", key)
            }
            guard let bound = scopeValue(name) else {
                return error(
                    "Unknown variable \"\(name)\". Make sure \"\(name)\" has been bound in an enclosing \"let\" expression before using it.",
                    at(1))
            }
            return Typed(expression: .variable(name, bound.expression), type: bound.type)
        case "string", "number", "boolean", "object", "array":
            return assertion(op, items, key: key)
        case "to-boolean", "to-color", "to-number", "to-string":
            guard !args.isEmpty else { return error("Expected at least one argument.", key) }
            let type: ExpressionType =
                op == "to-boolean" ? .boolean : op == "to-color" ? .color : op == "to-number" ? .number : .string
            if (type == .boolean || type == .string) && args.count != 1 { return error("Expected one argument.", key) }
            var parsed: [StyleExpression] = []
            for index in args.indices {
                guard let arg = parse(args[index], key: at(index + 1), expected: .value) else { return nil }
                parsed.append(arg.expression)
            }
            return Typed(expression: .coercion(type, parsed), type: type)
        case "==", "!=", "<", "<=", ">", ">=":
            return comparison(StyleExpression.ComparisonOperator(rawValue: op)!, items, key: key)
        case "all", "any":
            var parsed: [StyleExpression] = []
            for index in args.indices {
                guard let arg = parse(args[index], key: at(index + 1), expected: .boolean) else { return nil }
                parsed.append(arg.expression)
            }
            return Typed(expression: op == "all" ? .all(parsed) : .any(parsed), type: .boolean)
        case "case":
            guard items.count >= 4 else {
                return error("Expected at least 3 arguments, but found only \(args.count).", key)
            }
            guard items.count % 2 == 0 else { return error("Expected an odd number of arguments.", key) }
            var output: ExpressionType? = expected.flatMap { $0 == .value ? nil : $0 }
            var arms: [StyleExpression.ConditionCase] = []
            var index = 1
            while index < items.count - 1 {
                guard let test = parse(items[index], key: at(index), expected: .boolean),
                    let result = parse(items[index + 1], key: at(index + 1), expected: output)
                else { return nil }
                output = output ?? result.type
                arms.append(.init(condition: test.expression, output: result.expression))
                index += 2
            }
            guard let otherwise = parse(items[items.count - 1], key: at(items.count - 1), expected: output) else {
                return nil
            }
            return Typed(expression: .condition(arms, fallback: otherwise.expression), type: output ?? otherwise.type)
        case "match":
            return match(items, key: key, expected: expected)
        case "coalesce":
            guard !args.isEmpty else { return error("Expectected at least one argument.", key) }
            var output: ExpressionType? = expected.flatMap { $0 == .value ? nil : $0 }
            var parsed: [Typed] = []
            for index in args.indices {
                guard let arg = parse(args[index], key: at(index + 1), expected: output, annotation: .omit) else {
                    return nil
                }
                output = output ?? arg.type
                parsed.append(arg)
            }
            let needsAnnotation =
                expected.map { expected in parsed.contains { expected.mismatch($0.type) != nil } } ?? false
            return Typed(expression: .coalesce(parsed.map(\.expression)), type: needsAnnotation ? .value : output!)
        case "step":
            return step(items, key: key, expected: expected)
        case "interpolate", "interpolate-hcl", "interpolate-lab":
            return interpolate(op, items, key: key, expected: expected)
        case "at":
            guard args.count == 2 else { return error("Expected 2 arguments, but found \(args.count) instead.", key) }
            guard let index = parse(args[0], key: at(1), expected: .number),
                let array = parse(args[1], key: at(2), expected: .array(expected ?? .value, count: nil))
            else { return nil }
            return Typed(expression: .at(index.expression, array.expression), type: array.type.itemType ?? .value)
        case "in":
            guard args.count == 2 else { return error("Expected 2 arguments, but found \(args.count) instead.", key) }
            guard case (let needle, let haystack)? = needleAndHaystack(args, key: key) else { return nil }
            return Typed(expression: .isIn(needle.expression, haystack.expression), type: .boolean)
        case "index-of":
            guard args.count == 2 || args.count == 3 else {
                return error("Expected 3 or 4 arguments, but found \(args.count) instead.", key)
            }
            guard case (let needle, let haystack)? = needleAndHaystack(args, key: key) else { return nil }
            guard let from = optionalNumber(args, at: 2, key: key) else { return nil }
            return Typed(expression: .indexOf(needle.expression, haystack.expression, from: from), type: .number)
        case "slice":
            guard args.count == 2 || args.count == 3 else {
                return error("Expected 3 or 4 arguments, but found \(args.count) instead.", key)
            }
            guard let input = parse(args[0], key: at(1), expected: .value),
                let begin = parse(args[1], key: at(2), expected: .number)
            else { return nil }
            guard ["string", "array", "value"].contains(input.type.kind) else {
                return error(
                    "Expected first argument to be of type array or string, but found \(input.type) instead", key)
            }
            guard let end = optionalNumber(args, at: 2, key: key) else { return nil }
            let type: ExpressionType = input.type.itemType.map { .array($0, count: nil) } ?? input.type
            return Typed(expression: .slice(input.expression, begin.expression, end: end), type: type)
        case "length":
            guard args.count == 1 else { return error("Expected 1 argument, but found \(args.count) instead.", key) }
            guard let input = parse(args[0], key: at(1), expected: nil) else { return nil }
            guard ["string", "array", "value"].contains(input.type.kind) else {
                return error("Expected argument of type string or array, but found \(input.type) instead.", key)
            }
            return Typed(expression: .call(.length, [input.expression]), type: .number)
        case "global-state":
            guard args.count == 1 else { return error("Expected 1 argument, but found \(args.count) instead.", key) }
            guard case .string(let name) = args[0] else {
                return error("Global state property must be string, but found \(args[0].kindName) instead.", key)
            }
            return Typed(
                expression: .call(
                    .globalState, [.literal(.string(name)), .literal(globalStateDefaults[name] ?? .null)]), type: .value
            )
        case "image":
            guard args.count == 1 else { return error("Expected two arguments.", key) }
            guard let name = parse(args[0], key: at(1), expected: .string) else {
                return error("No image name provided.", key)
            }
            return Typed(expression: .call(.image, [name.expression]), type: .resolvedImage)
        case "format":
            return format(items, key: key)
        case "number-format":
            return numberFormat(items, key: key)
        case "collator":
            guard args.count == 1 else { return error("Expected one argument.", key) }
            guard case .object(let options) = args[0] else {
                return error("Collator options argument must be an object.", key)
            }
            guard let caseSensitive = parse(options["case-sensitive"] ?? .bool(false), key: at(1), expected: .boolean),
                let diacriticSensitive = parse(
                    options["diacritic-sensitive"] ?? .bool(false), key: at(1), expected: .boolean)
            else { return nil }
            var locale: StyleExpression?
            if let json = options["locale"] {
                guard let parsed = parse(json, key: at(1), expected: .string) else { return nil }
                locale = parsed.expression
            }
            return Typed(
                expression: .collator(
                    caseSensitive: caseSensitive.expression, diacriticSensitive: diacriticSensitive.expression,
                    locale: locale), type: .collator)
        case "within":
            guard args.count == 1 else {
                return error("'within' expression requires exactly one argument, but found \(args.count) instead.", key)
            }
            guard let polygons = GeoPolygons(geoJSON: args[0]) else {
                return error(
                    "'within' expression requires valid geojson object that contains polygon geometry type.", key)
            }
            return Typed(expression: .within(polygons), type: .boolean)
        case "distance":
            guard args.count == 1 else {
                return error(
                    "'distance' expression requires exactly one argument, but found \(args.count) instead.", key)
            }
            guard let shapes = GeoShapes(geoJSON: args[0]) else {
                return error(
                    "'distance' expression requires valid geojson object that contains polygon geometry type.", key)
            }
            return Typed(expression: .distance(shapes), type: .number)
        default:
            guard let name = ExpressionOperator(rawValue: op), let definition = Self.definitions[name] else {
                return nil
            }
            return call(name, definition, args, key: key)
        }
    }

    private func scopeValue(_ name: String) -> Typed? { scopeLookup(name) }

    /// A function of fixed operands: the first overload whose operands parse and check.
    private mutating func call(
        _ op: ExpressionOperator, _ definition: (ExpressionType, [Signature]), _ args: [JSONValue], key: String
    ) -> Typed? {
        let (type, available) = definition
        let overloads = available.filter {
            if case .fixed(let types) = $0 { return types.count == args.count } else { return true }
        }
        var lastErrors: [ExpressionParseError] = []
        let before = errors
        for signature in overloads {
            errors = []
            var parsed: [StyleExpression] = []
            var failed = false
            for (index, arg) in args.enumerated() {
                let expected: ExpressionType
                switch signature {
                case .fixed(let types): expected = types[index]
                case .variadic(let item): expected = item
                }
                guard let operand = parse(arg, key: key + "[\(index + 1)]", expected: expected) else {
                    failed = true
                    break
                }
                parsed.append(operand.expression)
            }
            if !failed && errors.isEmpty {
                errors = before
                return Typed(expression: .call(op, parsed), type: type)
            }
            lastErrors = errors
        }
        errors = before
        if overloads.count == 1 {
            errors += lastErrors
            return nil
        }
        let signatures = (overloads.isEmpty ? available : overloads).map(\.text).joined(separator: " | ")
        var actual: [String] = []
        for (index, arg) in args.enumerated() {
            guard let parsed = parse(arg, key: key + "[\(index + 1)]", expected: nil) else { return nil }
            actual.append(parsed.type.description)
        }
        return error(
            "Expected arguments of type \(signatures), but found (\(actual.joined(separator: ", "))) instead.", key)
    }

    private mutating func assertion(_ op: String, _ items: [JSONValue], key: String) -> Typed? {
        guard items.count >= 2 else { return error("Expected at least one argument.", key) }
        var index = 1
        var type: ExpressionType
        if op == "array" {
            var item = ExpressionType.value
            var count: Int?
            if items.count > 2 {
                let names: [String: ExpressionType] = ["string": .string, "number": .number, "boolean": .boolean]
                guard case .string(let name) = items[1], let named = names[name] else {
                    return error(
                        "The item type argument of \"array\" must be one of string, number, boolean", key + "[1]")
                }
                item = named
                index += 1
            }
            if items.count > 3 {
                switch items[2] {
                case .null: break
                case .number(let number) where number >= 0 && number == number.rounded(.down): count = Int(number)
                default:
                    return error("The length argument to \"array\" must be a positive integer literal", key + "[2]")
                }
                index += 1
            }
            type = .array(item, count: count)
        } else {
            type = ["string": .string, "number": .number, "boolean": .boolean, "object": .object][op]!
        }
        var parsed: [StyleExpression] = []
        while index < items.count {
            guard let operand = parse(items[index], key: key + "[\(index)]", expected: .value) else { return nil }
            parsed.append(operand.expression)
            index += 1
        }
        return Typed(expression: .assertion(type, parsed), type: type)
    }

    private mutating func comparison(_ op: StyleExpression.ComparisonOperator, _ items: [JSONValue], key: String)
        -> Typed?
    {
        guard items.count == 3 || items.count == 4 else { return error("Expected two or three arguments.", key) }
        func comparable(_ type: ExpressionType) -> Bool {
            op.isOrdering
                ? ["string", "number", "value"].contains(type.kind)
                : ["boolean", "string", "number", "null", "value"].contains(type.kind)
        }
        guard var lhs = parse(items[1], key: key + "[1]", expected: .value) else { return nil }
        guard comparable(lhs.type) else {
            return error("\"\(op.rawValue)\" comparisons are not supported for type '\(lhs.type)'.", key + "[1]")
        }
        guard var rhs = parse(items[2], key: key + "[2]", expected: .value) else { return nil }
        guard comparable(rhs.type) else {
            return error("\"\(op.rawValue)\" comparisons are not supported for type '\(rhs.type)'.", key + "[2]")
        }
        if lhs.type.kind != rhs.type.kind && lhs.type != .value && rhs.type != .value {
            return error("Cannot compare types '\(lhs.type)' and '\(rhs.type)'.", key)
        }
        if op.isOrdering {
            if lhs.type == .value && rhs.type != .value {
                lhs = Typed(expression: .assertion(rhs.type, [lhs.expression]), type: rhs.type)
            } else if lhs.type != .value && rhs.type == .value {
                rhs = Typed(expression: .assertion(lhs.type, [rhs.expression]), type: lhs.type)
            }
        }
        var collator: StyleExpression?
        if items.count == 4 {
            if lhs.type != .string && rhs.type != .string && lhs.type != .value && rhs.type != .value {
                return error("Cannot use collator to compare non-string types.", key)
            }
            guard let parsed = parse(items[3], key: key + "[3]", expected: .collator) else { return nil }
            collator = parsed.expression
        }
        return Typed(
            expression: .compare(
                op, lhs.expression, rhs.expression, collator: collator,
                checked: lhs.type == .value && rhs.type == .value),
            type: .boolean)
    }

    private mutating func match(_ items: [JSONValue], key: String, expected: ExpressionType?) -> Typed? {
        guard items.count >= 5 else {
            return error("Expected at least 4 arguments, but found only \(items.count - 1).", key)
        }
        guard items.count % 2 == 1 else { return error("Expected an even number of arguments.", key) }
        var inputType: ExpressionType?
        var output: ExpressionType? = expected.flatMap { $0 == .value ? nil : $0 }
        var cases: [StyleExpression.MatchCase] = []
        var seen: Set<ExpressionValue> = []
        var index = 2
        while index < items.count - 1 {
            let labelKey = key + "[\(index)]"
            var labels: [JSONValue]
            if case .array(let list) = items[index] { labels = list } else { labels = [items[index]] }
            guard !labels.isEmpty else { return error("Expected at least one branch label.", labelKey) }
            var values: [ExpressionValue] = []
            for label in labels {
                let value: ExpressionValue
                switch label {
                case .string(let text): value = .string(text)
                case .number(let number):
                    guard abs(number) <= 9_007_199_254_740_991 else {
                        return error("Branch labels must be integers no larger than 9007199254740991.", labelKey)
                    }
                    guard number.rounded(.down) == number else {
                        return error("Numeric branch labels must be integer values.", labelKey)
                    }
                    value = .number(number)
                default: return error("Branch labels must be numbers or strings.", labelKey)
                }
                if let inputType {
                    guard check(inputType, value.type, labelKey) else { return nil }
                } else {
                    inputType = value.type
                }
                // GL keys labels by their text, so 1 and "1" clash.
                guard seen.insert(.string(value.text)).inserted else {
                    return error("Branch labels must be unique.", labelKey)
                }
                values.append(value)
            }
            guard let result = parse(items[index + 1], key: key + "[\(index + 1)]", expected: output) else {
                return nil
            }
            output = output ?? result.type
            cases.append(.init(labels: values, output: result.expression))
            index += 2
        }
        guard let input = parse(items[1], key: key + "[1]", expected: .value),
            let otherwise = parse(items[items.count - 1], key: key + "[\(items.count - 1)]", expected: output)
        else { return nil }
        if input.type != .value, let inputType, !check(inputType, input.type, key + "[1]") { return nil }
        return Typed(
            expression: .match(input.expression, cases: cases, fallback: otherwise.expression),
            type: output ?? otherwise.type)
    }

    private mutating func step(_ items: [JSONValue], key: String, expected: ExpressionType?) -> Typed? {
        guard items.count - 1 >= 4 else {
            return error("Expected at least 4 arguments, but found only \(items.count - 1).", key)
        }
        guard (items.count - 1) % 2 == 0 else { return error("Expected an even number of arguments.", key) }
        guard let input = parse(items[1], key: key + "[1]", expected: .number) else { return nil }
        var output: ExpressionType? = expected.flatMap { $0 == .value ? nil : $0 }
        var stops: [StyleExpression.Stop] = []
        var index = 1
        while index < items.count {
            let label: Double
            if index == 1 {
                label = -.infinity
            } else {
                guard case .number(let number) = items[index] else {
                    return error(
                        "Input/output pairs for \"step\" expressions must be defined using literal numeric values (not computed expressions) for the input values.",
                        key + "[\(index)]")
                }
                label = number
            }
            if let last = stops.last, last.input >= label {
                return error(
                    "Input/output pairs for \"step\" expressions must be arranged with input values in strictly ascending order.",
                    key + "[\(index)]")
            }
            guard let parsed = parse(items[index + 1], key: key + "[\(index + 1)]", expected: output) else {
                return nil
            }
            output = output ?? parsed.type
            stops.append(.init(input: label, output: parsed.expression))
            index += 2
        }
        return Typed(
            expression: .step(input: input.expression, base: stops[0].output, stops: Array(stops.dropFirst())),
            type: output!)
    }

    private mutating func interpolate(_ op: String, _ items: [JSONValue], key: String, expected: ExpressionType?)
        -> Typed?
    {
        guard items.count > 1, case .array(let type) = items[1], let name = type.first else {
            return error("Expected an interpolation type expression.", key + "[1]")
        }
        let interpolation: StyleExpression.Interpolation
        switch name {
        case .string("linear"):
            interpolation = .linear
        case .string("exponential"):
            guard type.count > 1, case .number(let base) = type[1] else {
                return error("Exponential interpolation requires a numeric base.", key + "[1][1]")
            }
            interpolation = .exponential(base: base)
        case .string("cubic-bezier"):
            let points = type.dropFirst().compactMap {
                if case .number(let n) = $0, (0...1).contains(n) { return n } else { return nil }
            }
            guard type.count == 5, points.count == 4 else {
                return error(
                    "Cubic bezier interpolation requires four numeric arguments with values between 0 and 1.",
                    key + "[1]")
            }
            interpolation = .cubicBezier(points[0], points[1], points[2], points[3])
        default:
            return error("Unknown interpolation type \(name.text ?? name.jsonText)", key + "[1][0]")
        }
        guard items.count - 1 >= 4 else {
            return error("Expected at least 4 arguments, but found only \(items.count - 1).", key)
        }
        guard (items.count - 1) % 2 == 0 else { return error("Expected an even number of arguments.", key) }
        guard let input = parse(items[2], key: key + "[2]", expected: .number) else { return nil }
        let space: StyleExpression.ColorSpace = op == "interpolate-hcl" ? .hcl : op == "interpolate-lab" ? .lab : .rgb
        var output: ExpressionType? = space != .rgb ? .color : expected.flatMap { $0 == .value ? nil : $0 }
        var stops: [StyleExpression.Stop] = []
        var index = 3
        while index < items.count {
            guard case .number(let label) = items[index] else {
                return error(
                    "Input/output pairs for \"interpolate\" expressions must be defined using literal numeric values (not computed expressions) for the input values.",
                    key + "[\(index)]")
            }
            if let last = stops.last, last.input >= label {
                return error(
                    "Input/output pairs for \"interpolate\" expressions must be arranged with input values in strictly ascending order.",
                    key + "[\(index)]")
            }
            guard let parsed = parse(items[index + 1], key: key + "[\(index + 1)]", expected: output) else {
                return nil
            }
            output = output ?? parsed.type
            stops.append(.init(input: label, output: parsed.expression))
            index += 2
        }
        let result = output!
        let interpolable: [ExpressionType] = [
            .number, .projectionDefinition, .color, .padding, .numberArray, .colorArray,
            .variableAnchorOffsetCollection, .array(.number, count: nil),
        ]
        guard interpolable.contains(where: { $0.mismatch(result) == nil }) else {
            return error("Type \(result) is not interpolatable.", key)
        }
        return Typed(
            expression: .interpolate(interpolation, space: space, input: input.expression, stops: stops), type: result)
    }

    private mutating func format(_ items: [JSONValue], key: String) -> Typed? {
        guard items.count >= 2 else { return error("Expected at least one argument.", key) }
        if case .object = items[1] { return error("First argument must be an image or text section.", key) }
        var sections: [StyleExpression.FormatSection] = []
        var mayBeOptions = false
        for index in 1..<items.count {
            if mayBeOptions, case .object(let options) = items[index] {
                mayBeOptions = false
                var section = sections.removeLast()
                if let json = options["font-scale"] {
                    guard let parsed = parse(json, key: key + "[1]", expected: .number) else { return nil }
                    section.scale = parsed.expression
                }
                if let json = options["text-font"] {
                    guard let parsed = parse(json, key: key + "[1]", expected: .array(.string, count: nil)) else {
                        return nil
                    }
                    section.font = parsed.expression
                }
                if let json = options["text-color"] {
                    guard let parsed = parse(json, key: key + "[1]", expected: .color) else { return nil }
                    section.textColor = parsed.expression
                }
                if let json = options["vertical-align"] {
                    if case .string(let align) = json, !["bottom", "center", "top"].contains(align) {
                        return error(
                            "'vertical-align' must be one of: 'bottom', 'center', 'top' but found '\(align)' instead.",
                            key)
                    }
                    guard let parsed = parse(json, key: key + "[1]", expected: .string) else { return nil }
                    section.verticalAlign = parsed.expression
                }
                sections.append(section)
            } else {
                guard let content = parse(items[index], key: key + "[1]", expected: .value) else { return nil }
                guard ["string", "value", "null", "resolvedImage"].contains(content.type.kind) else {
                    return error("Formatted text type must be 'string', 'value', 'image' or 'null'.", key)
                }
                mayBeOptions = true
                sections.append(.init(content: content.expression))
            }
        }
        return Typed(expression: .format(sections), type: .formatted)
    }

    private mutating func numberFormat(_ items: [JSONValue], key: String) -> Typed? {
        guard items.count == 3 else { return error("Expected two arguments.", key) }
        guard let number = parse(items[1], key: key + "[1]", expected: .number) else { return nil }
        guard case .object(let members) = items[2] else {
            return error("NumberFormat options argument must be an object.", key)
        }
        var options = StyleExpression.NumberFormatOptions()
        func option(_ name: String, _ type: ExpressionType) -> (ok: Bool, value: StyleExpression?) {
            guard let json = members[name] else { return (true, nil) }
            guard let parsed = parse(json, key: key + "[1]", expected: type) else { return (false, nil) }
            return (true, parsed.expression)
        }
        var result = option("locale", .string)
        guard result.ok else { return nil }
        options.locale = result.value
        result = option("currency", .string)
        guard result.ok else { return nil }
        options.currency = result.value
        result = option("unit", .string)
        guard result.ok else { return nil }
        options.unit = result.value
        if options.currency != nil && options.unit != nil {
            return error("NumberFormat options `currency` and `unit` are mutually exclusive", key)
        }
        result = option("min-fraction-digits", .number)
        guard result.ok else { return nil }
        options.minFractionDigits = result.value
        result = option("max-fraction-digits", .number)
        guard result.ok else { return nil }
        options.maxFractionDigits = result.value
        return Typed(expression: .numberFormat(number.expression, options), type: .string)
    }
}

extension StyleExpression.FormatSection {
    init(content: StyleExpression) {
        self.init(content: content, scale: nil, font: nil, textColor: nil, verticalAlign: nil)
    }
}

extension JSONValue {
    /// JavaScript's `typeof` of the value.
    var kindName: String {
        switch self {
        case .null, .array, .object: return "object"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        }
    }
}
