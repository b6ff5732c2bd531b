import Foundation

extension StyleExpression {
    static func call(_ op: ExpressionOperator, _ operands: [StyleExpression], in context: ExpressionContext)
        throws(ExpressionEvaluationError) -> ExpressionValue
    {
        var values: [ExpressionValue] = []
        values.reserveCapacity(operands.count)
        for operand in operands { values.append(try operand.evaluateThrowing(in: context)) }
        func number(_ index: Int) -> Double { values[index].number ?? .nan }
        switch op {
        case .get:
            let key = values[0].text
            if values.count == 2 {
                guard case .object(let members) = values[1] else { return .null }
                return members[key] ?? .null
            }
            return context.property(key) ?? .null
        case .has:
            let key = values[0].text
            if values.count == 2 {
                guard case .object(let members) = values[1] else { return .bool(false) }
                return .bool(members[key] != nil)
            }
            return .bool(context.property(key) != nil)
        case .properties:
            var members = context.structuredProperties
            for (key, value) in context.properties where !key.hasPrefix("$") { members[key] = ExpressionValue(value) }
            return .object(members)
        case .geometryType:
            return context.geometryType.map(ExpressionValue.string) ?? context.properties["$type"].map(
                ExpressionValue.init) ?? context.typeName.map(ExpressionValue.string) ?? .null
        case .id:
            return context.featureID ?? context.properties["$id"].map(ExpressionValue.init) ?? .null
        case .zoom:
            return .number(context.zoom)
        case .heatmapDensity:
            return .number(context.heatmapDensity ?? 0)
        case .lineProgress:
            return .number(context.lineProgress ?? 0)
        case .accumulated:
            return context.accumulated ?? .null
        case .featureState:
            return context.properties[ExpressionContext.featureStateKeyPrefix + values[0].text].map(
                ExpressionValue.init) ?? .null
        case .globalState:
            return context.globalState[values[0].text] ?? (values.count > 1 ? values[1] : .null)
        case .typeOf:
            return .string(values[0].type.description)
        case .length:
            switch values[0] {
            case .string(let text): return .number(Double(text.unicodeScalars.count))
            case .array(let items): return .number(Double(items.count))
            default:
                throw ExpressionEvaluationError(
                    message: "Expected value to be of type string or array, but found \(values[0].type) instead.")
            }
        case .not:
            return .bool(values[0] != .bool(true))
        case .error:
            throw ExpressionEvaluationError(message: values[0].text)
        case .add: return .number(values.reduce(0) { $0 + ($1.number ?? .nan) })
        case .multiply: return .number(values.reduce(1) { $0 * ($1.number ?? .nan) })
        case .subtract: return .number(values.count == 1 ? -number(0) : number(0) - number(1))
        case .divide: return .number(number(0) / number(1))
        case .remainder: return .number(fmod(number(0), number(1)))
        case .power: return .number(pow(number(0), number(1)))
        case .minimum: return .number(values.reduce(Double.infinity) { Swift.min($0, $1.number ?? .nan) })
        case .maximum: return .number(values.reduce(-Double.infinity) { Swift.max($0, $1.number ?? .nan) })
        case .absolute: return .number(abs(number(0)))
        case .floor: return .number(number(0).rounded(.down))
        case .ceil: return .number(number(0).rounded(.up))
        case .round: return .number(number(0).rounded(.toNearestOrAwayFromZero))
        case .squareRoot: return .number(number(0).squareRoot())
        case .ln: return .number(Foundation.log(number(0)))
        case .log10: return .number(Foundation.log10(number(0)))
        case .log2: return .number(Foundation.log2(number(0)))
        case .sin: return .number(Foundation.sin(number(0)))
        case .cos: return .number(Foundation.cos(number(0)))
        case .tan: return .number(Foundation.tan(number(0)))
        case .asin: return .number(Foundation.asin(number(0)))
        case .acos: return .number(Foundation.acos(number(0)))
        case .atan: return .number(Foundation.atan(number(0)))
        case .e: return .number(M_E)
        case .pi: return .number(Double.pi)
        case .ln2: return .number(M_LN2)
        case .concat: return .string(values.map(\.text).joined())
        case .upcase: return .string(values[0].text.uppercased())
        case .downcase: return .string(values[0].text.lowercased())
        case .rgb, .rgba:
            return .color(try rgba(values.map { $0.number ?? .nan }))
        case .toRGBA:
            guard case .color(let color) = values[0] else { return .null }
            return .array([
                .number(color.red * 255), .number(color.green * 255), .number(color.blue * 255), .number(color.alpha),
            ])
        case .resolvedLocale:
            guard case .collator(let collator) = values[0] else { return .null }
            return .string(collator.resolvedLocale)
        case .isSupportedScript:
            return .bool(true)
        case .image:
            let name = values[0].text
            return .image(ResolvedImage(name: name, available: context.availableImages?.contains(name) ?? true))
        case .split:
            let text = values[0].text
            let separator = values[1].text
            if separator.isEmpty { return .array(text.map { .string(String($0)) }) }
            return .array(text.components(separatedBy: separator).map(ExpressionValue.string))
        case .join:
            guard case .array(let items) = values[0] else { return .null }
            return .string(items.map(\.text).joined(separator: values[1].text))
        }
    }

    /// A colour from 0–255 channels and a 0–1 alpha, or the error GL gives.
    static func rgba(_ channels: [Double]) throws(ExpressionEvaluationError) -> Color {
        let listed = channels.map(ExpressionValue.javaScriptText).joined(separator: ", ")
        guard channels[0...2].allSatisfy({ (0...255).contains($0) }) else {
            throw ExpressionEvaluationError(
                message: "Invalid rgba value [\(listed)]: 'r', 'g', and 'b' must be between 0 and 255.")
        }
        let alpha = channels.count > 3 ? channels[3] : 1
        guard (0...1).contains(alpha) else {
            throw ExpressionEvaluationError(message: "Invalid rgba value [\(listed)]: 'a' must be between 0 and 1.")
        }
        return Color(red: channels[0] / 255, green: channels[1] / 255, blue: channels[2] / 255, alpha: alpha)
    }

    static func coerce(_ type: ExpressionType, _ operands: [StyleExpression], in context: ExpressionContext)
        throws(ExpressionEvaluationError) -> ExpressionValue
    {
        switch type {
        case .boolean:
            return .bool(try operands[0].evaluateThrowing(in: context).isTruthy)
        case .string:
            return .string(try operands[0].evaluateThrowing(in: context).text)
        case .number:
            var value = ExpressionValue.null
            for operand in operands {
                value = try operand.evaluateThrowing(in: context)
                switch value {
                case .null: return .number(0)
                case .number: return value
                case .bool(let flag): return .number(flag ? 1 : 0)
                case .string(let text):
                    if let number = javaScriptNumber(text) { return .number(number) }
                default: continue
                }
            }
            throw ExpressionEvaluationError(message: "Could not convert \(value.jsonText) to number.")
        case .color:
            var value = ExpressionValue.null
            var message: String?
            for operand in operands {
                value = try operand.evaluateThrowing(in: context)
                message = nil
                switch value {
                case .color: return value
                case .string(let text):
                    if let color = try? Color(css: text) { return .color(color) }
                case .array(let items):
                    let channels = items.map { $0.number ?? .nan }
                    if items.count < 3 || items.count > 4 || items.contains(where: { $0.number == nil }) {
                        message =
                            "Invalid rgba value \(value.jsonText): expected an array containing either three or four numeric values."
                    } else {
                        do throws(ExpressionEvaluationError) { return .color(try rgba(channels)) } catch {
                            message = error.message
                        }
                    }
                default: break
                }
            }
            throw ExpressionEvaluationError(
                message: message ?? "Could not parse color from value '\(value.string ?? value.jsonText)'")
        case .formatted:
            let value = try operands[0].evaluateThrowing(in: context)
            if case .formatted = value { return value }
            return .formatted(
                FormattedText(sections: [
                    .init(text: value.text, image: nil, scale: nil, fontStack: nil, textColor: nil, verticalAlign: nil)
                ]))
        case .resolvedImage:
            let value = try operands[0].evaluateThrowing(in: context)
            if case .image = value { return value }
            let name = value.text
            return .image(ResolvedImage(name: name, available: context.availableImages?.contains(name) ?? true))
        default:
            // Padding, number and colour arrays, projections: passed through as they are.
            let value = try operands[0].evaluateThrowing(in: context)
            if value == .null { throw ExpressionEvaluationError(message: "Could not parse \(type) from value 'null'") }
            return value
        }
    }

    /// JavaScript's `Number(text)`: trimmed, empty is 0, hexadecimal and `Infinity` read; nil for NaN.
    static func javaScriptNumber(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return 0 }
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
            return UInt64(trimmed.dropFirst(2), radix: 16).map(Double.init)
        }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        guard trimmed.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
        return Double(trimmed)
    }
}
