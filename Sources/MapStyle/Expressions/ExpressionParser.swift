import Foundation
import MapJSON

/// An expression that does not compile, worded as the specification's validator words it, at
/// the key of its part (`[2][1]`, relative to the expression).
public struct ExpressionParseError: Error, Hashable, Sendable {
    public var key: String
    public var message: String
}

/// The errors of an expression that does not compile.
public struct ExpressionParseFailure: Error, Hashable, Sendable {
    public var errors: [ExpressionParseError]
}

/// Reads and type checks expressions as MapLibre does ("Expressions: Types"): each operand is
/// parsed with the type its operator expects; a `value` where a string, number, boolean, object
/// or array is expected is checked when evaluated, a `value` or string where a colour, formatted
/// text or image is expected is converted; a part whose operands are all constants is evaluated
/// once, here.
public struct ExpressionParser: Sendable {
    /// A parsed part and its type.
    public struct Typed: Hashable, Sendable {
        public var expression: StyleExpression
        public var type: ExpressionType
    }

    enum Annotation { case assert, coerce, omit }

    var errors: [ExpressionParseError] = []
    private var scope: [String: Typed] = [:]

    func scopeLookup(_ name: String) -> Typed? { scope[name] }

    /// The style's `state` defaults, which `global-state` reads when the evaluation context
    /// has no value of its own.
    var globalStateDefaults: [String: ExpressionValue] = [:]

    /// Parses a property's expression: `expecting` the property's type (nil for any), with a
    /// string property's `value`s converted to text as GL does, and `zoom` only as the input of a
    /// top-level `step` or `interpolate` when `isProperty` (filters may read it anywhere).
    ///
    /// - Throws: the errors, the first the one MapLibre reports first.
    static func parse(
        _ json: JSONValue,
        expecting expected: ExpressionType?,
        coercingStrings: Bool = false,
        globalState: [String: ExpressionValue] = [:],
        isProperty: Bool = true
    ) throws(ExpressionParseFailure) -> Typed {
        var parser = ExpressionParser()
        parser.globalStateDefaults = globalState
        guard
            let parsed = parser.parse(
                json, key: "", expected: expected, annotation: coercingStrings && expected == .string ? .coerce : nil),
            parser.errors.isEmpty
        else {
            throw ExpressionParseFailure(
                errors: parser.errors.isEmpty
                    ? [ExpressionParseError(key: "", message: "invalid expression")] : parser.errors)
        }
        if isProperty && parsed.expression.readsZoom {
            switch parsed.expression.zoomCurve() {
            case .none:
                throw ExpressionParseFailure(errors: [
                    ExpressionParseError(
                        key: "",
                        message:
                            "\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression."
                    )
                ])
            case .failure(let message):
                throw ExpressionParseFailure(errors: [ExpressionParseError(key: "", message: message)])
            case .curve:
                break
            }
        }
        return parsed
    }

    // MARK: - Parts

    mutating func error(_ message: String, _ key: String) -> Typed? {
        errors.append(ExpressionParseError(key: key, message: message))
        return nil
    }

    @discardableResult
    mutating func check(_ expected: ExpressionType, _ actual: ExpressionType, _ key: String) -> Bool {
        guard let message = expected.mismatch(actual) else { return true }
        errors.append(ExpressionParseError(key: key, message: message))
        return false
    }

    mutating func parse(
        _ json: JSONValue, key: String, expected: ExpressionType?, annotation: Annotation? = nil,
        bindings: [String: Typed] = [:]
    ) -> Typed? {
        let saved = scope
        defer { scope = saved }
        scope.merge(bindings) { $1 }
        switch json {
        case .null, .bool, .number, .string:
            return finish(
                literal(json, key: key, expected: expected), key: key, expected: expected, annotation: annotation)
        case .array(let items):
            guard let first = items.first else {
                return error(
                    "Expected an array with at least one element. If you wanted a literal array, use [\"literal\", []].",
                    key)
            }
            guard case .string(let op) = first else {
                let kind: String
                switch first {
                case .number: kind = "number"
                case .bool: kind = "boolean"
                case .null, .array, .object: kind = "object"
                case .string: kind = "string"
                }
                return error(
                    "Expression name must be a string, but found \(kind) instead. If you wanted a literal array, use [\"literal\", [...]].",
                    key + "[0]")
            }
            guard let parsed = parseOperator(op, items, key: key, expected: expected) else {
                if errors.isEmpty {
                    return error(
                        "Unknown expression \"\(op)\". If you wanted a literal array, use [\"literal\", [...]].",
                        key + "[0]")
                }
                return nil
            }
            return finish(parsed, key: key, expected: expected, annotation: annotation)
        case .object:
            return error("Bare objects invalid. Use [\"literal\", {...}] instead.", key)
        }
    }

    /// Annotates a parsed part for the expected type and folds it when constant.
    private mutating func finish(_ parsed: Typed?, key: String, expected: ExpressionType?, annotation: Annotation?)
        -> Typed?
    {
        guard var parsed else { return nil }
        if let expected {
            let actual = parsed.type
            let assertable: Set<String> = ["string", "number", "boolean", "object", "array"]
            let coercible: Set<String> = [
                "color", "formatted", "resolvedImage", "padding", "numberArray", "colorArray",
                "variableAnchorOffsetCollection", "projectionDefinition",
            ]
            if assertable.contains(expected.kind) && actual == .value {
                parsed = annotate(parsed, expected, annotation ?? .assert)
            } else if coercible.contains(expected.kind) && (actual == .value || actual == .string) {
                parsed = annotate(parsed, expected, annotation ?? .coerce)
            } else if !check(expected, actual, key) {
                return nil
            }
        }
        if case .literal = parsed.expression { return parsed }
        if parsed.type != .resolvedImage, parsed.expression.isConstant {
            do throws(ExpressionEvaluationError) {
                let value = try parsed.expression.evaluateThrowing(in: ExpressionContext(zoom: 0))
                return Typed(expression: .literal(value), type: parsed.type)
            } catch {
                return self.error(error.message, key)
            }
        }
        return parsed
    }

    private func annotate(_ parsed: Typed, _ type: ExpressionType, _ annotation: Annotation) -> Typed {
        switch annotation {
        case .assert: return Typed(expression: .assertion(type, [parsed.expression]), type: type)
        case .coerce: return Typed(expression: .coercion(type, [parsed.expression]), type: type)
        case .omit: return parsed
        }
    }

    private mutating func literal(_ json: JSONValue, key: String, expected: ExpressionType?) -> Typed {
        let value = ExpressionValue(json: json)
        var type = value.type
        if case .array(.value, 0) = type, case .array(_, let count)? = expected, count == nil || count == 0 {
            type = expected!
        }
        return Typed(expression: .literal(value), type: type)
    }
}

extension StyleExpression {
    /// The expression's operands, in order.
    var children: [StyleExpression] {
        switch self {
        case .literal, .within, .distance: return []
        case .call(_, let list), .assertion(_, let list), .coercion(_, let list), .all(let list), .any(let list),
            .coalesce(let list):
            return list
        case .compare(_, let a, let b, let collator, _): return [a, b] + (collator.map { [$0] } ?? [])
        case .condition(let arms, let fallback): return arms.flatMap { [$0.condition, $0.output] } + [fallback]
        case .match(let input, let cases, let fallback): return [input] + cases.map(\.output) + [fallback]
        case .interpolate(_, _, let input, let stops): return [input] + stops.map(\.output)
        case .step(let input, let base, let stops): return [input, base] + stops.map(\.output)
        case .variable(_, let bound): return [bound]
        case .at(let a, let b), .isIn(let a, let b): return [a, b]
        case .indexOf(let a, let b, let c), .slice(let a, let b, let c): return [a, b] + (c.map { [$0] } ?? [])
        case .format(let sections):
            return sections.flatMap {
                [$0.content] + [$0.scale, $0.font, $0.textColor, $0.verticalAlign].compactMap { $0 }
            }
        case .numberFormat(let number, let options):
            return [number]
                + [
                    options.locale, options.currency, options.unit, options.minFractionDigits,
                    options.maxFractionDigits,
                ].compactMap { $0 }
        case .collator(let a, let b, let locale): return [a, b] + (locale.map { [$0] } ?? [])
        }
    }

    /// Whether the expression reads the feature (its properties, type, id or geometry), so that
    /// its value differs between features at one zoom.
    public var readsFeature: Bool {
        switch self {
        case .within, .distance: return true
        case .call(let op, let list):
            switch op {
            case .get, .has: if list.count == 1 { return true }
            case .properties, .geometryType, .id, .featureState: return true
            default: break
            }
        default: break
        }
        return children.contains { $0.readsFeature }
    }

    /// The feature properties the expression reads, when it reads the feature only through
    /// `get` and `has` of names written in the style: two features with the same values under
    /// those names then give the same value at a zoom. Nil when it reads the feature otherwise
    /// (all its properties, its type, id, state or geometry, or a name computed as it runs).
    public var featurePropertyNames: Set<String>? {
        var names: Set<String> = []
        return collectFeaturePropertyNames(into: &names) ? names : nil
    }

    private func collectFeaturePropertyNames(into names: inout Set<String>) -> Bool {
        switch self {
        case .within, .distance: return false
        case .call(let op, let list):
            switch op {
            case .get, .has:
                if list.count == 1 {
                    guard case .literal(.string(let name)) = list[0] else { return false }
                    names.insert(name)
                    return true
                }
            case .properties, .geometryType, .id, .featureState: return false
            default: break
            }
        default: break
        }
        for child in children where !child.collectFeaturePropertyNames(into: &names) { return false }
        return true
    }

    /// Whether the expression reads the feature's geometry (`within`, `distance`).
    public var readsGeometry: Bool {
        switch self {
        case .within, .distance: return true
        default: return children.contains { $0.readsGeometry }
        }
    }

    /// Whether the expression reads `zoom`.
    public var readsZoom: Bool {
        if case .call(.zoom, _) = self { return true }
        return children.contains { $0.readsZoom }
    }

    /// Whether the expression reads something else than the feature and zoom that the renderer
    /// supplies per pixel or cluster (`line-progress`, `heatmap-density`, `accumulated`).
    var readsRenderState: Bool {
        if case .call(let op, _) = self,
            [.heatmapDensity, .lineProgress, .accumulated, .isSupportedScript].contains(op)
        {
            return true
        }
        return children.contains { $0.readsRenderState }
    }

    /// Whether the value is the same for every feature and zoom, so it can be computed once.
    var isConstant: Bool {
        switch self {
        case .variable(_, let bound): return bound.isConstant
        case .call(.error, _), .collator, .within, .distance, .call(.globalState, _): return false
        case .assertion, .coercion:
            guard children.allSatisfy(\.isConstant) else { return false }
        default:
            guard children.allSatisfy({ if case .literal = $0 { return true } else { return false } }) else {
                return false
            }
        }
        return !readsFeature && !readsZoom && !readsRenderState
    }

    enum ZoomCurve: Equatable {
        case none
        case curve(StyleExpression)
        case failure(String)
    }

    /// The `step` or `interpolate` on zoom the expression's value depends on, as GL finds it:
    /// one, at the top or under `coalesce`.
    func zoomCurve() -> ZoomCurve {
        var result = ZoomCurve.none
        switch self {
        case .coalesce(let list):
            for item in list {
                result = item.zoomCurve()
                if result != .none { break }
            }
        case .interpolate(_, _, .call(.zoom, _), _), .step(.call(.zoom, _), _, _):
            result = .curve(self)
        default:
            break
        }
        if case .failure = result { return result }
        if case .variable = self { return result }
        for child in children {
            let inner = child.zoomCurve()
            switch (inner, result) {
            case (.failure, _): result = inner
            case (.curve, .none):
                result = .failure(
                    "\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression."
                )
            case (.curve(let a), .curve(let b)) where a != b:
                result = .failure(
                    "Only one zoom-based \"step\" or \"interpolate\" subexpression may be used in an expression.")
            default: break
            }
        }
        return result
    }
}
