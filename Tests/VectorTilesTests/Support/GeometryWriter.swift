import VectorTiles

/// Writes a feature's geometry numbers (spec 4.3) from absolute tile coordinates: command
/// integers `(id & 0x7) | (count << 3)` and zigzag-encoded deltas from a cursor carried across
/// commands and parts, as an encoder does, independent of the decoder.
///
/// For example, the spec's line example (4.3.5.3), `[9, 4, 4, 18, 0, 16, 16, 0]`:
///
/// ```swift
/// var geometry = GeometryWriter()
/// geometry.moveTo((2, 2))
/// geometry.lineTo((2, 10), (10, 10))
/// ```
struct GeometryWriter {
    /// The numbers written so far.
    private(set) var numbers: [UInt32] = []
    private var cursorX: Int32 = 0
    private var cursorY: Int32 = 0

    /// MoveTo (1) with one point per pair.
    mutating func moveTo(_ points: (Int32, Int32)...) {
        append(command: 1, points)
    }

    /// LineTo (2) with one point per pair.
    mutating func lineTo(_ points: (Int32, Int32)...) {
        append(command: 2, points)
    }

    /// ClosePath (7), count 1.
    mutating func closePath() {
        numbers.append(Self.command(7, count: 1))
    }

    /// A ring: MoveTo the first point, LineTo the others, ClosePath.
    mutating func ring(_ points: [(Int32, Int32)]) {
        append(command: 1, [points[0]])
        append(command: 2, Array(points.dropFirst()))
        closePath()
    }

    /// A command integer.
    static func command(_ id: UInt32, count: UInt32) -> UInt32 {
        (id & 0x7) | (count << 3)
    }

    /// `(value << 1) ^ (value >> 31)` (spec 4.3.2).
    static func zigzag(_ value: Int32) -> UInt32 {
        UInt32(bitPattern: (value << 1) ^ (value >> 31))
    }

    private mutating func append(command id: UInt32, _ points: [(Int32, Int32)]) {
        numbers.append(Self.command(id, count: UInt32(points.count)))
        for (x, y) in points {
            numbers += [Self.zigzag(x - cursorX), Self.zigzag(y - cursorY)]
            (cursorX, cursorY) = (x, y)
        }
    }
}

extension TilePoint {
    /// A tile point from a pair, for short expectations: `TilePoint(2, 10)`.
    init(_ x: Int32, _ y: Int32) {
        self.init(x: x, y: y)
    }
}

/// Tile points from pairs: `points((0, 0), (10, 0))`.
func points(_ pairs: (Int32, Int32)...) -> [TilePoint] {
    pairs.map { TilePoint($0.0, $0.1) }
}
