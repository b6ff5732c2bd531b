import CCairo
import Foundation
import ImageCodec
import MapCore
import MapStyle

/// The labels and the callout of one tile zoom level, placed once for the whole world, in world
/// points (the world at the tiles' zoom, `tileSize × 2^z` points wide, origin at its north-west
/// corner): what makes a tileset seamless.
///
/// An image places its labels in its view: a label that would cross the edge is dropped, and
/// which label wins a collision depends on what the view shows. Two neighbouring tiles placed
/// that way would disagree at their common edge. Placed here, from whole features (never
/// clipped), with priorities that do not depend on any view, a label is either placed, and then
/// drawn whole by every tile it touches, or not placed at all; the same holds for the callout.
/// (Markers need no placement: each window finds every marker that reaches into it, see
/// ``MarkerLayer``.)
///
/// Immutable once made: tiles rendered on any threads read it at once.
final class TilePlacement: Sendable {
    /// A label placed in the world.
    struct Label: Hashable, Sendable {
        /// The style layer it belongs to, by index in the style's layers.
        let layerIndex: Int
        /// The text; nil for an icon alone.
        let text: String?
        /// Its `format` sections styled apart (installed fonts), or nil.
        let sections: [TextSection]?
        let font: FontSpec
        let maximumWidthPoints: Double
        /// Its logical frame in world points, unturned, centred where the label is.
        let frame: ViewRect
        /// Its direction (see ``LabelCandidate/angle``).
        let angle: Double
        /// The box round everything it takes, turned or not, in world points.
        let bounds: ViewRect
        let color: Color
        let halo: TextHalo?
        /// The icon, laid out round the anchor; nil for text alone.
        let icon: SymbolIcon?
        /// The symbol's anchor, in world points.
        let anchor: ViewPoint
        /// The installed fonts' text centre from the anchor (see ``LabelCandidate/textOffset``).
        let textOffset: ViewPoint
        /// The text shaped from the style's glyphs, or nil.
        let shaped: ShapedText?
        /// The installed fonts' text set glyph by glyph along a line, or nil.
        let curve: TextCurve?
        /// Its feature's place in its layer (see ``LabelCandidate/featureOrder``).
        let featureOrder: Int
        /// `text-translate` in points (see ``LabelCandidate/textTranslation``).
        let textTranslation: ViewPoint
        /// Where the label's ink may be, before ``labelInkMarginPoints``: its bounds and the
        /// bounds moved by ``textTranslation`` (a label `text-translate` moves past the margin was
        /// left out of the window its text reached: GL's `text-translate/function` drawn as one
        /// band differed from the image drawn whole).
        var reach: ViewRect {
            guard textTranslation.x != 0 || textTranslation.y != 0 else { return bounds }
            let minX = min(bounds.minX, bounds.minX + textTranslation.x)
            let minY = min(bounds.minY, bounds.minY + textTranslation.y)
            let maxX = max(bounds.maxX, bounds.maxX + textTranslation.x)
            let maxY = max(bounds.maxY, bounds.maxY + textTranslation.y)
            return ViewRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        }

        /// A placed label of the layer at `layerIndex`, in the points of the view it was placed in.
        init(_ label: LabelCandidate, layerIndex: Int) {
            self.layerIndex = layerIndex
            text = label.layout?.text
            sections = label.layout?.sections
            font = label.font
            maximumWidthPoints = label.maximumWidthPoints
            frame = label.frame
            angle = label.angle
            bounds = label.bounds
            color = label.color
            halo = label.halo
            icon = label.icon
            anchor = label.center
            textOffset = label.textOffset
            shaped = label.shaped
            curve = label.curve
            featureOrder = label.featureOrder
            textTranslation = label.textTranslation
        }
    }

    /// How far a label's ink may reach beyond its logical frame, in points: its halo and the
    /// overhang of glyphs. A window draws every label whose frame comes this close to it.
    static let labelInkMarginPoints: Double = 8
    /// The side of the cells labels are indexed in, in world points.
    private static let cellPoints: Double = 512

    /// The world's size in points at this zoom: the view a callout is kept inside.
    let worldSize: ViewSize
    let labels: [Label]
    let callout: (any MarkerCalloutPlacement)?
    /// The labels by cell, (column, row) → indices into ``labels``.
    private let cells: [SIMD2<Int>: [Int]]

    init(worldSize: ViewSize, labels: [Label], callout: (any MarkerCalloutPlacement)?) {
        self.worldSize = worldSize
        self.labels = labels
        self.callout = callout
        var cells: [SIMD2<Int>: [Int]] = [:]
        for (index, label) in labels.enumerated() {
            for cell in TilePlacement.cells(of: label.reach) { cells[cell, default: []].append(index) }
        }
        self.cells = cells
    }

    /// The labels of `parts` (regions' placements of one zoom, in region order, at least one)
    /// that may show in `window` (world points), in that order, and the first part's callout.
    convenience init(merging parts: [TilePlacement], near window: ViewRect) {
        let margin = TilePlacement.labelInkMarginPoints
        let labels = parts.flatMap { part in
            part.labels.filter { label in
                let frame = label.reach
                return frame.maxX + margin > window.minX && frame.minX - margin < window.maxX
                    && frame.maxY + margin > window.minY && frame.minY - margin < window.maxY
            }
        }
        self.init(worldSize: parts[0].worldSize, labels: labels, callout: parts.lazy.compactMap(\.callout).first)
    }

    /// Roughly the bytes the placement holds: what a placement cache counts.
    var estimatedBytes: Int {
        labels.reduce(1_024) { total, label in
            total + 512 + (label.text?.utf8.count ?? 0) + (label.sections?.count ?? 0) * 96
                + (label.shaped.map { $0.quads.count * 96 + $0.placements.count * 48 + $0.text.utf8.count } ?? 0)
                + (label.curve?.glyphs.count ?? 0) * 48
        } + cells.count * 64
    }

    private static func cells(of rect: ViewRect) -> [SIMD2<Int>] {
        let margin = labelInkMarginPoints
        let minColumn = Int(((rect.minX - margin) / cellPoints).rounded(.down))
        let maxColumn = Int(((rect.maxX + margin) / cellPoints).rounded(.down))
        let minRow = Int(((rect.minY - margin) / cellPoints).rounded(.down))
        let maxRow = Int(((rect.maxY + margin) / cellPoints).rounded(.down))
        return (minRow...maxRow).flatMap { row in (minColumn...maxColumn).map { SIMD2($0, row) } }
    }

    /// The labels whose ink may show in a view whose top-left corner is at `origin` (world
    /// points), laid out again in `cairo` and moved into the view, by layer index, in the order
    /// they were placed.
    func labels(in viewRect: ViewRect, origin: ViewPoint, cairo: OpaquePointer) -> [Int: [LabelCandidate]] {
        let window = ViewRect(
            x: origin.x + viewRect.minX, y: origin.y + viewRect.minY, width: viewRect.size.width,
            height: viewRect.size.height)
        let margin = TilePlacement.labelInkMarginPoints
        var indices = Set<Int>()
        for cell in TilePlacement.cells(of: window) {
            for index in self.cells[cell] ?? [] {
                let frame = labels[index].reach
                if frame.maxX + margin > window.minX, frame.minX - margin < window.maxX,
                    frame.maxY + margin > window.minY, frame.minY - margin < window.maxY
                {
                    indices.insert(index)
                }
            }
        }
        var result: [Int: [LabelCandidate]] = [:]
        for index in indices.sorted() {
            let label = labels[index]
            let layout = label.text.map {
                TextLayout(
                    $0, font: label.font, in: cairo,
                    maximumWidth: label.maximumWidthPoints.isFinite ? label.maximumWidthPoints : nil, wraps: true,
                    sections: label.sections)
            }
            var candidate = LabelCandidate(
                layout: layout,
                center: ViewPoint(x: label.anchor.x - origin.x, y: label.anchor.y - origin.y),
                priority: 0, color: label.color, halo: label.halo, font: label.font,
                maximumWidthPoints: label.maximumWidthPoints,
                angle: label.angle, icon: label.icon, shaped: label.shaped, textOffset: label.textOffset)
            candidate.featureOrder = label.featureOrder
            candidate.textTranslation = label.textTranslation
            candidate.curve = label.curve
            result[label.layerIndex, default: []].append(candidate)
        }
        return result
    }

    /// The callout laid out in `cairo` in world points (draw it with the world moved by
    /// `-origin`), when it shows in the view; nil otherwise or without one.
    func callout(in viewRect: ViewRect, origin: ViewPoint, cairo: OpaquePointer) -> (any MarkerCallout)? {
        guard let callout else { return nil }
        let frame = callout.inkFrame
        guard frame.maxX > origin.x + viewRect.minX, frame.minX < origin.x + viewRect.maxX,
            frame.maxY > origin.y + viewRect.minY, frame.minY < origin.y + viewRect.maxY
        else { return nil }
        return callout.layOut(worldSize: worldSize, cairo: cairo)
    }
}
