import CCairo
import Foundation
import GeoData
import MapCore
import MapData
import MapJSON
import MapStyle

extension LabelCandidate {
    /// Labels along lines (`symbol-placement: line` or `line-center`): street names.
    ///
    /// A feature's lines with the same text are joined where one ends at another's start (a
    /// street cut at tile edges is one street again), then walked: `line` tries a label every
    /// `symbol-spacing` points, starting half a spacing in; `line-center` once, at the middle.
    /// A label goes where the line (its wiggles under a quarter of the text's height smoothed
    /// away) turns no more than `text-max-angle` within any stretch as long as the text is tall, and is set along it glyph by glyph, each glyph turned to its
    /// segment (``TextCurve``), read left to right; it does not wrap. Priority: the sort key,
    /// else the line's length, so long streets are named before short ones.
    static func lineCandidates(
        of symbol: SymbolLayer, features: [PreparedFeature], viewport: Viewport, zoom: Double, font: FontSpec,
        color: Color,
        halo: TextHalo?, cairo: OpaquePointer
    ) -> [LabelCandidate] {
        let placement = symbol.placement.value(atZoom: zoom)
        let spacing = max(1, symbol.spacing.value(atZoom: zoom))
        let maximumAngle = symbol.textMaxAngle.value(atZoom: zoom) * .pi / 180
        // Lines by label text, in view points, joined.
        var linesByText: [String: (lines: [[ViewPoint]], priority: Double?, sections: [TextSection]?)] = [:]
        var order: [String] = []
        for feature in features where !feature.geometry.lines.isEmpty {
            let properties = feature.styleValues
            guard let text = symbol.label(for: properties, atZoom: zoom), !text.isEmpty else { continue }
            if linesByText[text] == nil { order.append(text) }
            let sortKey = symbol.sortKey?.value(for: properties, zoom: zoom)
            for line in feature.geometry.lines {
                let points = line.compactMap(viewport.unwrappedPoint(for:))
                guard points.count >= 2 else { continue }
                linesByText[
                    text, default: ([], sortKey, TextSection.sections(of: symbol, properties: properties, zoom: zoom))
                ].lines.append(points)
            }
        }
        var candidates: [LabelCandidate] = []
        for text in order {
            // A label of images alone has nothing to set along a line with the installed fonts.
            guard let entry = linesByText[text], entry.sections.map({ !$0.isEmpty }) ?? true else { continue }
            let layout = TextLayout(text, font: font, in: cairo, sections: entry.sections)
            let size = layout.size
            let centers = layout.glyphCentersPoints
            for line in LineJoining.joined(entry.lines, quantum: 0.01) {
                // Wiggles smaller than a quarter of the text's height are smoothed away before
                // the turns are counted and the glyphs set (Douglas–Peucker on view points).
                let smoothed = Simplification.douglasPeucker(
                    line.map { MapPoint(x: $0.x, y: $0.y) }, tolerance: max(0.5, size.height / 4))
                let walk = Polyline(smoothed.map { ViewPoint(x: $0.x, y: $0.y) })
                guard walk.length >= size.width + 4 else { continue }
                let anchors: [Double]
                if placement == .lineCenter || walk.length < spacing {
                    anchors = [walk.length / 2]
                } else {
                    anchors = Array(stride(from: spacing / 2, through: walk.length - spacing / 4, by: spacing))
                }
                for distance in anchors {
                    guard
                        walk.turnsGently(
                            at: distance, labelLength: size.width, window: size.height, maximumAngle: maximumAngle),
                        let (anchor, curve) = TextCurve.along(
                            walk, at: distance, halfLengthPoints: size.width / 2, centers: centers)
                    else { continue }
                    var candidate = LabelCandidate(
                        layout: layout, center: anchor, priority: entry.priority.map { -$0 } ?? walk.length,
                        color: color, halo: halo, font: font,
                        maximumWidthPoints: .infinity, angle: curve.readingAngle)
                    candidate.curve = curve
                    candidates.append(candidate)
                }
            }
        }
        return candidates
    }
}

extension LabelCandidate {
    /// Icons along lines (`symbol-placement: line` or `line-center` with `icon-image`): arrows,
    /// one-way marks, shields, anchored as GL anchors them (`getAnchors`, `resample`).
    ///
    /// Along each of a feature's lines, at the tile zoom's scale: the first anchor half the
    /// label's length plus two ems in (the label's length taken as its icon's width, scaled by
    /// the text size at zoom 18 over GL's 24-point glyphs, as GL does), then one every
    /// `symbol-spacing` points (at least the label's length and a quarter more), each where the
    /// whole label fits on the line; a line with no such place gets one at its middle.
    /// `line-center` places once at the middle. The icon turns with the line (unless
    /// `icon-rotation-alignment` is `viewport`); text with it is centred on the anchor, turned
    /// to the line, never upside down.
    static func iconLineCandidates(
        of symbol: SymbolLayer, features: [PreparedFeature], viewport: Viewport, zoom: Double, font: FontSpec,
        color: Color,
        halo: TextHalo?, context: SymbolContext, cairo: OpaquePointer
    ) -> [LabelCandidate] {
        let collision = SymbolCollision(symbol, zoom: zoom)
        var candidates: [LabelCandidate] = []
        for feature in features where !feature.geometry.lines.isEmpty || !feature.geometry.polygons.isEmpty {
            let properties = feature.styleValues
            let text = symbol.label(for: properties, atZoom: zoom)
            let layout = text.map { TextLayout($0, font: font, in: cairo) }
            guard
                let probe = SymbolIcon.make(
                    for: symbol, properties: properties, zoom: zoom, images: context.images, lineAngle: 0,
                    viewport: viewport,
                    missing: &context.missingImages.value)
            else { continue }
            let sortKey = symbol.sortKey?.value(for: properties, zoom: zoom)
            // GL's shaped length: the wider of the text and the icon at its own size.
            let shapedLength = max(layout?.size.width ?? 0, probe.image.widthPoints)
            for (point, lineAngle) in lineAnchors(
                of: symbol, geometry: feature.geometry, shapedLengthPoints: shapedLength, viewport: viewport, zoom: zoom
            ) {
                let textBox = layout.map {
                    ViewRect(
                        x: -$0.size.width / 2, y: -$0.size.height / 2, width: $0.size.width, height: $0.size.height)
                }
                let icon = SymbolIcon.make(
                    for: symbol, properties: properties, zoom: zoom, images: context.images, lineAngle: lineAngle,
                    viewport: viewport, missing: &context.missingImages.value
                ).map { $0.fitted(toTextOf: symbol, textBox: textBox, properties: properties, zoom: zoom) }
                var textAngle = lineAngle
                if textAngle > .pi / 2 { textAngle -= .pi } else if textAngle <= -.pi / 2 { textAngle += .pi }
                // Text aligned with the viewport stands upright at the anchor (road shields).
                if symbol.textRotationAlignment.value(atZoom: zoom) == .viewport { textAngle = 0 }
                var candidate = LabelCandidate(
                    layout: layout, center: point, priority: sortKey.map { -$0 } ?? 0, color: color, halo: halo,
                    font: font,
                    maximumWidthPoints: .infinity, angle: textAngle, icon: icon)
                candidate.collision = collision
                candidate.featureOrder = candidates.count
                candidates.append(candidate)
            }
        }
        return candidates
    }

    /// The anchors GL puts a symbol at along a feature's lines and polygon rings (`getAnchors`):
    /// every `symbol-spacing` from an offset of half the label and 48 points (scaled by the text
    /// size at zoom 18 over 24), the label wholly on the line; the line's middle when the line is
    /// too short for that but not for the label; only the middle for `line-center`. Each with the
    /// line's direction there, in radians clockwise from the view's x axis.
    ///
    /// - Parameter shapedLengthPoints: The label's length along the line: the wider of its text
    ///   and its icon, in points at the size it is drawn.
    static func lineAnchors(
        of symbol: SymbolLayer, geometry: PreparedGeometry, shapedLengthPoints shapedLength: Double, viewport: Viewport,
        zoom: Double
    ) -> [(point: ViewPoint, angle: Double)] {
        let placement = symbol.placement.value(atZoom: zoom)
        // View points per point of the tile zoom GL lays symbols out at.
        let tileScale = exp2(zoom - zoom.rounded(.down))
        let textMaxSizeScale = symbol.textSize.value(atZoom: 18) / 24
        let labelLength = shapedLength * textMaxSizeScale
        var anchors: [(point: ViewPoint, angle: Double)] = []
        for points in geometry.labelLines(in: viewport) {
            let walk = Polyline(points)
            let length = walk.length / tileScale
            var distances: [Double]
            if placement == .lineCenter {
                distances = labelLength <= length ? [length / 2] : []
            } else {
                var spacing = symbol.spacing.value(atZoom: zoom)
                if spacing - labelLength < spacing / 4 { spacing = labelLength + spacing / 4 }
                let offset = (shapedLength / 2 + 48) * textMaxSizeScale
                let start = offset.truncatingRemainder(dividingBy: spacing)
                distances = Array(stride(from: start, through: length, by: spacing)).filter {
                    $0 - labelLength / 2 >= 0 && $0 + labelLength / 2 <= length && $0 < length
                }
                if distances.isEmpty, length / 2 - labelLength / 2 >= 0 { distances = [length / 2] }
            }
            for distance in distances {
                let (point, segment) = walk.point(at: distance * tileScale)
                let a = walk.points[segment]
                let b = walk.points[segment + 1]
                anchors.append((point, atan2(b.y - a.y, b.x - a.x)))
            }
        }
        return anchors
    }
}

/// A point of a plane: view points and map points alike.
protocol PlanarPoint {
    var x: Double { get }
    var y: Double { get }
}

extension ViewPoint: PlanarPoint {}
extension MapPoint: PlanarPoint {}

/// Lines joined end to start: pieces of one street, cut at tile edges, become one line again.
enum LineJoining {
    /// A point rounded to the joining quantum.
    struct JoinKey: Hashable { let x: Int64, y: Int64 }

    /// The lines, with every line that starts where another ends (within `quantum`) joined to
    /// it; lines meeting end to end or start to start are joined with one reversed.
    static func joined<Point: PlanarPoint>(_ lines: [[Point]], quantum: Double) -> [[Point]] {
        guard lines.count > 1 else { return lines }
        func key(_ point: Point) -> JoinKey {
            JoinKey(x: Int64((point.x / quantum).rounded()), y: Int64((point.y / quantum).rounded()))
        }
        var pieces: [[Point]?] = lines
        var byStart: [JoinKey: [Int]] = [:]
        var byEnd: [JoinKey: [Int]] = [:]
        for (index, line) in lines.enumerated() where !line.isEmpty {
            byStart[key(line[0]), default: []].append(index)
            byEnd[key(line[line.count - 1]), default: []].append(index)
        }
        func take(_ index: Int) -> [Point]? {
            guard let line = pieces[index], !line.isEmpty else { return nil }
            pieces[index] = nil
            byStart[key(line[0])]?.removeAll { $0 == index }
            byEnd[key(line[line.count - 1])]?.removeAll { $0 == index }
            return line
        }
        var result: [[Point]] = []
        for index in lines.indices {
            guard var line = take(index) else { continue }
            // Extend forward: a line starting at our end, else one ending there (reversed).
            while true {
                let end = key(line[line.count - 1])
                if let next = byStart[end]?.first, let piece = take(next) {
                    line += piece.dropFirst()
                } else if let next = byEnd[end]?.first, let piece = take(next) {
                    line += piece.reversed().dropFirst()
                } else {
                    break
                }
            }
            // And backward.
            while true {
                let start = key(line[0])
                if let previous = byEnd[start]?.first, let piece = take(previous) {
                    line = piece + line.dropFirst()
                } else if let previous = byStart[start]?.first, let piece = take(previous) {
                    line = piece.reversed() + line.dropFirst()
                } else {
                    break
                }
            }
            result.append(line)
        }
        return result
    }
}

/// A polyline in view points walked by distance.
struct Polyline {
    let points: [ViewPoint]
    /// Distance from the start to each point.
    let distances: [Double]

    init(_ points: [ViewPoint]) {
        self.points = points
        var distances = [0.0]
        for (a, b) in zip(points, points.dropFirst()) {
            distances.append(distances.last! + hypot(b.x - a.x, b.y - a.y))
        }
        self.distances = distances
    }

    var length: Double { distances.last ?? 0 }

    /// The point at `distance` along the line, and the index of the segment it lies on.
    func point(at distance: Double) -> (point: ViewPoint, segment: Int) {
        guard points.count > 1 else { return (points.first ?? ViewPoint(x: 0, y: 0), 0) }
        var segment = 0
        while segment < points.count - 2, distances[segment + 1] < distance { segment += 1 }
        let span = distances[segment + 1] - distances[segment]
        let t = span > 0 ? min(1, max(0, (distance - distances[segment]) / span)) : 0
        let a = points[segment]
        let b = points[segment + 1]
        return (ViewPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), segment)
    }

    /// The ends of the stretch from `start` to `end` when the line runs straight enough there:
    /// no vertex in between further than `tolerance` from the chord and no turn sharper than
    /// `maximumTurnRadians` between its segments; nil otherwise.
    func straightStretch(from start: Double, to end: Double, tolerance: Double, maximumTurnRadians: Double) -> (
        ViewPoint, ViewPoint
    )? {
        let (a, first) = point(at: start)
        let (b, last) = point(at: end)
        let chordX = b.x - a.x
        let chordY = b.y - a.y
        let chord = hypot(chordX, chordY)
        guard chord > 0, chord >= (end - start) * 0.9 else { return nil }
        var previousAngle: Double?
        var segmentStart = a
        for index in first...last {
            let vertex = index < last ? points[index + 1] : b
            let deviation = abs((vertex.x - a.x) * chordY - (vertex.y - a.y) * chordX) / chord
            guard deviation <= tolerance else { return nil }
            let dx = vertex.x - segmentStart.x
            let dy = vertex.y - segmentStart.y
            if hypot(dx, dy) > 1e-6 {
                let angle = atan2(dy, dx)
                if let previousAngle {
                    var turn = abs(angle - previousAngle)
                    if turn > .pi { turn = 2 * .pi - turn }
                    guard turn <= maximumTurnRadians else { return nil }
                }
                previousAngle = angle
            }
            segmentStart = vertex
        }
        return (a, b)
    }
}

extension PreparedGeometry {
    /// The lines a symbol layer places along, in view points, as GL takes them: each line, and
    /// each polygon ring, exterior rings running clockwise in the view and holes the other way
    /// (as vector tiles wind them).
    func labelLines(in viewport: Viewport) -> [[ViewPoint]] {
        var result: [[ViewPoint]] = []
        for line in lines {
            let points = line.compactMap(viewport.unwrappedPoint(for:))
            if points.count >= 2 { result.append(points) }
        }
        for polygon in polygons {
            for (index, ring) in polygon.enumerated() {
                var points = ring.compactMap(viewport.unwrappedPoint(for:))
                guard points.count >= 3 else { continue }
                let clockwise = LabelAnchor.signedArea(points) > 0
                if clockwise != (index == 0) { points.reverse() }
                result.append(points)
            }
        }
        return result
    }
}

extension PreparedFeature {
    /// The properties as the style's filters and text fields read them, with `$type` (`Point`,
    /// `LineString` or `Polygon`) as legacy filters and `["geometry-type"]` name it: the
    /// properties themselves when they hold it (a vector tile's features are given it once, when
    /// the tile is decoded: filters read it for every layer and window), else a copy with it.
    /// `$type` (`Point`, `LineString` or `Polygon`) when ``properties`` lack it, nil when they
    /// hold it: what a filter reads beside them (`Filter.evaluate(_:zoom:geometry:typeName:)`).
    var missingTypeName: String? {
        properties["$type"] == nil ? geometry.legacyTypeName : nil
    }

    var styleValues: [String: FeatureValue] {
        guard let type = missingTypeName else { return properties }
        var values = properties
        values["$type"] = .string(type)
        return values
    }
}
