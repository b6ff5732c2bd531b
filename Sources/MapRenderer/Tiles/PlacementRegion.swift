import MapCore

/// A square block of the world at one tile zoom whose labels are placed together (see
/// ``TilePlacement``): the whole world at zooms where it is at most ``sidePoints`` wide, else
/// blocks of ``sidePoints`` world points.
///
/// Placing the whole world's labels at once lays out every labelled feature of the world, hundreds
/// of megabytes at zoom 11 and deeper with the bundled basemap; a region lays out those within
/// ``marginPoints`` of it. A region keeps the labels whose anchor lies inside it (so each label
/// belongs to exactly one region and every tile draws it from there, whole) and that reach at most
/// ``reachPoints`` beyond it (so a window asks only the regions within that reach). Labels near a
/// region's edge are placed seeing the candidates across it, within the margin; a collision chain
/// longer than the margin may still let two labels of neighbouring regions overlap a little.
struct PlacementRegion: Hashable, Sendable, Comparable {
    /// The tile zoom.
    let zoom: Int
    /// The region's column and row among the zoom's regions, from the north-west.
    let column: Int
    let row: Int
    /// The region's side in world points (the world at the zoom, origin at its north-west corner).
    let sideWorldPoints: Double
    /// Whether the region is the whole world (the zoom has one region).
    let isWorld: Bool

    /// A region's side, in points: 8,192 (32 tiles of 256 points, 16 of 512).
    static let sidePoints: Double = 8_192
    /// How far beyond a region its candidates are taken from, in points: 1,024.
    static let marginPoints: Double = 1_024
    /// How far beyond its region a kept label may reach, ink included, in points: 1,024. A label
    /// reaching further is dropped (it would be over 2,000 points long).
    static let reachPoints: Double = 1_024

    /// The world's side at `zoom` in points, for tiles of `tileSizePoints`.
    static func worldPoints(zoom: Int, tileSizePoints: Int) -> Double {
        Double(tileSizePoints) * Double(1 << zoom)
    }

    /// The regions of `zoom` whose kept labels may show in `window` (world points): those within
    /// ``reachPoints`` of it, ordered by row then column. (Labels lie wholly inside the world, so
    /// nothing wraps round the antimeridian.)
    static func regions(meeting window: ViewRect, zoom: Int, tileSizePoints: Int) -> [PlacementRegion] {
        let world = worldPoints(zoom: zoom, tileSizePoints: tileSizePoints)
        guard world > sidePoints else {
            return [PlacementRegion(zoom: zoom, column: 0, row: 0, sideWorldPoints: world, isWorld: true)]
        }
        let count = Int((world / sidePoints).rounded(.up))
        let reach = reachPoints + TilePlacement.labelInkMarginPoints
        let firstColumn = max(0, Int(((window.minX - reach) / sidePoints).rounded(.down)))
        let lastColumn = min(count - 1, Int(((window.maxX + reach) / sidePoints).rounded(.down)))
        let firstRow = max(0, Int(((window.minY - reach) / sidePoints).rounded(.down)))
        let lastRow = min(count - 1, Int(((window.maxY + reach) / sidePoints).rounded(.down)))
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return [] }
        return (firstRow...lastRow).flatMap { row in
            (firstColumn...lastColumn).map {
                PlacementRegion(zoom: zoom, column: $0, row: row, sideWorldPoints: sidePoints, isWorld: false)
            }
        }
    }

    /// The region in world points.
    var rect: ViewRect {
        ViewRect(
            x: Double(column) * sideWorldPoints, y: Double(row) * sideWorldPoints, width: sideWorldPoints,
            height: sideWorldPoints)
    }

    /// Where its candidates are taken from: ``rect`` with ``marginPoints`` round it (may reach
    /// past the antimeridian, into the world's copies).
    var candidateRect: ViewRect {
        rect.insetBy(dx: -PlacementRegion.marginPoints, dy: -PlacementRegion.marginPoints)
    }

    /// Whether a placed label belongs to the region: its anchor inside (west and north edges
    /// included) and its bounds, with their ink, within ``reachPoints`` of it.
    func keeps(anchor: ViewPoint, bounds: ViewRect) -> Bool {
        guard !isWorld else { return true }
        let rect = self.rect
        guard anchor.x >= rect.minX, anchor.x < rect.maxX, anchor.y >= rect.minY, anchor.y < rect.maxY else {
            return false
        }
        let reach = rect.insetBy(dx: -PlacementRegion.reachPoints, dy: -PlacementRegion.reachPoints)
        let margin = TilePlacement.labelInkMarginPoints
        return bounds.minX - margin >= reach.minX && bounds.maxX + margin <= reach.maxX
            && bounds.minY - margin >= reach.minY && bounds.maxY + margin <= reach.maxY
    }

    static func < (a: PlacementRegion, b: PlacementRegion) -> Bool {
        (a.zoom, a.row, a.column) < (b.zoom, b.row, b.column)
    }
}
