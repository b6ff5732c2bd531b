import Foundation
import MapJSON

extension StyleDecoder {
    /// Reads an expression (MapLibre Style Specification, "Expressions"), type checked as
    /// MapLibre's validator does (see ``ExpressionParser``): `expecting` the property's type,
    /// nil for any.
    ///
    /// - Throws: ``StyleError`` at the path of the part at fault, worded as MapLibre words it:
    ///   an unknown operator is `unsupportedExpression`, anything else `invalidValue`.
    func expression(
        _ json: JSONValue, at path: StylePath, expecting expected: ExpressionType? = nil, coercingStrings: Bool = false,
        isProperty: Bool = false
    ) throws(StyleError) -> StyleExpression {
        do throws(ExpressionParseFailure) {
            return try ExpressionParser.parse(
                json, expecting: expected, coercingStrings: coercingStrings, globalState: globalState,
                isProperty: isProperty
            ).expression
        } catch {
            let first = error.errors[0]
            let located = path.appending(expressionKey: first.key)
            if first.message.hasPrefix("Unknown expression") {
                throw self.error(.unsupportedExpression(first.message), at: located)
            }
            throw self.error(.invalidValue(first.message), at: located)
        }
    }

    /// The root `state`: each key's `default`, which `global-state` reads.
    mutating func decodeGlobalState(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [String:
        ExpressionValue]
    {
        var state: [String: ExpressionValue] = [:]
        for (key, value) in try object(json, at: path) {
            let members = try object(value, at: path.appending(key))
            state[key] = members["default"].map(ExpressionValue.init(json:)) ?? .null
        }
        return state
    }
}

extension StylePath {
    /// The path of an expression's part: `key` as the parser gives it, `[2][1]`.
    func appending(expressionKey key: String) -> StylePath {
        var path = self
        for part in key.split(separator: "]") {
            if let index = Int(part.dropFirst()) { path = path.appending(index: index) }
        }
        return path
    }
}
