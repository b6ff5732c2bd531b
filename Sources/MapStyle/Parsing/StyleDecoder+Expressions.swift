import Foundation
import MapJSON

extension StyleDecoder {
    /// Reads an expression (MapLibre Style Specification, "Expressions"): a JSON array that
    /// starts with an operator, or a constant. Strings, numbers, booleans and null are
    /// constants; arrays and objects as values need `["literal", …]`.
    ///
    /// - Throws: ``StyleError`` naming the path of the part at fault: an operator outside the
    ///   subset, or one with the wrong number or kind of operands.
    func expression(_ json: JSONValue, at path: StylePath, depth: Int = 0) throws(StyleError) -> StyleExpression {
        guard depth < 64 else { throw error(.invalidValue("expressions nest more than 64 deep"), at: path) }
        switch json {
        case .null: return .literal(.null)
        case .bool(let flag): return .literal(.bool(flag))
        case .number(let number): return .literal(.number(number))
        case .string(let text): return .literal(.string(text))
        case .object: throw error(.invalidValue("an object as a value needs [\"literal\", {...}]"), at: path)
        case .array(let items):
            guard case .string(let op) = items.first else {
                throw error(.invalidValue("an expression starts with an operator; an array as a value needs [\"literal\", [...]]"), at: path)
            }
            let operands = Array(items.dropFirst())
            func operand(_ index: Int) throws(StyleError) -> StyleExpression {
                try expression(operands[index], at: path.appending(index: index + 1), depth: depth + 1)
            }
            func all() throws(StyleError) -> [StyleExpression] {
                var list: [StyleExpression] = []
                for index in operands.indices { list.append(try operand(index)) }
                return list
            }
            func count(_ allowed: ClosedRange<Int>, _ form: String) throws(StyleError) {
                guard allowed.contains(operands.count) else {
                    throw error(.invalidValue("'\(op)' is written \(form)"), at: path)
                }
            }
            switch op {
            case "literal":
                try count(1...1, "[\"literal\", value]")
                return .literal(try literalValue(operands[0], at: path.appending(index: 1)))
            case "get":
                try count(1...2, "[\"get\", name]")
                guard operands.count == 1 else {
                    throw error(.unsupportedExpression("'get' from an object is outside Mapwright's subset"), at: path)
                }
                return .get(try string(operands[0], at: path.appending(index: 1)))
            case "has":
                try count(1...1, "[\"has\", name]")
                return .has(try string(operands[0], at: path.appending(index: 1)))
            case "!has":
                try count(1...1, "[\"!has\", name]")
                return .not(.has(try string(operands[0], at: path.appending(index: 1))))
            case "geometry-type":
                try count(0...0, "[\"geometry-type\"]")
                return .geometryType
            case "id":
                try count(0...0, "[\"id\"]")
                return .id
            case "zoom":
                try count(0...0, "[\"zoom\"]")
                return .zoom
            case "heatmap-density":
                try count(0...0, "[\"heatmap-density\"]")
                return .heatmapDensity
            case "!":
                try count(1...1, "[\"!\", condition]")
                return .not(try operand(0))
            case "all":
                return .all(try all())
            case "any":
                return .any(try all())
            case "==", "!=", "<", "<=", ">", ">=":
                try count(2...3, "[\"\(op)\", a, b]")
                return .compare(StyleExpression.ComparisonOperator(rawValue: op)!, try operand(0), try operand(1))
            case "in":
                try count(2...2, "[\"in\", needle, haystack]")
                return .isIn(try operand(0), try operand(1))
            case "match":
                guard operands.count >= 4, operands.count % 2 == 0 else {
                    throw error(.invalidValue("'match' is written [\"match\", input, label, output, ..., fallback]"), at: path)
                }
                var cases: [StyleExpression.MatchCase] = []
                var index = 1
                while index + 1 < operands.count {
                    let labelPath = path.appending(index: index + 1)
                    var labels: [ExpressionValue] = []
                    if case .array(let list) = operands[index] {
                        for (number, label) in list.enumerated() { labels.append(try matchLabel(label, at: labelPath.appending(index: number))) }
                    } else {
                        labels.append(try matchLabel(operands[index], at: labelPath))
                    }
                    cases.append(.init(labels: labels, output: try operand(index + 1)))
                    index += 2
                }
                return .match(try operand(0), cases: cases, fallback: try operand(operands.count - 1))
            case "case":
                guard operands.count >= 3, operands.count % 2 == 1 else {
                    throw error(.invalidValue("'case' is written [\"case\", condition, output, ..., fallback]"), at: path)
                }
                var arms: [StyleExpression.ConditionCase] = []
                for index in stride(from: 0, to: operands.count - 1, by: 2) {
                    arms.append(.init(condition: try operand(index), output: try operand(index + 1)))
                }
                return .condition(arms, fallback: try operand(operands.count - 1))
            case "coalesce":
                return .coalesce(try all())
            case "interpolate":
                guard operands.count >= 4, operands.count % 2 == 0 else {
                    throw error(.invalidValue("'interpolate' is written [\"interpolate\", type, input, stop, output, ...]"), at: path)
                }
                let typePath = path.appending(index: 1)
                let type = try array(operands[0], at: typePath)
                let interpolation: StyleExpression.Interpolation
                switch type.first {
                case .string("linear") where type.count == 1:
                    interpolation = .linear
                case .string("exponential") where type.count == 2:
                    interpolation = .exponential(base: try number(type[1], in: 0...Double.infinity, at: typePath.appending(index: 1)))
                default:
                    throw error(.unsupportedExpression(
                        "interpolation \(operands[0].jsonText) is outside Mapwright's subset: expected [\"linear\"] or [\"exponential\", base]"
                    ), at: typePath)
                }
                return .interpolate(interpolation, input: try operand(1), stops: try stops(operands, from: 2, at: path, depth: depth))
            case "step":
                guard operands.count >= 2, operands.count % 2 == 0 else {
                    throw error(.invalidValue("'step' is written [\"step\", input, output, stop, output, ...]"), at: path)
                }
                let stops = operands.count > 2 ? try self.stops(operands, from: 2, at: path, depth: depth) : []
                return .step(input: try operand(0), base: try operand(1), stops: stops)
            case "concat":
                return .concat(try all())
            case "to-string":
                try count(1...1, "[\"to-string\", value]")
                return .toString(try operand(0))
            case "to-number":
                guard !operands.isEmpty else { throw error(.invalidValue("'to-number' takes at least one value"), at: path) }
                return .toNumber(try all())
            case "to-boolean":
                try count(1...1, "[\"to-boolean\", value]")
                return .toBoolean(try operand(0))
            case "string", "number", "boolean":
                // Type assertions: the value as it is (a wrong type falls back where it is used).
                guard !operands.isEmpty else { throw error(.invalidValue("'\(op)' takes at least one value"), at: path) }
                return operands.count == 1 ? try operand(0) : .coalesce(try all())
            case "upcase":
                try count(1...1, "[\"upcase\", text]")
                return .upcase(try operand(0))
            case "downcase":
                try count(1...1, "[\"downcase\", text]")
                return .downcase(try operand(0))
            default:
                if let arithmetic = StyleExpression.ArithmeticOperator(rawValue: op) {
                    guard !operands.isEmpty else { throw error(.invalidValue("'\(op)' takes at least one number"), at: path) }
                    return .arithmetic(arithmetic, try all())
                }
                throw error(.unsupportedExpression(
                    "'\(op)' expressions are outside Mapwright's subset (see Styles/README.md for the operators it reads)"
                ), at: path)
            }
        }
    }

    /// The value of `["literal", value]`: any JSON, arrays included.
    private func literalValue(_ json: JSONValue, at path: StylePath) throws(StyleError) -> ExpressionValue {
        switch json {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .string(let text): return .string(text)
        case .array(let items):
            var values: [ExpressionValue] = []
            for (index, item) in items.enumerated() { values.append(try literalValue(item, at: path.appending(index: index))) }
            return .array(values)
        case .object: throw error(.unsupportedExpression("object literals are outside Mapwright's subset"), at: path)
        }
    }

    /// A `match` label: a string or a number.
    private func matchLabel(_ json: JSONValue, at path: StylePath) throws(StyleError) -> ExpressionValue {
        switch json {
        case .string(let text): return .string(text)
        case .number(let number): return .number(number)
        default: throw wrongType("a string or number label", json, at: path)
        }
    }

    /// Stop inputs and outputs of `interpolate` or `step`, from `operands[start]` on, inputs increasing.
    private func stops(_ operands: [JSONValue], from start: Int, at path: StylePath, depth: Int) throws(StyleError) -> [StyleExpression.Stop] {
        var stops: [StyleExpression.Stop] = []
        var index = start
        while index + 1 < operands.count {
            let input = try number(operands[index], at: path.appending(index: index + 1))
            if let last = stops.last, input <= last.input {
                throw error(.invalidValue("stop inputs must increase: \(JSONValue.number(input).jsonText) follows \(JSONValue.number(last.input).jsonText)"), at: path.appending(index: index + 1))
            }
            stops.append(.init(input: input, output: try expression(operands[index + 1], at: path.appending(index: index + 2), depth: depth + 1)))
            index += 2
        }
        return stops
    }
}
