import Foundation
public import MapJSON

/// A layer's `filter`: which features the layer draws.
///
/// Both syntaxes of the MapLibre Style Specification parse into this one model: the legacy
/// filters ("Deprecations: Other filter"), such as `["==", "iso_a2", "FR"]`, `["in", "adm0_a3",
/// "FRA", "DEU"]`, `["!has", "name"]`, `["none", ...]`, and the expression forms ("Expressions:
/// Decision, Lookup"), such as `["==", ["get", "iso_a2"], "FR"]`, `["!", ["has", "name"]]`,
/// `["in", ["get", "adm0_a3"], ["literal", ["FRA", "DEU"]]]`.
///
/// Missing properties behave as the specification has them behave: a missing property reads as
/// null, so `==` is false and `!=` is true; ordering comparisons (`<`, `>=`...) are false unless both
/// sides are numbers or both strings; `in` is false and its negation true. For example:
///
/// ```swift
/// let filter = Filter.comparison(.greaterThan, .property("scalerank"), .literal(2))
/// filter.evaluate(["scalerank": 4]) // true
/// filter.evaluate([:])              // false
/// ```
public indirect enum Filter: Hashable, Sendable {
    /// Always true or always false.
    case constant(Bool)
    /// True when every filter is (true for none).
    case all([Filter])
    /// True when at least one filter is (false for none).
    case any([Filter])
    /// The negation.
    case not(Filter)
    /// Compares two operands.
    case comparison(ComparisonOperator, FilterOperand, FilterOperand)
    /// True when the operand equals one of the values (by ``ComparisonOperator/equal`` rules).
    case isIn(FilterOperand, [FeatureValue])
    /// True when the feature has the property, even with a null value.
    case has(String)
    /// Any other expression, true when it gives `true` (`match`, `case`, `geometry-type`,
    /// `zoom`, arithmetic...).
    case expression(StyleExpression)

    /// A comparison operator.
    public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case lessThan = "<"
        case lessThanOrEqual = "<="
        case greaterThan = ">"
        case greaterThanOrEqual = ">="
    }

    /// Whether a feature with these properties passes the filter at zoom `zoom` (which only
    /// expressions read; the default is 0). `geometry` is the feature's shape in degrees, which
    /// `within` and `distance` read (nil, the default, makes `within` false and `distance`
    /// null); see ``readsGeometry``. `typeName` is the feature's `$type` (`Point`, `LineString`,
    /// `Polygon`) where `properties` do not hold it, read as if they did (nil, the default: none),
    /// so that a caller need not copy the properties to add it (see ``mayReadTypeKey``).
    public func evaluate(
        _ properties: [String: FeatureValue], zoom: Double = 0, geometry: GeoShapes? = nil, typeName: String? = nil
    ) -> Bool {
        switch self {
        case .expression(let expression):
            var context = ExpressionContext(zoom: zoom, properties: properties)
            context.geometry = geometry
            context.typeName = typeName
            return expression.isTrue(in: context)
        case .constant(let value):
            return value
        case .all(let filters):
            return filters.allSatisfy { $0.evaluate(properties, zoom: zoom, geometry: geometry, typeName: typeName) }
        case .any(let filters):
            return filters.contains { $0.evaluate(properties, zoom: zoom, geometry: geometry, typeName: typeName) }
        case .not(let filter):
            return !filter.evaluate(properties, zoom: zoom, geometry: geometry, typeName: typeName)
        case .comparison(let op, let left, let right):
            return Filter.compare(
                left.value(in: properties, typeName: typeName), op, right.value(in: properties, typeName: typeName))
        case .isIn(let operand, let values):
            let value = operand.value(in: properties, typeName: typeName)
            return values.contains { Filter.compare(value, .equal, $0) }
        case .has(let key):
            return properties[key] != nil || (typeName != nil && key == "$type")
        }
    }

    /// Whether the filter reads the zoom (an expression's `zoom`): a filter that does not gives
    /// every feature the same verdict at every zoom, which a tile cache may keep.
    public var readsZoom: Bool {
        switch self {
        case .expression(let expression): return expression.readsZoom
        case .all(let filters), .any(let filters): return filters.contains(where: \.readsZoom)
        case .not(let filter): return filter.readsZoom
        case .constant, .comparison, .isIn, .has: return false
        }
    }

    /// Whether the filter may read `$type`, the geometry's type as legacy filters name it: a
    /// legacy filter naming the key, and any expression (`["geometry-type"]` falls back to it).
    /// One that cannot is given a feature's properties as they are, without a copy holding it.
    public var mayReadTypeKey: Bool {
        switch self {
        case .expression: return true
        case .constant: return false
        case .all(let filters), .any(let filters): return filters.contains(where: \.mayReadTypeKey)
        case .not(let filter): return filter.mayReadTypeKey
        case .comparison(_, let left, let right): return left.isTypeKey || right.isTypeKey
        case .isIn(let operand, _): return operand.isTypeKey
        case .has(let key): return key == "$type"
        }
    }

    /// Whether the filter reads the feature's geometry (`within`, `distance`), so that a renderer
    /// gives it to ``evaluate(_:zoom:geometry:)``.
    public var readsGeometry: Bool {
        switch self {
        case .expression(let expression): return expression.readsGeometry
        case .all(let filters), .any(let filters): return filters.contains(where: \.readsGeometry)
        case .not(let filter): return filter.readsGeometry
        case .constant, .comparison, .isIn, .has: return false
        }
    }

    private static func compare(_ left: FeatureValue, _ op: ComparisonOperator, _ right: FeatureValue) -> Bool {
        switch op {
        case .equal:
            return left == right
        case .notEqual:
            return left != right
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            let order: ComparisonResult
            switch (left, right) {
            case (.number(let a), .number(let b)):
                order = a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
            case (.string(let a), .string(let b)):
                order = a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
            default:
                return false
            }
            switch op {
            case .lessThan: return order == .orderedAscending
            case .lessThanOrEqual: return order != .orderedDescending
            case .greaterThan: return order == .orderedDescending
            default: return order != .orderedAscending
            }
        }
    }
}

/// One side of a filter comparison.
public enum FilterOperand: Hashable, Sendable {
    /// A feature property, `["get", key]` (or the key of a legacy filter); null when missing.
    case property(String)
    /// A literal value.
    case literal(FeatureValue)

    /// Whether the operand is the property `$type`.
    var isTypeKey: Bool {
        if case .property("$type") = self { return true }
        return false
    }

    /// The operand's value for a feature; `typeName` is read as `$type` where `properties` lack
    /// it (see ``Filter/evaluate(_:zoom:geometry:typeName:)``).
    public func value(in properties: [String: FeatureValue], typeName: String? = nil) -> FeatureValue {
        switch self {
        case .property(let key):
            if let value = properties[key] { return value }
            if let typeName, key == "$type" { return .string(typeName) }
            return .null
        case .literal(let value): return value
        }
    }
}
