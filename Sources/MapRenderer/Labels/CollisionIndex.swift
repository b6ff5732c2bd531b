package import MapCore

/// The boxes already taken in a view, so labels are placed without overlapping each other or
/// the markers.
///
/// Boxes are bucketed in a coarse grid of 64-point cells, so a query looks only at its
/// neighbours.
package struct CollisionIndex {
    private static let cellSize: Double = 64
    private var cells: [Int: [ViewRect]] = [:]

    /// An index with nothing taken.
    package init() {}

    /// Whether `rect` overlaps any box taken so far.
    func collides(_ rect: ViewRect) -> Bool {
        for key in CollisionIndex.keys(for: rect) {
            guard let boxes = cells[key] else { continue }
            for box in boxes
            where box.minX < rect.maxX && rect.minX < box.maxX && box.minY < rect.maxY && rect.minY < box.maxY {
                return true
            }
        }
        return false
    }

    /// Takes `rect`.
    package mutating func insert(_ rect: ViewRect) {
        for key in CollisionIndex.keys(for: rect) { cells[key, default: []].append(rect) }
    }

    /// Takes `rect` when it is free; returns whether it was.
    package mutating func insertIfFree(_ rect: ViewRect) -> Bool {
        guard !collides(rect) else { return false }
        insert(rect)
        return true
    }

    private static func keys(for rect: ViewRect) -> [Int] {
        let minColumn = Int((rect.minX / cellSize).rounded(.down))
        let maxColumn = Int((rect.maxX / cellSize).rounded(.down))
        let minRow = Int((rect.minY / cellSize).rounded(.down))
        let maxRow = Int((rect.maxY / cellSize).rounded(.down))
        var keys: [Int] = []
        for row in minRow...maxRow {
            for column in minColumn...maxColumn { keys.append(row &* 100_003 &+ column) }
        }
        return keys
    }
}
