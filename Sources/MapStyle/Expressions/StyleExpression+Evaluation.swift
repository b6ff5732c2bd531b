import Foundation

extension StyleExpression {
    /// The expression's value for a feature at a zoom level; null where evaluating fails (the
    /// caller then uses the property's default, as MapLibre does).
    public func evaluate(in context: ExpressionContext) -> ExpressionValue {
        do throws(ExpressionEvaluationError) {
            return try evaluateThrowing(in: context)
        } catch {
            return .null
        }
    }

    /// The value as a boolean: true only for `true` (a filter that is not a boolean drops the feature).
    public func isTrue(in context: ExpressionContext) -> Bool {
        if case .bool(true) = evaluate(in: context) { return true }
        return false
    }

    /// The expression's value, or the evaluation error as MapLibre words it.
    public func evaluateThrowing(in context: ExpressionContext) throws(ExpressionEvaluationError) -> ExpressionValue {
        switch self {
        case .literal(let value):
            return value
        case .variable(_, let bound):
            return try bound.evaluateThrowing(in: context)
        case .call(let op, let operands):
            // `["get", key]` and `["has", key]` with a literal key, as nearly every filter and
            // data-driven property reads: looked up without an array of evaluated operands.
            if operands.count == 1, case .literal(.string(let key)) = operands[0] {
                switch op {
                case .get: return context.property(key) ?? .null
                case .has: return .bool(context.property(key) != nil)
                default: break
                }
            }
            return try Self.call(op, operands, in: context)
        case .assertion(let type, let operands):
            var value = ExpressionValue.null
            for operand in operands {
                value = try operand.evaluateThrowing(in: context)
                if type.mismatch(value.type) == nil { return value }
            }
            throw ExpressionEvaluationError(
                message: "Expected value to be of type \(type), but found \(value.type) instead.")
        case .coercion(let type, let operands):
            return try Self.coerce(type, operands, in: context)
        case .compare(let op, let left, let right, let collatorExpression, let checked):
            let a = try left.evaluateThrowing(in: context)
            let b = try right.evaluateThrowing(in: context)
            if op.isOrdering && checked {
                let (lt, rt) = (a.type, b.type)
                guard lt.kind == rt.kind, lt == .string || lt == .number else {
                    throw ExpressionEvaluationError(
                        message:
                            "Expected arguments for \"\(op.rawValue)\" to be (string, string) or (number, number), but found (\(lt.kind), \(rt.kind)) instead."
                    )
                }
            }
            var collator: Collator?
            if let collatorExpression, case .collator(let value) = try collatorExpression.evaluateThrowing(in: context)
            {
                collator = value
            }
            if collator != nil && !op.isOrdering && checked, a.type != .string || b.type != .string { collator = nil }
            let order: Int?
            if let collator, case .string(let x) = a, case .string(let y) = b {
                order = collator.compare(x, y)
            } else {
                switch (a, b) {
                case (.number(let x), .number(let y)): order = x < y ? -1 : x > y ? 1 : x == y ? 0 : nil
                case (.string(let x), .string(let y)) where !op.isOrdering:
                    // Equality needs no order (and `==` of strings is far cheaper than UTF-16's).
                    order = x == y ? 0 : 1
                case (.string(let x), .string(let y)):
                    order = x.utf16.lexicographicallyPrecedes(y.utf16) ? -1 : x == y ? 0 : 1
                default: order = nil
                }
            }
            switch op {
            case .equal: return .bool(order.map { $0 == 0 } ?? Self.strictlyEqual(a, b))
            case .notEqual: return .bool(!(order.map { $0 == 0 } ?? Self.strictlyEqual(a, b)))
            case .lessThan: return .bool(order.map { $0 < 0 } ?? false)
            case .lessThanOrEqual: return .bool(order.map { $0 <= 0 } ?? false)
            case .greaterThan: return .bool(order.map { $0 > 0 } ?? false)
            case .greaterThanOrEqual: return .bool(order.map { $0 >= 0 } ?? false)
            }
        case .all(let operands):
            for operand in operands {
                guard case .bool(true) = try operand.evaluateThrowing(in: context) else { return .bool(false) }
            }
            return .bool(true)
        case .any(let operands):
            for operand in operands {
                if case .bool(true) = try operand.evaluateThrowing(in: context) { return .bool(true) }
            }
            return .bool(false)
        case .condition(let arms, let fallback):
            for arm in arms where try arm.condition.evaluateThrowing(in: context) == .bool(true) {
                return try arm.output.evaluateThrowing(in: context)
            }
            return try fallback.evaluateThrowing(in: context)
        case .match(let input, let cases, let fallback):
            let value = try input.evaluateThrowing(in: context)
            for arm in cases where arm.labels.contains(value) { return try arm.output.evaluateThrowing(in: context) }
            return try fallback.evaluateThrowing(in: context)
        case .coalesce(let operands):
            var requested: ExpressionValue?
            for operand in operands {
                var value = try operand.evaluateThrowing(in: context)
                if case .image(let image) = value, !image.available {
                    requested = requested ?? value
                    value = .null
                }
                if value != .null { return value }
            }
            return requested ?? .null
        case .interpolate(let interpolation, let space, let input, let stops):
            guard case .number(let x) = try input.evaluateThrowing(in: context) else { return .null }
            // GL finds no stop for NaN between two or more: an error, the property's default.
            if x.isNaN, stops.count > 1 { throw ExpressionEvaluationError(message: "Input is not a number.") }
            guard stops.count > 1, x > stops[0].input else { return try stops[0].output.evaluateThrowing(in: context) }
            guard x < stops[stops.count - 1].input else {
                return try stops[stops.count - 1].output.evaluateThrowing(in: context)
            }
            let upper = stops.firstIndex { $0.input > x }!
            let lower = stops[upper - 1]
            let next = stops[upper]
            let t = Self.fraction(x, from: lower.input, to: next.input, interpolation: interpolation)
            return Self.blend(
                try lower.output.evaluateThrowing(in: context), try next.output.evaluateThrowing(in: context), t, space)
        case .step(let input, let base, let stops):
            guard case .number(let x) = try input.evaluateThrowing(in: context) else {
                return try base.evaluateThrowing(in: context)
            }
            if x.isNaN, !stops.isEmpty { throw ExpressionEvaluationError(message: "Input is not a number.") }
            guard let index = stops.lastIndex(where: { $0.input <= x }) else {
                return try base.evaluateThrowing(in: context)
            }
            return try stops[index].output.evaluateThrowing(in: context)
        case .at(let indexExpression, let arrayExpression):
            let index = try indexExpression.evaluateThrowing(in: context).number ?? 0
            guard case .array(let items) = try arrayExpression.evaluateThrowing(in: context) else { return .null }
            if index < 0 {
                throw ExpressionEvaluationError(
                    message: "Array index out of bounds: \(ExpressionValue.javaScriptText(index)) < 0.")
            }
            if index >= Double(items.count) {
                throw ExpressionEvaluationError(
                    message: "Array index out of bounds: \(ExpressionValue.javaScriptText(index)) > \(items.count - 1)."
                )
            }
            if index != index.rounded(.down) {
                throw ExpressionEvaluationError(
                    message:
                        "Array index must be an integer, but found \(ExpressionValue.javaScriptText(index)) instead.")
            }
            return items[Int(index)]
        case .isIn(let needleExpression, let haystackExpression):
            let needle = try needleExpression.evaluateThrowing(in: context)
            let haystack = try haystackExpression.evaluateThrowing(in: context)
            if haystack == .null { return .bool(false) }
            return .bool(try Self.indexOf(needle, in: haystack, from: nil) >= 0)
        case .indexOf(let needleExpression, let haystackExpression, let fromExpression):
            let needle = try needleExpression.evaluateThrowing(in: context)
            let haystack = try haystackExpression.evaluateThrowing(in: context)
            let from = try fromExpression?.evaluateThrowing(in: context).number
            return .number(Double(try Self.indexOf(needle, in: haystack, from: from)))
        case .slice(let inputExpression, let beginExpression, let endExpression):
            let input = try inputExpression.evaluateThrowing(in: context)
            let begin = try beginExpression.evaluateThrowing(in: context).number ?? 0
            let end = try endExpression?.evaluateThrowing(in: context).number
            func range(_ count: Int) -> Range<Int> {
                func clamp(_ i: Double) -> Int {
                    let j = i < 0 ? Double(count) + i : i
                    return Int(max(0, min(Double(count), j.rounded(.towardZero))))
                }
                let lower = clamp(begin)
                let upper = end.map(clamp) ?? count
                return lower..<max(lower, upper)
            }
            switch input {
            case .string(let text):
                let scalars = Array(text.unicodeScalars)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars[range(scalars.count)])
                return .string(String(view))
            case .array(let items): return .array(Array(items[range(items.count)]))
            default:
                throw ExpressionEvaluationError(
                    message: "Expected first argument to be of type array or string, but found \(input.type) instead.")
            }
        case .format(let sections):
            var result: [FormattedText.Section] = []
            for section in sections {
                let content = try section.content.evaluateThrowing(in: context)
                let align = try section.verticalAlign?.evaluateThrowing(in: context).string
                if case .image(let image) = content {
                    result.append(
                        .init(
                            text: "", image: image.name, scale: nil, fontStack: nil, textColor: nil,
                            verticalAlign: align))
                    continue
                }
                var font: String?
                if case .array(let fonts)? = try section.font?.evaluateThrowing(in: context) {
                    font = fonts.map(\.text).joined(separator: ",")
                }
                var color: Color?
                if case .color(let value)? = try section.textColor?.evaluateThrowing(in: context) { color = value }
                result.append(
                    .init(
                        text: content.text, image: nil, scale: try section.scale?.evaluateThrowing(in: context).number,
                        fontStack: font, textColor: color, verticalAlign: align))
            }
            return .formatted(FormattedText(sections: result))
        case .numberFormat(let numberExpression, let options):
            let number = try numberExpression.evaluateThrowing(in: context).number ?? 0
            let formatter = NumberFormatter()
            formatter.locale = Locale(identifier: try options.locale?.evaluateThrowing(in: context).string ?? "en-US")
            if let currency = try options.currency?.evaluateThrowing(in: context).string {
                formatter.numberStyle = .currency
                formatter.currencyCode = currency
            } else {
                formatter.numberStyle = .decimal
                formatter.maximumFractionDigits = 3
            }
            if let minimum = try options.minFractionDigits?.evaluateThrowing(in: context).number {
                formatter.minimumFractionDigits = Int(minimum)
            }
            if let maximum = try options.maxFractionDigits?.evaluateThrowing(in: context).number {
                formatter.maximumFractionDigits = Int(maximum)
                formatter.minimumFractionDigits = min(formatter.minimumFractionDigits, Int(maximum))
            }
            formatter.roundingMode = .halfUp
            var text = formatter.string(from: NSNumber(value: number)) ?? ExpressionValue.javaScriptText(number)
            if let unit = try options.unit?.evaluateThrowing(in: context).string { text += " " + unit }
            return .string(text)
        case .collator(let caseSensitive, let diacriticSensitive, let locale):
            return .collator(
                Collator(
                    caseSensitive: try caseSensitive.evaluateThrowing(in: context) == .bool(true),
                    diacriticSensitive: try diacriticSensitive.evaluateThrowing(in: context) == .bool(true),
                    locale: try locale?.evaluateThrowing(in: context).string))
        case .within(let polygons):
            guard let geometry = context.geometry else { return .bool(false) }
            return .bool(polygons.contains(geometry))
        case .distance(let shapes):
            guard let geometry = context.geometry, let metres = shapes.distance(to: geometry) else { return .null }
            return .number(metres)
        }
    }

    /// JavaScript's `===` for expression values: arrays, objects and colours are never equal
    /// (they are compared by identity there).
    private static func strictlyEqual(_ a: ExpressionValue, _ b: ExpressionValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        default: return false
        }
    }

    private static func indexOf(_ needle: ExpressionValue, in haystack: ExpressionValue, from: Double?)
        throws(ExpressionEvaluationError) -> Int
    {
        guard ["boolean", "string", "number", "null"].contains(needle.type.kind) else {
            throw ExpressionEvaluationError(
                message:
                    "Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead."
            )
        }
        switch haystack {
        case .string(let text):
            // JavaScript's String(needle): null is "null".
            let scalars = Array(text.unicodeScalars)
            let target = Array((needle == .null ? "null" : needle.text).unicodeScalars)
            let start = max(0, Int(from ?? 0))
            guard start <= scalars.count else { return -1 }
            if target.isEmpty { return start }
            guard scalars.count >= target.count else { return -1 }
            for index in start...(scalars.count - target.count)
            where Array(scalars[index..<(index + target.count)]) == target { return index }
            return -1
        case .array(let items):
            let from = Int(from ?? 0)
            let start = from < 0 ? max(0, items.count + from) : from
            guard start < items.count else { return -1 }
            return items[start...].firstIndex { strictlyEqual($0, needle) } ?? -1
        default:
            throw ExpressionEvaluationError(
                message: "Expected second argument to be of type array or string, but found \(haystack.type) instead.")
        }
    }

    static func fraction(_ x: Double, from lower: Double, to upper: Double, interpolation: Interpolation) -> Double {
        let range = upper - lower
        let progress = x - lower
        guard range != 0 else { return 0 }
        switch interpolation {
        case .exponential(let base):
            if base == 1 { return progress / range }
            return (pow(base, progress) - 1) / (pow(base, range) - 1)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return UnitBezier(x1, y1, x2, y2).solve(progress / range)
        }
    }

    /// Blends two outputs: numbers, colours (in the colour space), arrays of numbers of one length.
    static func blend(_ a: ExpressionValue, _ b: ExpressionValue, _ t: Double, _ space: ColorSpace) -> ExpressionValue {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(x + (y - x) * t)
        case (.array(let xs), .array(let ys)) where xs.count == ys.count:
            return .array(zip(xs, ys).map { blend($0, $1, t, space) })
        case (.color(let x), .color(let y)):
            switch space {
            case .rgb: return .color(Color.interpolated(from: x, to: y, fraction: t) ?? x)
            case .hcl: return .color(x.interpolatedHCL(to: y, fraction: t))
            case .lab: return .color(x.interpolatedLab(to: y, fraction: t))
            }
        default:
            if let x = Color(expressionValue: a), let y = Color(expressionValue: b) {
                return blend(.color(x), .color(y), t, space)
            }
            return t < 1 ? a : b
        }
    }
}
