/// An error from PROJ, naming the CRS or coordinate it concerns.
public enum ProjectionError: Error, Hashable, Sendable {
    /// PROJ does not know the CRS definition; `reason` is PROJ's own message.
    case unknownCRS(String, reason: String)
    /// PROJ knows both CRS but has no operation between them.
    case noOperation(source: String, target: String, reason: String)
    /// A point could not be transformed (outside the operation's area, for instance).
    case transformFailed(x: Double, y: Double, reason: String)
}

extension ProjectionError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknownCRS(let definition, let reason):
            return "unknown CRS '\(definition)': \(reason)"
        case .noOperation(let source, let target, let reason):
            return "no transformation from '\(source)' to '\(target)': \(reason)"
        case .transformFailed(let x, let y, let reason):
            return "cannot transform (\(x), \(y)): \(reason)"
        }
    }
}
