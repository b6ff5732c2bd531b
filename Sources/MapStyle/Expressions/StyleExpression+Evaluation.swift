import Foundation

extension StyleExpression {
    /// The expression's value for a feature at a zoom level.
    public func evaluate(in context: ExpressionContext) -> ExpressionValue {
        switch self {
        case .literal(let value):
            return value
        case .get(let key):
            return context.properties[key].map(ExpressionValue.init) ?? .null
        case .has(let key):
            return .bool(context.properties[key] != nil)
        case .geometryType:
            return context.properties["$type"].map(ExpressionValue.init) ?? .null
        case .id:
            return context.properties["$id"].map(ExpressionValue.init) ?? .null
        case .zoom:
            return .number(context.zoom)
        case .heatmapDensity:
            return .number(context.heatmapDensity ?? 0)
        case .not(let operand):
            return .bool(!operand.evaluate(in: context).isTruthy)
        case .all(let operands):
            return .bool(operands.allSatisfy { $0.evaluate(in: context) == .bool(true) })
        case .any(let operands):
            return .bool(operands.contains { $0.evaluate(in: context) == .bool(true) })
        case .compare(let op, let left, let right):
            return .bool(Self.compare(left.evaluate(in: context), op, right.evaluate(in: context)))
        case .isIn(let needle, let haystack):
            let value = needle.evaluate(in: context)
            switch haystack.evaluate(in: context) {
            case .array(let items): return .bool(items.contains { Self.compare(value, .equal, $0) })
            case .string(let text): return .bool(!value.text.isEmpty && text.contains(value.text))
            default: return .bool(false)
            }
        case .match(let input, let cases, let fallback):
            let value = input.evaluate(in: context)
            for arm in cases where arm.labels.contains(where: { Self.compare(value, .equal, $0) }) {
                return arm.output.evaluate(in: context)
            }
            return fallback.evaluate(in: context)
        case .condition(let arms, let fallback):
            for arm in arms where arm.condition.evaluate(in: context) == .bool(true) { return arm.output.evaluate(in: context) }
            return fallback.evaluate(in: context)
        case .coalesce(let operands):
            for operand in operands {
                let value = operand.evaluate(in: context)
                if value != .null { return value }
            }
            return .null
        case .interpolate(let interpolation, let input, let stops):
            guard let x = input.evaluate(in: context).number, let first = stops.first else { return .null }
            guard let upper = stops.firstIndex(where: { $0.input > x }) else { return stops.last!.output.evaluate(in: context) }
            guard upper > 0 else { return first.output.evaluate(in: context) }
            let lower = stops[upper - 1], next = stops[upper]
            let fraction = Self.fraction(x, from: lower.input, to: next.input, interpolation: interpolation)
            return Self.blend(lower.output.evaluate(in: context), next.output.evaluate(in: context), fraction: fraction)
        case .step(let input, let base, let stops):
            guard let x = input.evaluate(in: context).number else { return base.evaluate(in: context) }
            guard let index = stops.lastIndex(where: { $0.input <= x }) else { return base.evaluate(in: context) }
            return stops[index].output.evaluate(in: context)
        case .concat(let operands):
            return .string(operands.map { $0.evaluate(in: context).text }.joined())
        case .toString(let operand):
            return .string(operand.evaluate(in: context).text)
        case .toNumber(let operands):
            for operand in operands {
                switch operand.evaluate(in: context) {
                case .number(let number): return .number(number)
                case .bool(let flag): return .number(flag ? 1 : 0)
                case .string(let text):
                    if let number = Double(text.trimmingCharacters(in: .whitespaces)) { return .number(number) }
                default: continue
                }
            }
            return .number(0)
        case .toBoolean(let operand):
            return .bool(operand.evaluate(in: context).isTruthy)
        case .upcase(let operand):
            return .string(operand.evaluate(in: context).text.uppercased())
        case .downcase(let operand):
            return .string(operand.evaluate(in: context).text.lowercased())
        case .arithmetic(let op, let operands):
            var numbers: [Double] = []
            for operand in operands {
                guard let number = operand.evaluate(in: context).number else { return .null }
                numbers.append(number)
            }
            return Self.arithmetic(op, numbers).map(ExpressionValue.number) ?? .null
        }
    }

    /// The value as a boolean: true only for `true` (a filter that is not a boolean drops the feature).
    public func isTrue(in context: ExpressionContext) -> Bool {
        evaluate(in: context) == .bool(true)
    }

    /// Whether the expression reads the feature (its properties, type or id), so that its value
    /// differs between features at one zoom.
    public var readsFeature: Bool {
        switch self {
        case .literal, .zoom, .heatmapDensity: return false
        case .get, .has, .geometryType, .id: return true
        case .not(let a), .toString(let a), .toBoolean(let a), .upcase(let a), .downcase(let a): return a.readsFeature
        case .all(let list), .any(let list), .coalesce(let list), .concat(let list), .toNumber(let list), .arithmetic(_, let list):
            return list.contains { $0.readsFeature }
        case .compare(_, let a, let b), .isIn(let a, let b): return a.readsFeature || b.readsFeature
        case .match(let input, let cases, let fallback):
            return input.readsFeature || fallback.readsFeature || cases.contains { $0.output.readsFeature }
        case .condition(let arms, let fallback):
            return fallback.readsFeature || arms.contains { $0.condition.readsFeature || $0.output.readsFeature }
        case .interpolate(_, let input, let stops): return input.readsFeature || stops.contains { $0.output.readsFeature }
        case .step(let input, let base, let stops):
            return input.readsFeature || base.readsFeature || stops.contains { $0.output.readsFeature }
        }
    }

    /// The expression with every string constant that is an output (not an input, a label or a
    /// condition) read as a colour where it is one: for colour properties, so `"#fff"` in a
    /// `match` arm is parsed once, not per feature.
    func resolvingColorOutputs() -> StyleExpression {
        switch self {
        case .literal(.string(let text)):
            if let color = try? Color(css: text) { return .literal(.color(color)) }
            return self
        case .match(let input, let cases, let fallback):
            return .match(input, cases: cases.map { MatchCase(labels: $0.labels, output: $0.output.resolvingColorOutputs()) },
                          fallback: fallback.resolvingColorOutputs())
        case .condition(let arms, let fallback):
            return .condition(arms.map { ConditionCase(condition: $0.condition, output: $0.output.resolvingColorOutputs()) },
                              fallback: fallback.resolvingColorOutputs())
        case .coalesce(let list):
            return .coalesce(list.map { $0.resolvingColorOutputs() })
        case .interpolate(let interpolation, let input, let stops):
            return .interpolate(interpolation, input: input, stops: stops.map { Stop(input: $0.input, output: $0.output.resolvingColorOutputs()) })
        case .step(let input, let base, let stops):
            return .step(input: input, base: base.resolvingColorOutputs(),
                         stops: stops.map { Stop(input: $0.input, output: $0.output.resolvingColorOutputs()) })
        default:
            return self
        }
    }

    // MARK: - Helpers

    /// Equality and order as the specification has them: values of different types are unequal
    /// and unordered; null equals null.
    static func compare(_ left: ExpressionValue, _ op: ComparisonOperator, _ right: ExpressionValue) -> Bool {
        switch op {
        case .equal: return left == right
        case .notEqual: return left != right
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            let order: Int
            switch (left, right) {
            case (.number(let a), .number(let b)): order = a < b ? -1 : a > b ? 1 : 0
            case (.string(let a), .string(let b)): order = a < b ? -1 : a > b ? 1 : 0
            default: return false
            }
            switch op {
            case .lessThan: return order < 0
            case .lessThanOrEqual: return order <= 0
            case .greaterThan: return order > 0
            default: return order >= 0
            }
        }
    }

    private static func fraction(_ x: Double, from lower: Double, to upper: Double, interpolation: Interpolation) -> Double {
        let range = upper - lower
        guard range > 0 else { return 0 }
        let progress = x - lower
        guard case .exponential(let base) = interpolation, base != 1 else { return progress / range }
        return (pow(base, progress) - 1) / (pow(base, range) - 1)
    }

    /// Blends two outputs: numbers, colours (a string output read as CSS), arrays of numbers of
    /// one length; anything else steps at the upper stop.
    private static func blend(_ a: ExpressionValue, _ b: ExpressionValue, fraction: Double) -> ExpressionValue {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(x + (y - x) * fraction)
        case (.array(let xs), .array(let ys)) where xs.count == ys.count:
            return .array(zip(xs, ys).map { blend($0, $1, fraction: fraction) })
        default:
            if let x = Color(expressionValue: a), let y = Color(expressionValue: b),
               let color = Color.interpolated(from: x, to: y, fraction: fraction) {
                return .color(color)
            }
            return fraction < 1 ? a : b
        }
    }

    private static func arithmetic(_ op: ArithmeticOperator, _ numbers: [Double]) -> Double? {
        switch op {
        case .add: return numbers.reduce(0, +)
        case .multiply: return numbers.reduce(1, *)
        case .minimum: return numbers.min()
        case .maximum: return numbers.max()
        case .subtract:
            if numbers.count == 1 { return -numbers[0] }
            return numbers.count == 2 ? numbers[0] - numbers[1] : nil
        case .divide: return numbers.count == 2 ? numbers[0] / numbers[1] : nil
        case .remainder: return numbers.count == 2 ? numbers[0].truncatingRemainder(dividingBy: numbers[1]) : nil
        case .power: return numbers.count == 2 ? pow(numbers[0], numbers[1]) : nil
        case .absolute, .floor, .ceil, .round, .squareRoot, .ln, .log10, .log2:
            guard numbers.count == 1 else { return nil }
            let x = numbers[0]
            switch op {
            case .absolute: return abs(x)
            case .floor: return x.rounded(.down)
            case .ceil: return x.rounded(.up)
            case .round: return x.rounded(.toNearestOrAwayFromZero)
            case .squareRoot: return x.squareRoot()
            case .ln: return Foundation.log(x)
            case .log10: return Foundation.log10(x)
            default: return Foundation.log2(x)
            }
        }
    }
}
