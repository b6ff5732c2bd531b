/// A feature's geometry in its layer's tile coordinates (``TilePoint``), decoded from the
/// commands of spec 4.3.
///
/// Single and multi geometries share a case: a point is `.points([p])`, a multipoint has more.
/// For example, the spec's multipolygon example (4.3.5.6), a square and a square with a hole:
///
/// ```swift
/// .polygons([
///     [[(0, 0), (10, 0), (10, 10), (0, 10)]],
///     [[(11, 11), (20, 11), (20, 20), (11, 20)], [(13, 13), (13, 17), (17, 17), (17, 13)]],
/// ])  // written here as (x, y) pairs for TilePoints
/// ```
public enum VectorTileGeometry: Sendable, Hashable {
    /// Points (`POINT`): one, or several for a multipoint.
    case points([TilePoint])
    /// Lines (`LINESTRING`), each of at least two points; several for a multiline.
    case lines([[TilePoint]])
    /// Polygons (`POLYGON`), several for a multipolygon. Each polygon is its rings: the exterior
    /// first, then its holes. Rings are closed by ClosePath and stored without repeating the
    /// first point, each of at least three points and non-zero area. In tile coordinates
    /// (y down) an exterior winds clockwise (positive area by the surveyor's formula) and a hole
    /// counterclockwise, as spec 4.3.4.4 requires of version 2 layers.
    case polygons([[[TilePoint]]])
    /// No geometry: a feature of ``VectorTileGeometryType/unknown`` type, or one whose commands
    /// draw nothing (no points, or only degenerate lines and rings).
    case none
}

extension VectorTileGeometry {
    /// A geometry command (spec 4.3.1): its id is the low three bits of a command integer, its
    /// count the other 29.
    public enum Command: UInt32, Hashable, Sendable, CustomStringConvertible {
        /// Starts a point, a line or a ring at the cursor moved by (dX, dY) (spec 4.3.3.1).
        case moveTo = 1
        /// Extends the line or ring to the cursor moved by (dX, dY) (spec 4.3.3.2).
        case lineTo = 2
        /// Closes the ring, without moving the cursor (spec 4.3.3.3).
        case closePath = 7

        /// `MoveTo`, `LineTo`, `ClosePath`, as the specification writes them.
        public var description: String {
            switch self {
            case .moveTo: return "MoveTo"
            case .lineTo: return "LineTo"
            case .closePath: return "ClosePath"
            }
        }
    }
}
