import CCairo
import Foundation
import GeoData
import MapCore
import MapStyle

/// A label that wants a place: its text laid out, where it would sit, and how much it matters.
struct LabelCandidate {
    let layout: TextLayout
    /// The centre of the label, in view points.
    let center: ViewPoint
    /// Higher goes first: the feature's visible area in square points, or the style's sort key.
    let priority: Double
    let color: Color
    let halo: TextHalo?
    /// The font and wrapping width the text was laid out with, to lay it out again elsewhere.
    let font: FontSpec
    let maximumWidthPoints: Double
    /// The text's direction, in radians clockwise from the view's x axis, within (−π/2, π/2]:
    /// 0 for point labels; a street's direction for labels along lines, never upside down.
    var angle: Double = 0
    /// The boxes the label takes, for collisions: its frame when level; for a turned label,
    /// the boxes of a row of pieces along it (one box round a long diagonal label would take
    /// far more room than it does).
    var collisionBoxes: [ViewRect] {
        guard angle != 0 else { return [frame] }
        let size = layout.size
        let pieces = max(1, Int((size.width / max(size.height, 1)).rounded(.up)))
        let pieceWidth = size.width / Double(pieces)
        let cosine = cos(angle), sine = sin(angle)
        let boxWidth = pieceWidth * abs(cosine) + size.height * abs(sine)
        let boxHeight = pieceWidth * abs(sine) + size.height * abs(cosine)
        return (0..<pieces).map { piece in
            let along = (Double(piece) + 0.5) * pieceWidth - size.width / 2
            let middle = ViewPoint(x: center.x + along * cosine, y: center.y + along * sine)
            return ViewRect(x: middle.x - boxWidth / 2, y: middle.y - boxHeight / 2, width: boxWidth, height: boxHeight)
        }
    }

    /// The unturned frame, centred on ``center``.
    var frame: ViewRect {
        let size = layout.size
        return ViewRect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
    }

    /// The box round everything the label takes, turned or not.
    var bounds: ViewRect {
        let boxes = collisionBoxes
        return ViewRect(enclosing: boxes.flatMap { [$0.origin, ViewPoint(x: $0.maxX, y: $0.maxY)] }) ?? frame
    }

    /// Draws the label: its text centred on ``center``, turned by ``angle``.
    func draw(in cairo: OpaquePointer) {
        guard angle != 0 else {
            layout.draw(at: frame.origin, color: color, halo: halo)
            return
        }
        let size = layout.size
        cairo_save(cairo)
        cairo_translate(cairo, center.x, center.y)
        cairo_rotate(cairo, angle)
        layout.draw(at: ViewPoint(x: -size.width / 2, y: -size.height / 2), color: color, halo: halo)
        cairo_restore(cairo)
    }

    /// The labels a symbol layer asks for: one per feature with text and an anchor (its largest
    /// polygon's inside, or its first point) in the viewport, laid out in `cairo`.
    ///
    /// - Parameters:
    ///   - features: The layer's features, filtered: clipped to the view for an image, whole for
    ///     tiles (so a label's place and priority do not depend on the view).
    ///   - styleZoomLevel: The zoom level the style is evaluated at.
    static func candidates(
        of symbol: SymbolLayer, features: [PreparedFeature], viewport: Viewport, styleZoomLevel zoom: Double, cairo: OpaquePointer
    ) -> [LabelCandidate] {
        let size = symbol.textSize.value(atZoom: zoom)
        let font = FontSpec(styleFontName: symbol.textFont.value(atZoom: zoom).first ?? "DejaVu Sans Book", sizePoints: size)
        let maximumWidth = symbol.textMaxWidth.value(atZoom: zoom) * size
        let haloWidth = symbol.textHaloWidth.value(atZoom: zoom)
        let haloColor = symbol.textHaloColor.value(atZoom: zoom)
        let opacity = symbol.textOpacity.value(atZoom: zoom)
        let textColor = symbol.textColor.value(atZoom: zoom)
        let color = textColor.with(alpha: textColor.alpha * opacity)
        let halo = haloWidth > 0 ? TextHalo(color: haloColor.with(alpha: haloColor.alpha * opacity), widthPoints: haloWidth) : nil
        var candidates: [LabelCandidate] = []
        if symbol.placement.value(atZoom: zoom) != .point {
            return lineCandidates(
                of: symbol, features: features, viewport: viewport, zoom: zoom, font: font, color: color, halo: halo, cairo: cairo)
        }
        for feature in features {
            let properties = feature.styleValues
            guard let text = symbol.label(for: properties, atZoom: zoom), !text.isEmpty,
                  let anchor = LabelAnchor.anchor(for: feature.geometry, viewport: viewport)
            else { continue }
            let layout = TextLayout(text, font: font, in: cairo, maximumWidth: maximumWidth, wraps: true)
            // A label much wider than its area would float over its neighbours.
            guard anchor.areaPoints == 0 || anchor.areaPoints >= layout.size.width * layout.size.height * 0.25 else { continue }
            candidates.append(LabelCandidate(
                layout: layout,
                center: anchor.point,
                priority: symbol.sortKey?.value(for: properties, zoom: zoom).map { -$0 } ?? anchor.areaPoints,
                color: color,
                halo: halo,
                font: font,
                maximumWidthPoints: maximumWidth))
        }
        return candidates
    }
}

/// Places labels in priority order where they overlap neither each other nor what is already
/// taken (markers, the callout), and only where they fit inside the view.
struct LabelPlacer {
    /// Extra room kept free around each label, in points.
    var paddingPoints: Double = 4

    func place(_ candidates: [LabelCandidate], in viewSize: ViewSize, avoiding index: inout CollisionIndex) -> [LabelCandidate] {
        // Sort by priority, then by position, so equal priorities still place the same way every run.
        let ordered = candidates.sorted {
            if $0.priority != $1.priority { return $0.priority > $1.priority }
            if $0.center.y != $1.center.y { return $0.center.y < $1.center.y }
            return $0.center.x < $1.center.x
        }
        var placed: [LabelCandidate] = []
        for candidate in ordered {
            let boxes = candidate.collisionBoxes
            guard boxes.allSatisfy({ $0.minX >= 2 && $0.minY >= 2 && $0.maxX <= viewSize.width - 2 && $0.maxY <= viewSize.height - 2 })
            else { continue }
            let padded = boxes.map { ViewRect(
                x: $0.minX - paddingPoints, y: $0.minY - paddingPoints,
                width: $0.size.width + 2 * paddingPoints, height: $0.size.height + 2 * paddingPoints) }
            guard !padded.contains(where: { index.collides($0) }) else { continue }
            for box in padded { index.insert(box) }
            placed.append(candidate)
        }
        return placed
    }
}

/// Where a polygon feature's label goes: inside its largest visible part.
enum LabelAnchor {
    /// The anchor in view points and the visible area in square points of the feature's largest
    /// polygon; `nil` when nothing of it shows.
    static func anchor(for geometry: PreparedGeometry, viewport: Viewport) -> (point: ViewPoint, areaPoints: Double)? {
        var best: (ring: [ViewPoint], area: Double)?
        for polygon in geometry.polygons {
            guard let exterior = polygon.first else { continue }
            let ring = exterior.compactMap(viewport.unwrappedPoint(for:))
            let area = abs(signedArea(ring))
            if area > (best?.area ?? 0) { best = (ring, area) }
        }
        if let best {
            return (interiorPoint(of: best.ring), best.area)
        }
        if let point = geometry.points.first, let viewPoint = viewport.unwrappedPoint(for: point) {
            return (viewPoint, 0)
        }
        return nil
    }

    /// A point well inside a ring: its centroid when inside, else the middle of the widest
    /// inside run of the horizontal line through the centroid.
    static func interiorPoint(of ring: [ViewPoint]) -> ViewPoint {
        let centroid = self.centroid(of: ring)
        if contains(ring, centroid) { return centroid }
        var crossings: [Double] = []
        for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1)) where (a.y > centroid.y) != (b.y > centroid.y) {
            crossings.append(a.x + (centroid.y - a.y) / (b.y - a.y) * (b.x - a.x))
        }
        crossings.sort()
        var bestRun: (Double, Double)?
        for index in stride(from: 0, to: crossings.count - 1, by: 2) where crossings[index + 1] - crossings[index] > (bestRun.map { $0.1 - $0.0 } ?? -1) {
            bestRun = (crossings[index], crossings[index + 1])
        }
        guard let bestRun else { return centroid }
        return ViewPoint(x: (bestRun.0 + bestRun.1) / 2, y: centroid.y)
    }

    static func signedArea(_ ring: [ViewPoint]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1)) { sum += a.x * b.y - b.x * a.y }
        return sum / 2
    }

    static func centroid(of ring: [ViewPoint]) -> ViewPoint {
        let area = signedArea(ring)
        guard abs(area) > 1e-9 else {
            let count = Double(max(ring.count, 1))
            return ViewPoint(x: ring.map(\.x).reduce(0, +) / count, y: ring.map(\.y).reduce(0, +) / count)
        }
        var x = 0.0, y = 0.0
        for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1)) {
            let cross = a.x * b.y - b.x * a.y
            x += (a.x + b.x) * cross
            y += (a.y + b.y) * cross
        }
        return ViewPoint(x: x / (6 * area), y: y / (6 * area))
    }

    static func contains(_ ring: [ViewPoint], _ point: ViewPoint) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1))
        where (a.y > point.y) != (b.y > point.y) && point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside.toggle()
        }
        return inside
    }
}
