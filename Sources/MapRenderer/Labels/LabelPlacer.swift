import CCairo
import Foundation
import GeoData
import MapCore
import MapData
import MapStyle

/// A symbol that wants a place: its text laid out, its icon, where they would sit, and how much
/// it matters.
struct LabelCandidate {
    /// The text, laid out; nil for an icon alone.
    let layout: TextLayout?
    /// The symbol's anchor, where its text is centred and its icon laid out from, in view points.
    let center: ViewPoint
    /// Higher goes first: the feature's visible area in square points, or the style's sort key.
    let priority: Double
    let color: Color
    let halo: TextHalo?
    /// The font and wrapping width the text was laid out with, to lay it out again elsewhere.
    let font: FontSpec
    let maximumWidthPoints: Double
    /// The text's direction, in radians clockwise from the view's x axis, within (−π/2, π/2]:
    /// 0 for point labels; a street's direction for labels along lines, never upside down (for
    /// a label set along a curve, from its first glyph to its last).
    var angle: Double = 0
    /// The icon; nil for text alone.
    var icon: SymbolIcon?
    /// The text shaped from the style's SDF glyphs, as GL shapes it; nil when the text is laid
    /// out with the installed fonts (``layout``) or there is none.
    var shaped: ShapedText?
    /// For the installed fonts' text along a line, where each glyph sits (``angle`` is then the
    /// line's direction at the anchor); nil for text drawn whole.
    var curve: TextCurve?
    /// Where the installed fonts' text is centred, from ``center``: `text-anchor` and
    /// `text-offset` applied.
    var textOffset = ViewPoint(x: 0, y: 0)
    /// `text-translate` in view points, applied when drawing (not to collisions, as in GL).
    var textTranslation = ViewPoint(x: 0, y: 0)

    /// The symbol's place in its layer's list of candidates (its feature's order), for GL's
    /// draw order.
    var featureOrder = 0
    /// The same symbol with its text at the next anchors of `text-variable-anchor`, tried in
    /// turn when this one's text does not fit; empty without variable anchors.
    var alternatives: [LabelCandidate] = []

    /// Whether the symbol has text.
    var hasText: Bool { layout != nil || shaped != nil }
    /// How the text and the icon meet collisions.
    var collision = SymbolCollision()

    /// The boxes the text takes, for collisions (none without text): its frame when level; for
    /// a turned label, the boxes of a row of pieces along it (one box round a long diagonal
    /// label would take far more room than it does).
    var collisionBoxes: [ViewRect] {
        if let shaped { return shaped.collisionBoxes(at: center) }
        guard let layout else { return [] }
        if let curve { return curve.collisionBoxes(at: center, heightPoints: layout.size.height) }
        guard angle != 0 else { return [frame] }
        let size = layout.size
        let pieces = max(1, Int((size.width / max(size.height, 1)).rounded(.up)))
        let pieceWidth = size.width / Double(pieces)
        let cosine = cos(angle)
        let sine = sin(angle)
        let boxWidth = pieceWidth * abs(cosine) + size.height * abs(sine)
        let boxHeight = pieceWidth * abs(sine) + size.height * abs(cosine)
        return (0..<pieces).map { piece in
            let along = (Double(piece) + 0.5) * pieceWidth - size.width / 2
            let middle = ViewPoint(x: center.x + along * cosine, y: center.y + along * sine)
            return ViewRect(x: middle.x - boxWidth / 2, y: middle.y - boxHeight / 2, width: boxWidth, height: boxHeight)
        }
    }

    /// The text's unturned frame (empty at the anchor without text): the installed fonts'
    /// layout centred at ``center`` moved by ``textOffset``, or the shaped block's box.
    var frame: ViewRect {
        if let shaped {
            let box = shaped.collisionBox
            return ViewRect(
                x: center.x + box.minX, y: center.y + box.minY, width: box.size.width, height: box.size.height)
        }
        let size = layout?.size ?? ViewSize(width: 0, height: 0)
        return ViewRect(
            x: center.x + textOffset.x - size.width / 2, y: center.y + textOffset.y - size.height / 2,
            width: size.width, height: size.height)
    }

    /// The box round everything the symbol takes, turned or not: text and icon.
    var bounds: ViewRect {
        var corners = collisionBoxes.flatMap { [$0.origin, ViewPoint(x: $0.maxX, y: $0.maxY)] }
        if let shaped {
            let ink = shaped.inkBounds(at: center)
            corners += [ink.origin, ViewPoint(x: ink.maxX, y: ink.maxY)]
        }
        if let icon {
            let box = icon.bounds(at: center)
            corners += [box.origin, ViewPoint(x: box.maxX, y: box.maxY)]
        }
        return ViewRect(enclosing: corners) ?? frame
    }

    /// The candidate without its text, or without its icon (what collisions leave of it).
    func keeping(text keepsText: Bool, icon keepsIcon: Bool) -> LabelCandidate? {
        let text = keepsText ? layout : nil
        let shaped = keepsText ? self.shaped : nil
        let icon = keepsIcon ? self.icon : nil
        guard text != nil || shaped != nil || icon != nil else { return nil }
        var kept = LabelCandidate(
            layout: text, center: center, priority: priority, color: color, halo: halo, font: font,
            maximumWidthPoints: maximumWidthPoints, angle: angle, icon: icon, shaped: shaped, textOffset: textOffset)
        kept.collision = collision
        kept.curve = keepsText ? curve : nil
        kept.featureOrder = featureOrder
        kept.textTranslation = textTranslation
        return kept
    }

    /// Draws the icon, if any (a layer draws all its icons, then all its text, as GL does).
    func drawIcon(in cairo: OpaquePointer) {
        icon?.draw(at: center, in: cairo)
    }

    /// Draws the text, if any: centred on ``center``, turned by ``angle``.
    func drawText(in cairo: OpaquePointer) {
        if let shaped {
            shaped.draw(at: ViewPoint(x: center.x + textTranslation.x, y: center.y + textTranslation.y), in: cairo)
            return
        }
        guard let layout else { return }
        if let curve {
            layout.draw(
                along: curve, at: ViewPoint(x: center.x + textTranslation.x, y: center.y + textTranslation.y),
                color: color, halo: halo)
            return
        }
        guard angle != 0 else {
            layout.draw(
                at: ViewPoint(x: frame.minX + textTranslation.x, y: frame.minY + textTranslation.y), color: color,
                halo: halo)
            return
        }
        let size = layout.size
        cairo_save(cairo)
        cairo_translate(cairo, center.x + textTranslation.x, center.y + textTranslation.y)
        cairo_rotate(cairo, angle)
        layout.draw(at: ViewPoint(x: -size.width / 2, y: -size.height / 2), color: color, halo: halo)
        cairo_restore(cairo)
    }

    /// The symbols a symbol layer asks for, laid out in `cairo`: one per feature with text or an
    /// icon and an anchor in the viewport. Under ``MapwrightMetadata/Labels/Placement/insideView``
    /// a feature's anchor is inside its largest polygon, or its first point; under MapLibre's
    /// rules every point, every polygon's inside and every line's first point is one, as in GL.
    ///
    /// - Parameters:
    ///   - features: The layer's features, filtered: clipped to the view for an image, whole for
    ///     tiles (so a label's place and priority do not depend on the view).
    ///   - styleZoomLevel: The zoom level the style is evaluated at.
    ///   - context: The sprites' images and the placement rules.
    static func candidates(
        of symbol: SymbolLayer, features: [PreparedFeature], viewport: Viewport, styleZoomLevel zoom: Double,
        context: SymbolContext,
        cairo: OpaquePointer
    ) -> [LabelCandidate] {
        let size = symbol.textSize.value(atZoom: zoom)
        let font = FontSpec(fontStack: symbol.textFont.value(atZoom: zoom), sizePoints: size)
        let maximumWidth = symbol.textMaxWidth.value(atZoom: zoom) * size
        let haloWidth = symbol.textHaloWidth.value(atZoom: zoom)
        let haloColor = symbol.textHaloColor.value(atZoom: zoom)
        let opacity = symbol.textOpacity.value(atZoom: zoom)
        let textColor = symbol.textColor.value(atZoom: zoom)
        let color = textColor.with(alpha: textColor.alpha * opacity)
        let halo =
            haloWidth > 0
            ? TextHalo(color: haloColor.with(alpha: haloColor.alpha * opacity), widthPoints: haloWidth) : nil
        let collision = SymbolCollision(symbol, zoom: zoom)
        let isMapLibre = context.placement == .maplibre
        let fontStack = StyleGlyphs.fontStack(symbol.textFont.value(atZoom: zoom))
        let glyphs = context.glyphs.flatMap { $0.hasGlyphs(forFontStack: fontStack) ? $0 : nil }
        var candidates: [LabelCandidate] = []
        let placement = symbol.placement.value(atZoom: zoom)
        let textAlignment = symbol.textRotationAlignment.value(atZoom: zoom)
        // Text upright in the view at a line's anchors (road shields' numbers) is placed as at
        // points, at the anchors GL walks along the line; point text aligned with the map turns
        // with it.
        // symbol-avoid-edges: only placements (of each variable anchor) inside their anchor's tile.
        let avoidsEdges = symbol.avoidEdges.value(atZoom: zoom)
        let tileZoom = Int(zoom.rounded(.down))
        func avoidingEdges(_ candidates: [LabelCandidate]) -> [LabelCandidate] {
            guard avoidsEdges else { return candidates }
            return candidates.compactMap { candidate in
                let inside = ([candidate] + candidate.alternatives).filter {
                    $0.liesInsideItsTile(viewport: viewport, tileZoom: tileZoom)
                }
                guard var first = inside.first else { return nil }
                first.alternatives = Array(inside.dropFirst())
                return first
            }
        }
        let uprightAlongLines = placement != .point && symbol.textField != nil && textAlignment == .viewport
        let turnsWithMap = placement == .point && textAlignment == .map && viewport.camera.headingDegrees != 0
        if placement != .point, !uprightAlongLines {
            var features = features
            var fromGlyphs: [LabelCandidate] = []
            if let glyphs, symbol.textField != nil {
                // Labels in scripts glyphs cannot shape, or with characters the glyphs lack, go to the installed fonts.
                var simple: [PreparedFeature] = []
                var complex: [PreparedFeature] = []
                for feature in features {
                    if let text = symbol.label(for: feature.styleValues, atZoom: zoom),
                        glyphs.runs(
                            of: symbol, text: text, properties: feature.styleValues, zoom: zoom, fontStack: fontStack)
                            == nil
                    {
                        complex.append(feature)
                    } else {
                        simple.append(feature)
                    }
                }
                fromGlyphs = glyphLineCandidates(
                    of: symbol, features: simple, viewport: viewport, zoom: zoom, font: font, context: context,
                    glyphs: glyphs,
                    fontStack: fontStack)
                features = complex
                guard !features.isEmpty else { return avoidingEdges(fromGlyphs) }
            }
            if symbol.iconImage != nil {
                return avoidingEdges(fromGlyphs)
                    + avoidingEdges(
                        iconLineCandidates(
                            of: symbol, features: features, viewport: viewport, zoom: zoom, font: font, color: color,
                            halo: halo,
                            context: context, cairo: cairo))
            }
            return avoidingEdges(fromGlyphs)
                + avoidingEdges(
                    lineCandidates(
                        of: symbol, features: features, viewport: viewport, zoom: zoom, font: font, color: color,
                        halo: halo, cairo: cairo))
        }
        let headingDegrees = viewport.camera.headingDegrees
        for feature in features {
            let properties = feature.styleValues
            let text = symbol.label(for: properties, atZoom: zoom)
            var icon = SymbolIcon.make(
                for: symbol, properties: properties, zoom: zoom, images: context.images, lineAngle: nil,
                viewport: viewport,
                missing: &context.missingImages.value)
            guard text != nil || icon != nil else { continue }
            var anchors: [(point: ViewPoint, areaPoints: Double)] = []
            if uprightAlongLines {
                guard !feature.geometry.lines.isEmpty || !feature.geometry.polygons.isEmpty else { continue }
            } else if isMapLibre {
                anchors = LabelAnchor.anchors(for: feature.geometry, viewport: viewport)
            } else if let anchor = LabelAnchor.anchor(for: feature.geometry, viewport: viewport) {
                anchors = [anchor]
            }
            guard uprightAlongLines || !anchors.isEmpty else { continue }
            var layout: TextLayout?
            var shaped: ShapedText?
            var textOffset = ViewPoint(x: 0, y: 0)
            // text-variable-anchor: the text at each anchor in turn (the first here, the others
            // as the candidate's alternatives).
            let variants: [VariableAnchorOffset?] = {
                let variable =
                    placement == .point
                    ? LabelCandidate.variableAnchors(of: symbol, properties: properties, zoom: zoom) : []
                return variable.isEmpty ? [nil] : variable
            }()
            var textVariants: [(shaped: ShapedText?, textOffset: ViewPoint)] = []
            if let text,
                let runs = glyphs?.runs(
                    of: symbol, text: text, properties: properties, zoom: zoom, fontStack: fontStack, context: context)
            {
                textVariants = variants.map { variant in
                    (
                        ShapedText.shape(
                            symbol, runs: runs, properties: properties,
                            zoom: zoom, extraRotationDegrees: turnsWithMap ? -headingDegrees : 0, variant: variant),
                        ViewPoint(x: 0, y: 0)
                    )
                }
                // text-writing-mode: vertical writing tried in its turn, for text that has it.
                let modes = placement == .point ? symbol.textWritingMode.value(atZoom: zoom) : []
                if modes.contains(.vertical), ShapedText.allowsVerticalWriting(text),
                    let vertical = ShapedText.verticalAtPoint(
                        symbol, runs: runs, properties: properties, zoom: zoom,
                        extraRotationDegrees: turnsWithMap ? -headingDegrees : 0)
                {
                    let variant = (shaped: Optional(vertical), textOffset: ViewPoint(x: 0, y: 0))
                    if modes.first == .vertical {
                        textVariants = modes.contains(.horizontal) ? [variant] + textVariants : [variant]
                    } else {
                        textVariants.append(variant)
                    }
                }
                shaped = textVariants[0].shaped
                guard shaped != nil || icon != nil else { continue }
            } else if let text {
                let laidOut = TextLayout(
                    text, font: font, in: cairo, maximumWidth: maximumWidth, wraps: placement == .point,
                    sections: TextSection.sections(of: symbol, properties: properties, zoom: zoom, context: context))
                layout = laidOut
                // text-anchor and text-offset (in ems) move the installed fonts' text as GL moves its block.
                textVariants = variants.map { variant in
                    let anchor = variant?.anchor ?? symbol.textAnchor.value(atZoom: zoom, properties: properties)
                    let offset = variant?.offsetEms ?? symbol.textOffset.value(atZoom: zoom, properties: properties)
                    return (
                        nil,
                        ViewPoint(
                            x: offset.xPoints * size + (0.5 - anchor.horizontalAlignment) * laidOut.size.width,
                            y: offset.yPoints * size + (0.5 - anchor.verticalAlignment) * laidOut.size.height)
                    )
                }
                textOffset = textVariants[0].textOffset
            }
            // icon-text-fit: the icon stretched round the text block.
            let textBox =
                shaped?.blockBox
                ?? layout.map {
                    ViewRect(
                        x: textOffset.x - $0.size.width / 2, y: textOffset.y - $0.size.height / 2, width: $0.size.width,
                        height: $0.size.height)
                }
            icon = icon.map { $0.fitted(toTextOf: symbol, textBox: textBox, properties: properties, zoom: zoom) }
            let sortKey = symbol.sortKey?.value(for: properties, zoom: zoom)
            var lineAngles: [Double] = []
            if uprightAlongLines {
                // GL's shaped length: the wider of the text and the icon at its own size.
                let textLength = shaped.map { $0.collisionBox.size.width } ?? layout?.size.width ?? 0
                let along = LabelCandidate.lineAnchors(
                    of: symbol, geometry: feature.geometry,
                    shapedLengthPoints: max(textLength, icon?.image.widthPoints ?? 0),
                    viewport: viewport, zoom: zoom)
                anchors = along.map { ($0.point, 0) }
                lineAngles = along.map(\.angle)
            }
            for (index, anchor) in anchors.enumerated() {
                if uprightAlongLines, icon != nil {
                    icon = SymbolIcon.make(
                        for: symbol, properties: properties, zoom: zoom, images: context.images,
                        lineAngle: lineAngles[index],
                        viewport: viewport, missing: &context.missingImages.value
                    ).map { $0.fitted(toTextOf: symbol, textBox: textBox, properties: properties, zoom: zoom) }
                }
                if !isMapLibre, let layout {
                    // A label much wider than its area would float over its neighbours.
                    guard anchor.areaPoints == 0 || anchor.areaPoints >= layout.size.width * layout.size.height * 0.25
                    else { continue }
                }
                var candidate = LabelCandidate(
                    layout: layout,
                    center: anchor.point,
                    priority: sortKey.map { -$0 } ?? (isMapLibre ? 0 : anchor.areaPoints),
                    color: color,
                    halo: halo,
                    font: font,
                    maximumWidthPoints: maximumWidth,
                    icon: icon,
                    shaped: shaped,
                    textOffset: textOffset)
                if turnsWithMap, layout != nil { candidate.angle = -headingDegrees * .pi / 180 }
                candidate.collision = collision
                candidate.alternatives = textVariants.dropFirst().map { variant in
                    var alternative = candidate
                    alternative.shaped = variant.shaped
                    alternative.textOffset = variant.textOffset
                    return alternative
                }
                candidates.append(candidate)
            }
        }
        candidates = avoidingEdges(candidates)
        let translation = symbol.textTranslate.value(atZoom: zoom)
            .inView(
                anchor: symbol.textTranslateAnchor.value(atZoom: zoom), headingDegrees: viewport.camera.headingDegrees)
        for index in candidates.indices {
            candidates[index].featureOrder = index
            candidates[index].textTranslation = translation
            for alternative in candidates[index].alternatives.indices {
                candidates[index].alternatives[alternative].featureOrder = index
                candidates[index].alternatives[alternative].textTranslation = translation
            }
        }
        return candidates
    }

    /// A layer's placed symbols in the order GL draws them (`symbol-z-order`): by height in the
    /// view, lower over higher and later features under earlier ones at one height, when the
    /// layer's symbols may overlap and it has no sort key (or asks for `viewport-y`); else as
    /// placed.
    static func inDrawOrder(_ placed: [LabelCandidate], symbol: SymbolLayer, zoom: Double) -> [LabelCandidate] {
        let zOrder = symbol.zOrder.value(atZoom: zoom)
        let sortsByKey = zOrder != .viewportY && symbol.sortKey != nil
        let canOverlap =
            symbol.textAllowOverlap.value(atZoom: zoom) || symbol.iconAllowOverlap.value(atZoom: zoom)
            || symbol.textIgnorePlacement.value(atZoom: zoom) || symbol.iconIgnorePlacement.value(atZoom: zoom)
        guard zOrder == .viewportY || (zOrder == .auto && !sortsByKey && canOverlap) else { return placed }
        return placed.sorted {
            // GL compares anchors in tile units, 16 to the point at the tile's zoom.
            let a = Int(($0.center.y * 16).rounded())
            let b = Int(($1.center.y * 16).rounded())
            return a != b ? a < b : $0.featureOrder > $1.featureOrder
        }
    }
}

/// What symbol layout reads besides the layer: the sprites' images, the placement rules, and
/// the images found missing (for one warning after the render).
struct SymbolContext {
    let images: StyleImages
    let placement: MapwrightMetadata.Labels.Placement
    /// The style's local SDF glyphs, or nil: text is then laid out with the installed fonts.
    var glyphs: StyleGlyphs?
    /// Names of icons no sprite has, gathered while laying out.
    final class Missing { var value = Set<String>() }
    let missingImages = Missing()
}

/// How a symbol's text and icon meet collisions (MapLibre's `*-allow-overlap`,
/// `*-ignore-placement`, `*-optional` and `*-padding`).
struct SymbolCollision {
    var textAllowOverlap = false, textIgnorePlacement = false, textOptional = false
    var iconAllowOverlap = false, iconIgnorePlacement = false, iconOptional = false
    /// `text-padding`, in points.
    var textPaddingPoints = 2.0

    init() {}

    init(_ symbol: SymbolLayer, zoom: Double) {
        textAllowOverlap = symbol.textAllowOverlap.value(atZoom: zoom)
        textIgnorePlacement = symbol.textIgnorePlacement.value(atZoom: zoom)
        textOptional = symbol.textOptional.value(atZoom: zoom)
        iconAllowOverlap = symbol.iconAllowOverlap.value(atZoom: zoom)
        iconIgnorePlacement = symbol.iconIgnorePlacement.value(atZoom: zoom)
        iconOptional = symbol.iconOptional.value(atZoom: zoom)
        textPaddingPoints = symbol.textPadding.value(atZoom: zoom)
    }
}

/// Places symbols in priority order where they overlap neither each other nor what is already
/// taken (markers, the callout), by the style's placement rules.
struct LabelPlacer {
    /// Extra room kept free around each label, in points, under the inside-view rules.
    var paddingPoints: Double = 4
    /// The rules: MapLibre's, or a static map's (every label wholly inside the view).
    var placement: MapwrightMetadata.Labels.Placement = .insideView

    func place(_ candidates: [LabelCandidate], in viewSize: ViewSize, avoiding index: inout CollisionIndex)
        -> [LabelCandidate]
    {
        // Their indices sorted, not the candidates themselves (large values, moved at every
        // step of the sort: a tenth of a label-heavy render was copying them).
        let order: [Int]
        if placement == .maplibre {
            // The layer's order (its features', or by sort key), as GL places a bucket.
            order = candidates.indices.sorted { a, b in
                candidates[a].priority != candidates[b].priority
                    ? candidates[a].priority > candidates[b].priority : a < b
            }
        } else {
            // Sort by priority, then by position, so equal priorities still place the same way every run.
            order = candidates.indices.sorted { a, b in
                if candidates[a].priority != candidates[b].priority {
                    return candidates[a].priority > candidates[b].priority
                }
                if candidates[a].center.y != candidates[b].center.y {
                    return candidates[a].center.y < candidates[b].center.y
                }
                return candidates[a].center.x < candidates[b].center.x
            }
        }
        let ordered = order.lazy.map { candidates[$0] }
        let insideView = placement == .insideView
        func padded(_ box: ViewRect, by padding: Double) -> ViewRect {
            ViewRect(
                x: box.minX - padding, y: box.minY - padding, width: box.size.width + 2 * padding,
                height: box.size.height + 2 * padding)
        }
        /// Whether padded boxes are free, and (inside the view) their unpadded selves inside it.
        func fits(_ boxes: [ViewRect], padding: Double, allowOverlap: Bool) -> Bool {
            if insideView,
                !boxes.allSatisfy({
                    $0.minX + padding >= 2 && $0.minY + padding >= 2 && $0.maxX - padding <= viewSize.width - 2
                        && $0.maxY - padding <= viewSize.height - 2
                })
            {
                return false
            }
            return allowOverlap || !boxes.contains { index.collides($0) }
        }
        /// The padded boxes a symbol's text and icon take, with their paddings.
        func boxes(of candidate: LabelCandidate) -> (
            text: [ViewRect], textPadding: Double, icon: [ViewRect], iconPadding: Double
        ) {
            let textPadding = insideView ? paddingPoints : candidate.collision.textPaddingPoints
            let iconPadding = insideView ? paddingPoints : candidate.icon?.paddingPoints ?? 0
            return (
                candidate.collisionBoxes.map { padded($0, by: textPadding) }, textPadding,
                candidate.icon.map { icon in
                    [padded(icon.paddedBox(at: candidate.center), by: iconPadding - icon.paddingPoints)]
                } ?? [],
                iconPadding
            )
        }
        /// Whether `option`'s text and icon both fit where they are.
        func fitsWhole(_ option: LabelCandidate) -> Bool {
            let taken = boxes(of: option)
            return
                (!option.hasText
                || fits(taken.text, padding: taken.textPadding, allowOverlap: option.collision.textAllowOverlap))
                && (option.icon == nil
                    || fits(taken.icon, padding: taken.iconPadding, allowOverlap: option.collision.iconAllowOverlap))
        }
        var placed: [LabelCandidate] = []
        for first in ordered {
            // text-variable-anchor: the first anchor where the symbol fits whole, else what the
            // first anchor leaves (an optional icon alone), as GL tries its anchors.
            var candidate = first
            for option in first.alternatives.isEmpty ? [] : [first] + first.alternatives {
                if fitsWhole(option) {
                    candidate = option
                    break
                }
            }
            let collision = candidate.collision
            let (textBoxes, textPadding, iconBoxes, iconPadding) = boxes(of: candidate)
            let hasText = candidate.hasText
            let hasIcon = candidate.icon != nil
            var placeText = hasText && fits(textBoxes, padding: textPadding, allowOverlap: collision.textAllowOverlap)
            var placeIcon = hasIcon && fits(iconBoxes, padding: iconPadding, allowOverlap: collision.iconAllowOverlap)
            // GL: what may show without the other.
            let iconWithoutText = collision.textOptional || !hasText
            let textWithoutIcon = collision.iconOptional || !hasIcon
            if !iconWithoutText && !textWithoutIcon {
                placeText = placeText && placeIcon
                placeIcon = placeText
            } else if !textWithoutIcon {
                placeText = placeText && placeIcon
            } else if !iconWithoutText {
                placeIcon = placeText && placeIcon
            }
            if placeText && !collision.textIgnorePlacement { for box in textBoxes { index.insert(box) } }
            if placeIcon && !collision.iconIgnorePlacement { for box in iconBoxes { index.insert(box) } }
            if let kept = candidate.keeping(text: placeText, icon: placeIcon) { placed.append(kept) }
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

    /// Every anchor GL gives a feature at point placement, in view points, with its polygon's
    /// area: each point, each polygon's inside, each line's first point.
    static func anchors(for geometry: PreparedGeometry, viewport: Viewport) -> [(point: ViewPoint, areaPoints: Double)]
    {
        var anchors: [(point: ViewPoint, areaPoints: Double)] = []
        for point in geometry.points {
            if let viewPoint = viewport.unwrappedPoint(for: point) { anchors.append((viewPoint, 0)) }
        }
        for line in geometry.lines {
            if let first = line.first, let viewPoint = viewport.unwrappedPoint(for: first) {
                anchors.append((viewPoint, 0))
            }
        }
        for polygon in geometry.polygons {
            guard let exterior = polygon.first else { continue }
            let ring = exterior.compactMap(viewport.unwrappedPoint(for:))
            guard ring.count >= 3 else { continue }
            anchors.append((interiorPoint(of: ring), abs(signedArea(ring))))
        }
        return anchors
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
        for index in stride(from: 0, to: crossings.count - 1, by: 2)
        where crossings[index + 1] - crossings[index] > (bestRun.map { $0.1 - $0.0 } ?? -1) {
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
        var x = 0.0
        var y = 0.0
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
