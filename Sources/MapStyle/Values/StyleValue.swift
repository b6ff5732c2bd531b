import Foundation
public import MapJSON

/// A layout or paint property value that may change with zoom.
///
/// A style gives a property as a constant, a legacy zoom function
/// (`{"stops": [[z, v], ...], "base": b}`, MapLibre Style Specification, "Deprecations:
/// Function") or a zoom expression (`["interpolate", ["linear"], ["zoom"], z0, v0, ...]`,
/// `["step", ["zoom"], v0, z1, v1, ...]`; "Expressions: interpolate, step"). For example:
///
/// ```swift
/// let width = StyleValue<Double>.interpolate(.exponential(base: 2), stops: [(3, 0.5), (7, 2)])
/// width.value(atZoom: 5) // 0.8
/// ```
public struct StyleValue<Value: StyleValueType>: Hashable, Sendable {
    /// How a zoom function blends between its stops.
    public enum Interpolation: Hashable, Sendable {
        /// The output of the stop at or below the zoom (`step`, or a legacy `interval` function).
        case step
        /// Exponential interpolation; base 1 is linear. The specification's default base is 1.
        case exponential(base: Double)

        /// Linear interpolation, `["linear"]`.
        public static var linear: Interpolation { .exponential(base: 1) }
    }

    /// One zoom stop.
    public struct Stop: Hashable, Sendable {
        /// The zoom level at which the output applies.
        public var zoom: Double
        /// The output value.
        public var value: Value
    }

    @usableFromInline
    enum Storage: Hashable, Sendable {
        case constant(Value)
        /// Stops ordered by ascending zoom, at least one.
        case function(Interpolation, first: Value, stops: [Stop])
        /// Any other expression; `fallback` when its value is not of the property's type.
        case expression(StyleExpression, fallback: Value)
    }

    @usableFromInline
    let storage: Storage

    /// A value that does not change with zoom.
    public static func constant(_ value: Value) -> StyleValue {
        StyleValue(storage: .constant(value))
    }

    /// A step function: `base` below the first stop, then each stop's value from its zoom on.
    ///
    /// This is `["step", ["zoom"], base, z1, v1, ...]`.
    public static func step(_ base: Value, stops: [(zoom: Double, value: Value)]) -> StyleValue {
        StyleValue(storage: .function(.step, first: base, stops: stops.map { Stop(zoom: $0.zoom, value: $0.value) }))
    }

    /// An interpolated (or, with `.step`, stepped) function whose first stop's value also holds
    /// below it, as a legacy `stops` function does.
    ///
    /// - Precondition: `stops` is not empty and ascends by zoom; interpolating needs a type
    ///   whose values interpolate.
    public static func interpolate(_ interpolation: Interpolation, stops: [(zoom: Double, value: Value)]) -> StyleValue
    {
        precondition(!stops.isEmpty, "a zoom function needs at least one stop")
        let converted = stops.map { Stop(zoom: $0.zoom, value: $0.value) }
        return StyleValue(storage: .function(interpolation, first: converted[0].value, stops: converted))
    }

    /// A value computed by an expression for each feature and zoom; `fallback` (the property's
    /// default) stands in when the expression gives a value of another type.
    public static func expression(_ expression: StyleExpression, fallback: Value) -> StyleValue {
        StyleValue(storage: .expression(expression, fallback: fallback))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// Whether the value differs between features at one zoom (it reads feature properties).
    @inlinable
    public var isDataDriven: Bool {
        if case .expression(let expression, _) = storage { return expression.readsFeature }
        return false
    }

    /// The feature properties the value reads (see ``StyleExpression/featurePropertyNames``):
    /// none when it is not an expression; nil when it reads the feature otherwise than by name.
    public var featurePropertyNames: Set<String>? {
        guard case .expression(let expression, _) = storage else { return [] }
        return expression.featurePropertyNames
    }

    /// The value for a feature at a zoom level; the same as ``value(atZoom:)`` unless the value
    /// is data-driven.
    @inlinable
    public func value(atZoom zoom: Double, properties: [String: FeatureValue]) -> Value {
        guard case .expression(let expression, let fallback) = storage else { return value(atZoom: zoom) }
        return Value(expressionValue: expression.evaluate(in: ExpressionContext(zoom: zoom, properties: properties)))
            ?? fallback
    }

    /// The constant value, or nil when the value changes with zoom.
    @inlinable
    public var constantValue: Value? {
        if case .constant(let value) = storage { return value }
        return nil
    }

    /// The value at a zoom level.
    ///
    /// Below the first stop a function gives its first output, above the last stop the last.
    /// Between two stops an exponential function with base `b` uses the fraction
    /// `(b^(z - z0) - 1) / (b^(z1 - z0) - 1)`, or `(z - z0) / (z1 - z0)` when `b` is 1.
    @inlinable
    public func value(atZoom zoom: Double) -> Value {
        switch storage {
        case .constant(let value):
            return value
        case .expression(let expression, let fallback):
            return Value(expressionValue: expression.evaluate(in: ExpressionContext(zoom: zoom))) ?? fallback
        case .function(let interpolation, let first, let stops):
            guard let upper = stops.firstIndex(where: { $0.zoom > zoom }) else { return stops.last?.value ?? first }
            guard upper > 0 else { return first }
            let lower = stops[upper - 1]
            guard case .exponential(let base) = interpolation else { return lower.value }
            let next = stops[upper]
            let fraction = StyleValue.fraction(zoom: zoom, from: lower.zoom, to: next.zoom, base: base)
            return Value.interpolated(from: lower.value, to: next.value, fraction: fraction) ?? lower.value
        }
    }

    @usableFromInline
    static func fraction(zoom: Double, from lower: Double, to upper: Double, base: Double) -> Double {
        let range = upper - lower
        guard range > 0 else { return 0 }
        let progress = zoom - lower
        if base == 1 { return progress / range }
        return (pow(base, progress) - 1) / (pow(base, range) - 1)
    }
}
