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
public struct GeometryWriter: Sendable {
    public init() {}

    /// The numbers written so far.
    public private(set) var numbers: [UInt32] = []
    private var cursorX: Int32 = 0
    private var cursorY: Int32 = 0

    /// MoveTo (1) with one point per pair.
    public mutating func moveTo(_ points: (Int32, Int32)...) {
        append(command: 1, points)
    }

    /// LineTo (2) with one point per pair.
    public mutating func lineTo(_ points: (Int32, Int32)...) {
        append(command: 2, points)
    }

    /// ClosePath (7), count 1.
    public mutating func closePath() {
        numbers.append(Self.command(7, count: 1))
    }

    /// A ring: MoveTo the first point, LineTo the others, ClosePath.
    public mutating func ring(_ points: [(Int32, Int32)]) {
        append(command: 1, [points[0]])
        append(command: 2, Array(points.dropFirst()))
        closePath()
    }

    /// A command integer.
    public static func command(_ id: UInt32, count: UInt32) -> UInt32 {
        (id & 0x7) | (count << 3)
    }

    /// `(value << 1) ^ (value >> 31)` (spec 4.3.2).
    public static func zigzag(_ value: Int32) -> UInt32 {
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
