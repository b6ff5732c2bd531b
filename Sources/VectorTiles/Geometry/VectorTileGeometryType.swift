/// The kind of geometry a feature holds, its `type` field (spec 4.3.4).
///
/// The default, when a feature has no `type`, is ``unknown``; so is any value past 3, which
/// later versions of the specification might define.
public enum VectorTileGeometryType: UInt8, Hashable, Sendable, CaseIterable {
    /// `UNKNOWN` (0): an experimental geometry, which this module does not read (spec 4.3.4.1).
    case unknown = 0
    /// `POINT` (1): a point or multipoint (spec 4.3.4.2).
    case point = 1
    /// `LINESTRING` (2): a line or multiline (spec 4.3.4.3).
    case lineString = 2
    /// `POLYGON` (3): a polygon or multipolygon (spec 4.3.4.4).
    case polygon = 3

    /// The type a feature's `type` field names; ``unknown`` for values past 3.
    init(fieldValue: UInt64) {
        self = UInt8(exactly: fieldValue).flatMap(Self.init(rawValue:)) ?? .unknown
    }
}

extension VectorTileGeometryType: CustomStringConvertible {
    /// `unknown`, `point`, `line`, `polygon`.
    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .point: return "point"
        case .lineString: return "line"
        case .polygon: return "polygon"
        }
    }
}
