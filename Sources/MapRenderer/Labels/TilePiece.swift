import Foundation
import GeoData
import MapCore

/// A line's piece inside one tile, as GL lays out line labels (`clipLine` to each tile's square
/// at the tile zoom; a label's anchor lies in its tile and the label fits on the piece).
struct TilePiece {
    /// In view points.
    let points: [ViewPoint]
    /// The tile's square in map points; nil for a whole line (a turned or tilted view, or
    /// `line-center` placement, which GL does not cut).
    let tile: MapRect?
    /// Whether the piece runs on from a neighbouring tile (starts on its square's edge): GL
    /// then sets its first anchor half the spacing in.
    let isContinued: Bool

    /// Whether a view point lies in the piece's tile: on its left or top edge counts, on its
    /// right or bottom edge does not (GL keeps anchors with `0 <= x < extent`).
    func holds(_ point: ViewPoint, in viewport: Viewport) -> Bool {
        guard let tile else { return true }
        guard let mapPoint = viewport.mapPoint(for: point) else { return false }
        return mapPoint.x >= tile.minX && mapPoint.x < tile.maxX && mapPoint.y >= tile.minY && mapPoint.y < tile.maxY
    }

    /// The pieces of `line` (view points) in the 512-point tiles of `tileZoom` it crosses, cut
    /// in map space by ``Clipping/clipLine(_:to:)``; the whole line in a turned or tilted view.
    static func pieces(of line: [ViewPoint], viewport: Viewport, tileZoom: Int) -> [TilePiece] {
        let whole = [TilePiece(points: line, tile: nil, isContinued: false)]
        guard viewport.camera.headingDegrees == 0, viewport.camera.pitchDegrees == 0, (0...30).contains(tileZoom) else {
            return whole
        }
        let tileSize = WebMercator.worldSize / Double(1 << tileZoom)
        let mapPoints = line.compactMap(viewport.mapPoint(for:))
        guard mapPoints.count == line.count, !mapPoints.isEmpty else { return whole }
        let bounds = MapRect(enclosing: mapPoints)
        let firstColumn = Int((bounds.minX / tileSize).rounded(.down))
        let lastColumn = Int((bounds.maxX / tileSize).rounded(.down))
        let firstRow = Int((bounds.minY / tileSize).rounded(.down))
        let lastRow = Int((bounds.maxY / tileSize).rounded(.down))
        guard (lastColumn - firstColumn + 1) * (lastRow - firstRow + 1) <= 4096 else { return whole }
        // A crossing point computed on an edge may miss it by a rounding error.
        let tolerance = tileSize * 1e-9
        var pieces: [TilePiece] = []
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let tile = MapRect(
                    x: Double(column) * tileSize, y: Double(row) * tileSize, width: tileSize, height: tileSize)
                for piece in Clipping.clipLine(mapPoints, to: tile) {
                    let start = piece[0]
                    let onEdge =
                        [tile.minX, tile.maxX].contains { abs(start.x - $0) <= tolerance }
                        || [tile.minY, tile.maxY].contains { abs(start.y - $0) <= tolerance }
                    let points = piece.compactMap(viewport.unwrappedPoint(for:))
                    guard points.count == piece.count else { return whole }
                    pieces.append(TilePiece(points: points, tile: tile, isContinued: onEdge))
                }
            }
        }
        return pieces
    }
}
