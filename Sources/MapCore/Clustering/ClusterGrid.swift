import Foundation

/// A grid of square cells over the unit world [0, 1]², 2^bits cells a side, whose cells are
/// numbered row by row from the north-west: the key of a cell is `row << bits | column`.
///
/// Each zoom level of a ``ClusterIndex`` keeps its items sorted by the key of their cell in one
/// such grid. The sort is the index: a rect's items in one row of cells are one run of the sorted
/// array, found by binary search; and the cells are at least the cluster radius of the next zoom
/// out wide, so an item's neighbours within that radius lie in its own cell and the eight around it.
struct ClusterGrid: Hashable, Sendable {
    /// The base-2 logarithm of the number of cells a side, in 0...32.
    let bits: Int
    /// Cells a side as a `Double`, to scale unit coordinates by.
    let scale: Double

    /// The finest grid whose cells are at least `width` wide, a fraction of the world's width.
    init(cellWidthAtLeast width: Double) {
        var bits = 0
        while bits < 32, exp2(-Double(bits + 1)) >= width { bits += 1 }
        self.bits = bits
        scale = exp2(Double(bits))
    }

    /// The number of cells a side, 2^bits.
    var cellsPerSide: Int { 1 << bits }

    /// The column of a unit x, clamped into the grid (so x = 1 falls in the last column).
    @inline(__always)
    func column(_ x: Double) -> Int {
        min(cellsPerSide - 1, max(0, Int(x * scale)))
    }

    /// The row of a unit y, clamped into the grid (so y = 1 falls in the last row).
    @inline(__always)
    func row(_ y: Double) -> Int {
        min(cellsPerSide - 1, max(0, Int(y * scale)))
    }

    @inline(__always)
    func key(row: Int, column: Int) -> UInt64 {
        UInt64(row) << UInt64(bits) | UInt64(column)
    }

    @inline(__always)
    func key(x: Double, y: Double) -> UInt64 {
        key(row: row(y), column: column(x))
    }

    @inline(__always)
    func row(ofKey key: UInt64) -> Int { Int(key >> UInt64(bits)) }

    @inline(__always)
    func column(ofKey key: UInt64) -> Int { Int(key & (UInt64(1) << UInt64(bits) &- 1)) }
}
