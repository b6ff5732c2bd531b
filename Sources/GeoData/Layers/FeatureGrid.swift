import MapCore

/// A uniform grid over the world that lists, per cell, the features whose map rect meets it.
///
/// The grid has 64 × 64 cells (each about 625 km wide at the equator). A query visits the
/// cells under its rect and checks each candidate's rect, so it costs the number of features
/// near the rect, not the number of features.
struct FeatureGrid: Sendable {
    static let cellsPerSide = 64

    private let cells: [[Int32]]
    private let rects: [MapRect]

    init(rects: [MapRect]) {
        var cells = [[Int32]](repeating: [], count: Self.cellsPerSide * Self.cellsPerSide)
        for (index, rect) in rects.enumerated() where !rect.isNull {
            let (columns, rows) = Self.cellRange(of: rect)
            for row in rows {
                for column in columns {
                    cells[row * Self.cellsPerSide + column].append(Int32(index))
                }
            }
        }
        self.cells = cells
        self.rects = rects
    }

    /// The indices of the rects meeting `rect` (edges included), ascending.
    func indices(meeting rect: MapRect) -> [Int] {
        guard !rect.isNull else { return [] }
        let (columns, rows) = Self.cellRange(of: rect)
        var found = Set<Int>()
        for row in rows {
            for column in columns {
                for index in cells[row * Self.cellsPerSide + column] where rects[Int(index)].intersects(rect) {
                    found.insert(Int(index))
                }
            }
        }
        return found.sorted()
    }

    private static func cellRange(of rect: MapRect) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        let cellSize = WebMercator.worldSize / Double(cellsPerSide)
        func cell(_ value: Double) -> Int {
            min(cellsPerSide - 1, max(0, Int((value / cellSize).rounded(.down))))
        }
        return (cell(rect.minX)...cell(rect.maxX), cell(rect.minY)...cell(rect.maxY))
    }
}
