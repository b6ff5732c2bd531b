import Foundation
import GeoData
import MapCore
import MapData
import MapStyle

extension LabelCandidate {
    /// Labels along lines drawn from the style's glyphs (`symbol-placement: line` or
    /// `line-center`), with their icons if any, as GL lays them out: on each tile's piece of a
    /// line (``TilePiece``; `line-center` on the whole line), anchors every `symbol-spacing`
    /// inside the tile where the whole label fits on the piece and the line turns no more than
    /// `text-max-angle` within a window of three fifths of an em (GL's `getAnchors`,
    /// `checkMaxAngle`), each glyph then set on the line at its distance from the anchor and
    /// turned to its segment (GL's `placeGlyphAlongLine`), the label flipped to read left to
    /// right unless `text-keep-upright` is false. A label that runs off its line is left out.
    /// Where its first and last glyphs rise more than they run and it holds characters that
    /// stand upright in vertical text (CJK), it is written vertically instead, read from the
    /// top (GL's vertical shaping along lines, kept upright).
    static func glyphLineCandidates(
        of symbol: SymbolLayer, features: [PreparedFeature], viewport: Viewport, zoom: Double, font: FontSpec,
        context: SymbolContext,
        glyphs: StyleGlyphs, fontStack: String
    ) -> [LabelCandidate] {
        let placement = symbol.placement.value(atZoom: zoom)
        // View points per point of the tile zoom GL lays symbols out at.
        let tileScale = exp2(zoom - zoom.rounded(.down))
        let collision = SymbolCollision(symbol, zoom: zoom)
        let textMaxSizeScale = symbol.textSize.value(atZoom: 18) / 24
        let maximumAngle = symbol.textMaxAngle.value(atZoom: zoom) * .pi / 180
        let keepsUpright = symbol.textKeepUpright.value(atZoom: zoom)
        let alongLine = [.map, .auto].contains(symbol.textRotationAlignment.value(atZoom: zoom))
        var candidates: [LabelCandidate] = []
        for feature in features where !feature.geometry.lines.isEmpty || !feature.geometry.polygons.isEmpty {
            let properties = feature.styleValues
            let text = symbol.label(for: properties, atZoom: zoom)
            let runs = text.flatMap {
                glyphs.runs(
                    of: symbol, text: $0, properties: properties, zoom: zoom, fontStack: fontStack, context: context)
            }
            let shaped = runs.flatMap { ShapedText.shape(symbol, runs: $0, properties: properties, zoom: zoom) }
            let verticalShaped = runs.flatMap { runs -> ShapedText? in
                guard keepsUpright, alongLine, let text, ShapedText.allowsVerticalWriting(text) else { return nil }
                return ShapedText.shape(symbol, runs: runs, properties: properties, zoom: zoom, writesVertically: true)
            }
            // icon-text-fit fits the icon to the straight text block before it is set along the line.
            let textBox = shaped?.blockBox
            let probe = SymbolIcon.make(
                for: symbol, properties: properties, zoom: zoom, images: context.images, lineAngle: 0,
                viewport: viewport,
                missing: &context.missingImages.value
            ).map { $0.fitted(toTextOf: symbol, textBox: textBox, properties: properties, zoom: zoom) }
            guard shaped != nil || probe != nil else { continue }
            let sortKey = symbol.sortKey?.value(for: properties, zoom: zoom)
            // GL's shaped length: the wider of the text block (em units; the vertical shaping's
            // when there is one) and the icon (points).
            let shapedLength = max(
                (verticalShaped ?? shaped)?.box.size.width ?? 0,
                probe.map { $0.columnCuts == nil ? $0.image.widthPoints : $0.box.size.width } ?? 0)
            let labelLength = shapedLength * textMaxSizeScale
            let angleWindow = shaped == nil ? 0 : 0.6 * 24 * textMaxSizeScale
            for line in feature.geometry.labelLines(in: viewport) {
                // GL lays labels out per tile, on each tile's piece of the line.
                let pieces =
                    placement == .lineCenter
                    ? [TilePiece(points: line, tile: nil, isContinued: false)]
                    : TilePiece.pieces(of: line, viewport: viewport, tileZoom: Int(zoom.rounded(.down)))
                for piece in pieces {
                    let points = piece.points
                    // The line at the tile zoom's scale, where GL finds its anchors.
                    let tileLine = points.map { ViewPoint(x: $0.x / tileScale, y: $0.y / tileScale) }
                    let walk = Polyline(tileLine)
                    let view = Polyline(points)
                    var anchors: [Double]
                    if placement == .lineCenter {
                        anchors = labelLength <= walk.length ? [walk.length / 2] : []
                    } else {
                        var spacing = symbol.spacing.value(atZoom: zoom)
                        if spacing - labelLength < spacing / 4 { spacing = labelLength + spacing / 4 }
                        let offset =
                            piece.isContinued
                            ? spacing / 2
                            : ((shapedLength / 2 + 48) * textMaxSizeScale).truncatingRemainder(dividingBy: spacing)
                        func fits(_ distance: Double) -> Bool {
                            distance - labelLength / 2 >= 0 && distance + labelLength / 2 <= walk.length
                                && piece.holds(view.point(at: distance * tileScale).point, in: viewport)
                                && (angleWindow == 0
                                    || walk.turnsGently(
                                        at: distance, labelLength: labelLength, window: angleWindow,
                                        maximumAngle: maximumAngle))
                        }
                        anchors = Array(stride(from: offset, to: walk.length, by: spacing)).filter(fits)
                        if anchors.isEmpty, !piece.isContinued, fits(walk.length / 2) { anchors = [walk.length / 2] }
                    }
                    for distance in anchors {
                        let (anchor, segment) = view.point(at: distance * tileScale)
                        let a = view.points[segment]
                        let b = view.points[segment + 1]
                        let lineAngle = atan2(b.y - a.y, b.x - a.x)
                        var placedText: ShapedText?
                        if let shaped {
                            if let verticalShaped, shaped.isSteep(on: view, anchor: anchor, segment: segment) == true {
                                placedText = verticalShaped.alongLine(
                                    view, anchor: anchor, segment: segment, keepsUpright: true, vertical: true)
                            } else {
                                placedText = shaped.alongLine(
                                    view, anchor: anchor, segment: segment, keepsUpright: keepsUpright)
                            }
                            // A label that runs off its line is not drawn, nor its icon.
                            guard placedText != nil else { continue }
                        }
                        let icon =
                            probe == nil
                            ? nil
                            : SymbolIcon.make(
                                for: symbol, properties: properties, zoom: zoom, images: context.images,
                                lineAngle: lineAngle, viewport: viewport,
                                missing: &context.missingImages.value
                            ).map { $0.fitted(toTextOf: symbol, textBox: textBox, properties: properties, zoom: zoom) }
                        var candidate = LabelCandidate(
                            layout: nil, center: anchor, priority: sortKey.map { -$0 } ?? 0, color: .black, halo: nil,
                            font: font,
                            maximumWidthPoints: .infinity, icon: icon, shaped: placedText)
                        candidate.collision = collision
                        candidate.featureOrder = candidates.count
                        candidates.append(candidate)
                    }
                }
            }
        }
        return candidates
    }
}

extension Polyline {
    /// GL's `checkMaxAngle`: whether the line turns by no more than `maximumAngle` within any
    /// `window` of its length under a label `labelLength` long centred `distance` along it.
    func turnsGently(at distance: Double, labelLength: Double, window: Double, maximumAngle: Double) -> Bool {
        let start = distance - labelLength / 2
        let end = distance + labelLength / 2
        guard start >= 0, end <= length else { return false }
        var corners: [(distance: Double, angle: Double)] = []
        var total = 0.0
        for index in 1..<max(1, points.count - 1) where distances[index] > start && distances[index] < end {
            let previous = points[index - 1]
            let current = points[index]
            let next = points[index + 1]
            var delta =
                atan2(current.y - previous.y, current.x - previous.x) - atan2(next.y - current.y, next.x - current.x)
            delta = abs((delta + 3 * .pi).truncatingRemainder(dividingBy: 2 * .pi) - .pi)
            corners.append((distances[index], delta))
            total += delta
            while let first = corners.first, distances[index] - first.distance > window {
                total -= first.angle
                corners.removeFirst()
            }
            if total > maximumAngle { return false }
        }
        return true
    }
}
