/// The type of an expression's value, as the MapLibre Style Specification's type system has it
/// ("Expressions: Types"): what `typeof` answers and what compile errors name.
public indirect enum ExpressionType: Hashable, Sendable, CustomStringConvertible {
    case null, number, string, boolean, color, object, value, error, collator, formatted, resolvedImage
    case padding, numberArray, colorArray, variableAnchorOffsetCollection, projectionDefinition
    /// `array<item, count>`; no count when it may be any length.
    case array(ExpressionType, count: Int?)

    /// `array` of values, any length.
    static let anyArray = ExpressionType.array(.value, count: nil)

    /// The spec's spelling: `number`, `array<string, 2>`, `array` (of values, any length).
    public var description: String {
        switch self {
        case .null: "null"
        case .number: "number"
        case .string: "string"
        case .boolean: "boolean"
        case .color: "color"
        case .object: "object"
        case .value: "value"
        case .error: "error"
        case .collator: "collator"
        case .formatted: "formatted"
        case .resolvedImage: "resolvedImage"
        case .padding: "padding"
        case .numberArray: "numberArray"
        case .colorArray: "colorArray"
        case .variableAnchorOffsetCollection: "variableAnchorOffsetCollection"
        case .projectionDefinition: "projectionDefinition"
        case .array(let item, let count):
            if let count { "array<\(item), \(count)>" } else if item == .value { "array" } else { "array<\(item)>" }
        }
    }

    /// The kind without parameters (`array` for every array type), as GL compares kinds.
    var kind: String {
        if case .array = self { return "array" }
        return description
    }

    var isArray: Bool { kind == "array" }

    var itemType: ExpressionType? {
        if case .array(let item, _) = self { return item }
        return nil
    }

    /// The types a `value` may hold.
    private static let valueMembers: [ExpressionType] = [
        .null, .number, .string, .boolean, .color, .formatted, .object, .anyArray, .padding, .numberArray, .colorArray,
        .resolvedImage, .variableAnchorOffsetCollection, .projectionDefinition,
    ]

    /// Nil when a value of type `actual` may stand where `self` is expected; otherwise the
    /// error, worded as the specification's validator words it.
    func mismatch(_ actual: ExpressionType) -> String? {
        if actual == .error { return nil }
        if case .array(let item, let count) = self {
            if case .array(let actualItem, let actualCount) = actual,
                (actualCount == 0 && actualItem == .value) || item.mismatch(actualItem) == nil,
                count == nil || count == actualCount
            {
                return nil
            }
        } else if kind == actual.kind {
            return nil
        } else if self == .value {
            if Self.valueMembers.contains(where: { $0.mismatch(actual) == nil }) { return nil }
        }
        return "Expected \(self) but found \(actual) instead."
    }
}
