import CCairo
import Foundation
import MapCore
import MapData
import MapJSON
import MapStyle
import VectorTiles

/// A label shaped from a style's SDF glyphs as GL shapes it (`shaping.ts`: `shapeText`,
/// `determineLineBreaks`, `shapeLines`, `justifyLine`, `align`; `quads.ts`: `getGlyphQuads`) and
/// drawn as its `symbol_sdf` shader draws glyphs.
///
/// Shaping works at GL's 24-point em: each glyph's advance plus `text-letter-spacing`, lines
/// broken where the raggedness is least for `text-max-width` (point labels only), each line
/// trimmed and justified, the block placed by `text-anchor` and moved by `text-offset`, lines
/// `text-line-height` apart. The result is scaled by `text-size / 24` round the anchor and turned
/// by `text-rotate`.
struct ShapedText: Hashable, Sendable {
    /// One glyph's quad: its SDF bitmap and the quad's top-left corner in em units (24 to the
    /// em) relative to the anchor, before scaling and turning.
    struct Quad: Hashable, Sendable {
        let glyph: GlyphRange.Glyph
        let x: Double, y: Double
        /// Its `format` section's `font-scale`: em units per bitmap pixel. The default is 1.
        var scale = 1.0
        /// Its section's `text-color`; nil for the layer's.
        var color: Color?
        /// Whether the glyph stands upright in vertical text: turned a quarter left round its
        /// place on the line (GL's `rotateVerticalGlyph`). The default is false.
        var isUpright = false
        /// The quad's side in em units: the bitmap and one pixel of padding all round.
        var width: Double { Double(glyph.width + 2 * GlyphRange.border + 2) * scale }
        var height: Double { Double(glyph.height + 2 * GlyphRange.border + 2) * scale }
        /// The glyph's centre along its line, in em units.
        var centerX: Double {
            x + (Double(GlyphRange.border + 1) - Double(glyph.left) + Double(glyph.advance) / 2) * scale
        }

        /// Where a point of the quad (`u`, `v` em units from its top-left corner) lies, in em
        /// units from the point the quad is set round, whose corner is at `x`, `y` from it.
        /// An upright glyph turns a quarter left as GL's `getGlyphQuads` turns it: round the
        /// middle of the left edge of its em box, then moved back onto its place.
        func point(u: Double, v: Double, cornerX x: Double, cornerY y: Double) -> ViewPoint {
            guard isUpright else { return ViewPoint(x: x + u, y: y + v) }
            return ViewPoint(x: y + v + 10 - Double(glyph.advance) * scale / 2, y: -(x + u))
        }

        /// The inverse of ``point(u:v:cornerX:cornerY:)``: the quad's `u`, `v` at a point.
        func quadCoordinates(of point: ViewPoint, cornerX x: Double, cornerY y: Double) -> (u: Double, v: Double) {
            guard isUpright else { return (point.x - x, point.y - y) }
            return (-point.y - x, point.x - 10 + Double(glyph.advance) * scale / 2 - y)
        }
    }

    /// A run of text shaped alike: a `format` section, or the whole label.
    struct Run {
        let text: String
        /// `font-scale`. The default is 1.
        var scale = 1.0
        /// `text-color`; nil for the layer's.
        var color: Color?
        /// The run's font stack's glyph for a code point, or nil.
        let glyph: (UInt32) -> GlyphRange.Glyph?
        /// For an image section (its text one object replacement character), the image.
        var image: StyleImage?
        /// `vertical-align`, as the share of the line's spare height above the run: 0 top, 0.5
        /// centre, 1 bottom. The default is 1 (GL's `bottom`: on the line's baseline).
        var verticalAlignment = 1.0

        /// An image section's run.
        static func image(_ image: StyleImage, scale: Double, verticalAlignment: Double = 1) -> Run {
            Run(
                text: "\u{FFFC}", scale: scale, color: nil, glyph: { _ in nil }, image: image,
                verticalAlignment: verticalAlignment)
        }

        /// The share of a line's spare height above a section for its `vertical-align` (GL's
        /// `getVerticalAlignFactor`): `top` 0, `center` 0.5, anything else 1.
        static func verticalAlignment(_ name: String?) -> Double {
            switch name {
            case "top": 0
            case "center": 0.5
            default: 1
            }
        }
    }

    /// An image inside the text (a `format` image section), laid out as GL lays it out: as wide
    /// as the image's points times 24 over the text size (so it keeps its own size), its bottom on
    /// the line's baseline.
    struct InlineImage: Hashable, Sendable {
        let image: StyleImage
        /// The image's top-left corner relative to the anchor, and its size, in em units.
        let x: Double, y: Double, width: Double, height: Double
        /// Its centre along its line, in em units.
        var centerX: Double { x + width / 2 }
    }

    /// The text, for tests and messages.
    let text: String
    var quads: [Quad]
    /// The images inside the text, drawn over the glyphs; empty for text alone.
    var images: [InlineImage] = []
    /// Along a line, where each image sits, as ``placements`` for the quads.
    var imagePlacements: [GlyphPlacement] = []
    /// The shaped block, relative to the anchor, in em units (before scaling).
    let box: ViewRect
    /// `text-size / 24`: view points per em unit.
    let scale: Double
    /// `text-rotate`, in radians clockwise (and a quarter more for vertical text at a point).
    var rotationRadians: Double
    let color: Color
    let haloColor: Color
    let haloWidthPoints: Double
    let haloBlurPoints: Double
    let opacity: Double
    /// For a label along a line, where each glyph sits, one per quad; empty for a label at a
    /// point (the quads then turn round the anchor together by ``rotationRadians``).
    var placements: [GlyphPlacement] = []

    /// One glyph set on a line: its centre from the anchor, its direction, and how far its
    /// centre lies along the shaped line (em units).
    struct GlyphPlacement: Hashable, Sendable {
        /// From the anchor, in view points.
        let offset: ViewPoint
        /// Clockwise, in radians.
        let angle: Double
        /// The glyph's centre along the shaped line, in em units.
        let centerX: Double
    }

    /// Where quad `index` is drawn: the point it turns round (from the anchor, view points), its
    /// angle, and its corner from that point in em units.
    private func frame(ofQuad index: Int) -> (origin: ViewPoint, angle: Double, x: Double, y: Double) {
        let quad = quads[index]
        guard !placements.isEmpty else { return (ViewPoint(x: 0, y: 0), rotationRadians, quad.x, quad.y) }
        let placement = placements[index]
        return (placement.offset, placement.angle, quad.x - placement.centerX, quad.y)
    }

    /// The corners of quad `index` relative to the anchor, in view points.
    private func corners(ofQuad index: Int) -> [ViewPoint] {
        let (origin, angle, x, y) = frame(ofQuad: index)
        let quad = quads[index]
        let cosine = cos(angle)
        let sine = sin(angle)
        return [(0.0, 0.0), (quad.width, 0), (quad.width, quad.height), (0, quad.height)].map { u, v in
            let local = quad.point(u: u, v: v, cornerX: x, cornerY: y)
            let px = local.x * scale
            let py = local.y * scale
            return ViewPoint(x: origin.x + px * cosine - py * sine, y: origin.y + px * sine + py * cosine)
        }
    }

    /// The boxes the text takes round `anchor`, for collisions, without padding: the block's
    /// box at a point; along a line, a square as tall as the block round each glyph's place on
    /// the line (GL's collision circles).
    func collisionBoxes(at anchor: ViewPoint) -> [ViewRect] {
        guard !placements.isEmpty else {
            let box = collisionBox
            return [
                ViewRect(x: anchor.x + box.minX, y: anchor.y + box.minY, width: box.size.width, height: box.size.height)
            ]
        }
        let radius = box.size.height * scale / 2
        return placements.map {
            ViewRect(
                x: anchor.x + $0.offset.x - radius, y: anchor.y + $0.offset.y - radius, width: 2 * radius,
                height: 2 * radius)
        }
    }

    /// The label set along `line` (view points) from `anchor` on its segment `segment`: each
    /// glyph at its distance along the line, turned to its segment, as GL's
    /// `placeGlyphAlongLine` sets it; flipped to read left to right when `keepsUpright`. Nil
    /// when a glyph would run off the line.
    ///
    /// `vertical` for text shaped vertically: flipped to read from the top instead.
    func alongLine(_ line: Polyline, anchor: ViewPoint, segment: Int, keepsUpright: Bool, vertical: Bool = false)
        -> ShapedText?
    {
        var flip = false
        if keepsUpright {
            guard let ends = ends(on: line, anchor: anchor, segment: segment) else { return nil }
            flip = vertical ? ends.first.y > ends.last.y : ends.first.x > ends.last.x
        }
        func placement(_ centerX: Double) -> GlyphPlacement? {
            guard let (point, angle) = Self.place(centerX * scale, on: line, from: anchor, segment: segment, flip: flip)
            else { return nil }
            return GlyphPlacement(
                offset: ViewPoint(x: point.x - anchor.x, y: point.y - anchor.y), angle: angle, centerX: centerX)
        }
        var placed: [GlyphPlacement] = []
        var placedImages: [GlyphPlacement] = []
        for quad in quads {
            guard let glyph = placement(quad.centerX) else { return nil }
            placed.append(glyph)
        }
        for image in images {
            guard let glyph = placement(image.centerX) else { return nil }
            placedImages.append(glyph)
        }
        var result = self
        result.placements = placed
        result.imagePlacements = placedImages
        return result
    }

    /// Where a glyph `offsetX` view points along `line` from `anchor` (on segment `segment`)
    /// sits, and its direction, as GL's `placeGlyphAlongLine` walks the line (backwards when
    /// `flip`); nil when it would run off the line.
    private static func place(
        _ offsetX: Double, on line: Polyline, from anchor: ViewPoint, segment: Int, flip: Bool
    ) -> (point: ViewPoint, angle: Double)? {
        let points = line.points
        var direction = offsetX > 0 ? 1 : -1
        var angle = 0.0
        if flip {
            direction = -direction
            angle = .pi
        }
        if direction < 0 { angle += .pi }
        var index = direction > 0 ? segment : segment + 1
        var current = anchor
        var previous = anchor
        var distanceToPrevious = 0.0
        var segmentLength = 0.0
        let distance = abs(offsetX)
        while distanceToPrevious + segmentLength <= distance {
            index += direction
            guard index >= 0, index < points.count else { return nil }
            distanceToPrevious += segmentLength
            previous = current
            current = points[index]
            segmentLength = hypot(current.x - previous.x, current.y - previous.y)
        }
        let t = (distance - distanceToPrevious) / segmentLength
        let point = ViewPoint(
            x: previous.x + (current.x - previous.x) * t, y: previous.y + (current.y - previous.y) * t)
        return (point, angle + atan2(current.y - previous.y, current.x - previous.x))
    }

    /// Whether the label set along `line` from `anchor` runs steeper than flat (GL's
    /// `requiresOrientationChange`: its first and last glyphs rise more than they run), where GL
    /// writes it vertically when it can; nil when a glyph would run off the line.
    func isSteep(on line: Polyline, anchor: ViewPoint, segment: Int) -> Bool? {
        guard let ends = ends(on: line, anchor: anchor, segment: segment) else { return nil }
        return abs(ends.last.y - ends.first.y) > abs(ends.last.x - ends.first.x)
    }

    /// The points that decide the label's direction, unflipped: its first and last glyphs'
    /// places, or for one glyph the anchor and the end of its segment. Nil when a glyph would
    /// run off the line.
    private func ends(on line: Polyline, anchor: ViewPoint, segment: Int) -> (first: ViewPoint, last: ViewPoint)? {
        guard let first = quads.first, let last = quads.last else { return nil }
        guard quads.count > 1 else { return (anchor, line.points[segment + 1]) }
        guard let a = Self.place(first.centerX * scale, on: line, from: anchor, segment: segment, flip: false),
            let b = Self.place(last.centerX * scale, on: line, from: anchor, segment: segment, flip: false)
        else { return nil }
        return (a.point, b.point)
    }

    /// GL's shaping constants: the em, the baseline's offset from a line's top, a glyph's
    /// border plus its padding in the atlas.
    static let em = 24.0
    static let baselineOffset = -17.0
    static let quadInset = Double(GlyphRange.border + 1)

    /// The block's box round the anchor in view points, unturned: what `icon-text-fit` fits to.
    var blockBox: ViewRect {
        ViewRect(
            x: box.minX * scale, y: box.minY * scale, width: box.size.width * scale, height: box.size.height * scale)
    }

    /// The block's box round the anchor in view points, turned by ``rotationRadians`` (GL's
    /// collision box: the turned corners' bounds), without padding.
    var collisionBox: ViewRect {
        let scaled = blockBox
        guard rotationRadians != 0 else { return scaled }
        return ViewRect(enclosing: Self.corners(of: scaled).map { rotated($0) }) ?? scaled
    }

    private static func corners(of rect: ViewRect) -> [ViewPoint] {
        [
            ViewPoint(x: rect.minX, y: rect.minY), ViewPoint(x: rect.maxX, y: rect.minY),
            ViewPoint(x: rect.maxX, y: rect.maxY), ViewPoint(x: rect.minX, y: rect.maxY),
        ]
    }

    private func rotated(_ point: ViewPoint) -> ViewPoint {
        let cosine = cos(rotationRadians)
        let sine = sin(rotationRadians)
        return ViewPoint(x: point.x * cosine - point.y * sine, y: point.x * sine + point.y * cosine)
    }

    /// The box round every glyph's quad at `anchor`, in view points.
    func inkBounds(at anchor: ViewPoint) -> ViewRect {
        let glyphs = quads.indices.flatMap { index in
            corners(ofQuad: index).map { ViewPoint(x: anchor.x + $0.x, y: anchor.y + $0.y) }
        }
        let images = imageIcons(at: anchor).flatMap { image in
            let box = image.icon.bounds(at: image.anchor)
            return [box.origin, ViewPoint(x: box.maxX, y: box.maxY)]
        }
        return ViewRect(enclosing: glyphs + images) ?? ViewRect(x: anchor.x, y: anchor.y, width: 0, height: 0)
    }

    /// The images inside the text as icons drawn at their anchors: round the label's anchor,
    /// turned with it, at a point; each at its place along a line.
    private func imageIcons(at anchor: ViewPoint) -> [(icon: SymbolIcon, anchor: ViewPoint)] {
        images.indices.compactMap { index in
            let image = images[index]
            var origin = anchor
            var left = image.x
            var angle = rotationRadians
            if !placements.isEmpty {
                guard index < imagePlacements.count else { return nil }
                let placement = imagePlacements[index]
                origin = ViewPoint(x: anchor.x + placement.offset.x, y: anchor.y + placement.offset.y)
                left = image.x - placement.centerX
                angle = placement.angle
            }
            let quad = ViewRect(
                x: left * scale, y: image.y * scale, width: image.width * scale, height: image.height * scale)
            let icon = SymbolIcon(
                name: "", image: image.image, quad: quad, rotationRadians: angle, box: quad, paddingPoints: 0,
                opacity: opacity,
                isLinear: true, sdf: nil, translation: ViewPoint(x: 0, y: 0))
            return (icon, origin)
        }
    }

    // MARK: - Shaping

    /// Shapes `text` with `glyphs`; nil when no character has a glyph with ink.
    ///
    /// - Parameters:
    ///   - glyph: The font stack's glyph for a code point, or nil (the character is skipped,
    ///     as GL skips it).
    ///   - maximumWidthEms: `text-max-width`; infinite for labels along lines.
    static func shape(
        _ text: String, glyph: @escaping (UInt32) -> GlyphRange.Glyph?, maximumWidthEms: Double, lineHeightEms: Double,
        letterSpacingEms: Double,
        anchor: SymbolAnchor, justify: TextJustify, offsetEms: Translation, sizePoints: Double, rotationDegrees: Double,
        color: Color, haloColor: Color, haloWidthPoints: Double, haloBlurPoints: Double, opacity: Double
    ) -> ShapedText? {
        shape(
            [Run(text: text, glyph: glyph)], maximumWidthEms: maximumWidthEms, lineHeightEms: lineHeightEms,
            letterSpacingEms: letterSpacingEms,
            anchor: anchor, justify: justify, offsetEms: offsetEms, sizePoints: sizePoints,
            rotationDegrees: rotationDegrees, color: color,
            haloColor: haloColor, haloWidthPoints: haloWidthPoints, haloBlurPoints: haloBlurPoints, opacity: opacity)
    }

    /// Shapes runs of text (`format` sections), each with its own glyphs, scale and colour, as
    /// GL's `shapeLines` does: a glyph advances by its advance times its run's scale; every line
    /// is as tall as the line height times its largest scale, its glyphs set on one baseline (a
    /// smaller glyph lowered by the difference). Nil when no character has a glyph with ink.
    ///
    /// `writesVertically` shapes the text for a steep line (GL's vertical writing mode along lines):
    /// a character that stands upright in vertical text advances by one em (times its scale) and
    /// its quad is marked upright; with `everyCharacterUpright` (vertical text at a point), every
    /// character but whitespace does.
    static func shape(
        _ runs: [Run], maximumWidthEms: Double, lineHeightEms: Double, letterSpacingEms: Double,
        anchor: SymbolAnchor, justify: TextJustify, offsetEms: Translation, sizePoints: Double, rotationDegrees: Double,
        color: Color, haloColor: Color, haloWidthPoints: Double, haloBlurPoints: Double, opacity: Double,
        writesVertically: Bool = false,
        everyCharacterUpright: Bool = false
    ) -> ShapedText? {
        // Every character with its run.
        let characters = runs.indices.flatMap { run in
            runs[run].text.unicodeScalars.map { (codePoint: $0.value, run: run) }
        }
        let spacing = letterSpacingEms * em
        let lineHeight = lineHeightEms * em
        func glyph(_ character: (codePoint: UInt32, run: Int)) -> GlyphRange.Glyph? {
            runs[character.run].glyph(character.codePoint)
        }
        // An image's size in em units: its points times 24 over the text size (GL's image scale).
        func imageSize(_ run: Int) -> (width: Double, height: Double)? {
            runs[run].image.map {
                (
                    $0.widthPoints * em / sizePoints * runs[run].scale,
                    $0.heightPoints * em / sizePoints * runs[run].scale
                )
            }
        }
        func advance(_ character: (codePoint: UInt32, run: Int)) -> Double {
            if let size = imageSize(character.run) { return size.width + spacing }
            guard let glyph = glyph(character) else { return 0 }
            return Double(glyph.advance) * runs[character.run].scale + spacing
        }
        let breaks = lineBreaks(
            characters.map(\.codePoint), advance: { advance(characters[$0]) }, maximumWidth: maximumWidthEms * em)
        var lines: [ArraySlice<(codePoint: UInt32, run: Int)>] = []
        var start = 0
        for end in breaks {
            lines.append(trimmed(characters[start..<min(end, characters.count)]))
            start = end
        }
        let justification: Double
        switch justify == .auto
            ? (anchor.horizontalAlignment == 0 ? .left : anchor.horizontalAlignment == 1 ? .right : .center) : justify
        {
        case .left: justification = 0
        case .right: justification = 1
        default: justification = 0.5
        }
        var positioned: [(glyph: GlyphRange.Glyph, x: Double, y: Double, run: Int, upright: Bool)] = []
        var placedImages: [(x: Double, y: Double, run: Int, line: Int)] = []
        var y = baselineOffset
        var maximumLineLength = 0.0
        var lineIndex = 0
        for line in lines {
            guard !line.isEmpty else {
                y += lineHeight
                lineIndex += 1
                continue
            }
            let lineScale = line.filter { runs[$0.run].image == nil }.map { runs[$0.run].scale }.max() ?? 1
            // The line's content height (GL's lineContentHeight): its largest glyphs' em or its
            // tallest image. A section's `vertical-align` sets how much of the spare height lies
            // above it; at the bottom (the default) a glyph sits on the baseline of the line's
            // largest glyphs and an image's bottom on it too.
            let contentHeight = max(lineScale * em, line.compactMap { imageSize($0.run)?.height }.max() ?? 0)
            func lowered(_ height: Double, run: Int) -> Double {
                lineScale * em - contentHeight + (contentHeight - height) * runs[run].verticalAlignment
            }
            var x = 0.0
            let lineStart = positioned.count
            let imageStart = placedImages.count
            // An image taller than the line pushes the next line down (GL's lineOffset).
            var imageOverhang = 0.0
            for character in line {
                if let size = imageSize(character.run) {
                    // Its bottom on the baseline, lowered with the line's largest scale as glyphs
                    // are (GL's maxLineOffset, imageOffset and glyph border).
                    let top = y + lowered(size.height, run: character.run) + Double(GlyphRange.border) * em / sizePoints
                    placedImages.append((x, top, character.run, lineIndex))
                    imageOverhang = max(imageOverhang, size.height - em * lineScale)
                    x += size.width + spacing
                    continue
                }
                guard let glyph = glyph(character) else { continue }
                let scale = runs[character.run].scale
                let upright =
                    writesVertically
                    && (everyCharacterUpright
                        ? !whitespace.contains(character.codePoint) : isUprightInVerticalText(character.codePoint))
                // Laid out at 24 points: a smaller glyph's baseline moves down by the difference.
                positioned.append((glyph, x, y + lowered(scale * em, run: character.run), character.run, upright))
                x += (upright ? em : Double(glyph.advance)) * scale + spacing
            }
            if positioned.count > lineStart || placedImages.count > imageStart {
                maximumLineLength = max(maximumLineLength, x - spacing)
                // justifyLine: the line's end at the justification's share of its length.
                let indent = (x - spacing) * justification
                for index in lineStart..<positioned.count { positioned[index].x -= indent }
                for index in imageStart..<placedImages.count { placedImages[index].x -= indent }
            }
            y += lineHeight * lineScale + imageOverhang
            lineIndex += 1
        }
        let height = y - baselineOffset
        let horizontal = anchor.horizontalAlignment
        let vertical = anchor.verticalAlignment
        let shiftX = (justification - horizontal) * maximumLineLength
        // align: by the lines' count times the line height, whatever their scales (as the GL
        // suite's renders of mixed-scale sections are aligned).
        let shiftY = (-vertical * Double(lines.count) + 0.5) * lineHeight
        let offset = (x: offsetEms.xPoints * em, y: offsetEms.yPoints * em)
        var quads: [Quad] = []
        for item in positioned where !item.glyph.bitmap.isEmpty {
            let scale = runs[item.run].scale
            quads.append(
                Quad(
                    glyph: item.glyph,
                    x: item.x + shiftX + (Double(item.glyph.left) - quadInset) * scale + offset.x,
                    y: item.y + shiftY - (Double(item.glyph.top) + quadInset) * scale + offset.y,
                    scale: scale, color: runs[item.run].color, isUpright: item.upright))
        }
        let images = placedImages.compactMap { item -> InlineImage? in
            guard let image = runs[item.run].image, let size = imageSize(item.run) else { return nil }
            return InlineImage(
                image: image, x: item.x + shiftX + offset.x, y: item.y + shiftY + offset.y, width: size.width,
                height: size.height)
        }
        guard !quads.isEmpty || !images.isEmpty else { return nil }
        let box = ViewRect(
            x: offset.x - horizontal * maximumLineLength, y: offset.y - vertical * height, width: maximumLineLength,
            height: height)
        return ShapedText(
            text: runs.map(\.text).joined(), quads: quads, images: images, box: box, scale: sizePoints / em,
            rotationRadians: rotationDegrees * .pi / 180, color: color, haloColor: haloColor,
            haloWidthPoints: haloWidthPoints,
            haloBlurPoints: haloBlurPoints, opacity: opacity)
    }

    /// A symbol layer's text for a feature, shaped with its properties at `zoom`; nil when no
    /// character has a glyph with ink.
    ///
    /// With `variant` (a `text-variable-anchor` option) its anchor and offset replace the
    /// layer's `text-anchor` and `text-offset`; `text-justify: auto` then follows its anchor.
    static func shape(
        _ symbol: SymbolLayer, text: String, properties: [String: FeatureValue], zoom: Double,
        extraRotationDegrees: Double = 0,
        variant: VariableAnchorOffset? = nil, glyph: @escaping (UInt32) -> GlyphRange.Glyph?
    ) -> ShapedText? {
        shape(
            symbol, runs: [Run(text: text, glyph: glyph)], properties: properties, zoom: zoom,
            extraRotationDegrees: extraRotationDegrees,
            variant: variant)
    }

    /// A symbol layer's text for a feature in runs (`format` sections), shaped as
    /// ``shape(_:text:properties:zoom:extraRotationDegrees:variant:glyph:)`` shapes one;
    /// `writesVertically` shapes it for a steep line, its punctuation in vertical forms.
    static func shape(
        _ symbol: SymbolLayer, runs: [Run], properties: [String: FeatureValue], zoom: Double,
        extraRotationDegrees: Double = 0,
        variant: VariableAnchorOffset? = nil, writesVertically: Bool = false, atPoint: Bool = false
    ) -> ShapedText? {
        let isPoint = symbol.placement.value(atZoom: zoom) == .point
        let runs =
            !writesVertically
            ? runs
            : runs.map {
                Run(
                    text: verticalizingPunctuation($0.text), scale: $0.scale, color: $0.color, glyph: $0.glyph,
                    image: $0.image)
            }
        return shape(
            runs,
            maximumWidthEms: isPoint ? symbol.textMaxWidth.value(atZoom: zoom, properties: properties) : .infinity,
            lineHeightEms: symbol.textLineHeight.value(atZoom: zoom),
            letterSpacingEms: symbol.textLetterSpacing.value(atZoom: zoom, properties: properties),
            anchor: variant?.anchor ?? symbol.textAnchor.value(atZoom: zoom, properties: properties),
            // Vertical text at a point is justified left, so its columns start level (as MapLibre Native does).
            justify: writesVertically && atPoint
                ? .left : symbol.textJustify.value(atZoom: zoom, properties: properties),
            offsetEms: variant?.offsetEms ?? symbol.textOffset.value(atZoom: zoom, properties: properties),
            sizePoints: symbol.textSize.value(atZoom: zoom, properties: properties),
            rotationDegrees: symbol.textRotate.value(atZoom: zoom, properties: properties) + extraRotationDegrees,
            color: symbol.textColor.value(atZoom: zoom, properties: properties),
            haloColor: symbol.textHaloColor.value(atZoom: zoom, properties: properties),
            haloWidthPoints: symbol.textHaloWidth.value(atZoom: zoom, properties: properties),
            haloBlurPoints: symbol.textHaloBlur.value(atZoom: zoom, properties: properties),
            opacity: symbol.textOpacity.value(atZoom: zoom, properties: properties), writesVertically: writesVertically,
            everyCharacterUpright: writesVertically && atPoint)
    }

    /// The text written vertically at a point (`text-writing-mode: vertical`) as GL writes it:
    /// shaped in lines with every character upright and one em apart, then the block turned a
    /// quarter right round the anchor, so each line becomes a column read from the top, the first
    /// on the right, its characters standing upright. Nil when no character has a glyph with ink.
    static func verticalAtPoint(
        _ symbol: SymbolLayer, runs: [Run], properties: [String: FeatureValue], zoom: Double,
        extraRotationDegrees: Double = 0
    ) -> ShapedText? {
        guard
            var shaped = shape(
                symbol, runs: runs, properties: properties, zoom: zoom, extraRotationDegrees: extraRotationDegrees,
                writesVertically: true,
                atPoint: true)
        else { return nil }
        // GL turns each upright glyph a quarter left round the middle of its em box's left
        // edge, then moves it to its pen position: here, the corner from which
        // ``Quad/point(u:v:cornerX:cornerY:)`` lands it there (17 is the baseline's offset).
        shaped.quads = shaped.quads.map { quad in
            guard quad.isUpright else { return quad }
            let relativeX = quad.x - quad.centerX
            let relativeY = -(Double(quad.glyph.top) + quadInset) * quad.scale
            let line = quad.y - relativeY - baselineOffset
            var moved = Quad(
                glyph: quad.glyph, x: relativeX - line, y: relativeY + baselineOffset + quad.centerX, scale: quad.scale,
                color: quad.color)
            moved.isUpright = true
            return moved
        }
        shaped.rotationRadians += .pi / 2
        return shaped
    }

    /// Whether `text` holds a script that glyph-by-glyph shaping cannot draw: right to left
    /// (Hebrew, Arabic, Syriac, Thaana, N'Ko) or with joined and reordered letters (the Indic
    /// scripts, Thai, Lao, Tibetan, Myanmar, Khmer, Mongolian). GL leaves such labels out (or
    /// needs its RTL plugin); Mapwright draws them with the installed fonts, which Pango and
    /// HarfBuzz shape, so every script reads.
    static func needsComplexShaping(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0590...0x08FF, 0x0900...0x0DFF, 0x0E00...0x0FFF, 0x1000...0x109F, 0x1780...0x18AF, 0xFB1D...0xFDFF,
                0xFE70...0xFEFF:
                return true
            default:
                return false
            }
        }
    }

    /// GL's whitespace, trimmed from each line's ends.
    private static let whitespace: Set<UInt32> = [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20]
    /// Where GL may break a line: after these.
    private static let breakable: Set<UInt32> = [
        0x0A, 0x20, 0x26, 0x28, 0x29, 0x2B, 0x2D, 0x2F, 0xAD, 0xB7, 0x200B, 0x2010, 0x2013, 0x2027,
    ]

    private static func trimmed(_ line: ArraySlice<(codePoint: UInt32, run: Int)>) -> ArraySlice<
        (codePoint: UInt32, run: Int)
    > {
        var line = line
        while let first = line.first, whitespace.contains(first.codePoint) { line = line.dropFirst() }
        while let last = line.last, whitespace.contains(last.codePoint) { line = line.dropLast() }
        return line
    }

    /// Whether GL breaks between ideographs at this character (CJK and the like).
    private static func allowsIdeographicBreaking(_ codePoint: UInt32) -> Bool {
        switch codePoint {
        case 0x2E80...0x2FDF, 0x2FF0...0x303F, 0x3040...0x309F, 0x30A0...0x30FF, 0x3100...0x312F, 0x3190...0x31BF,
            0x31C0...0x31EF,
            0x31F0...0x31FF, 0x3200...0x32FF, 0x3300...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFFEF:
            return true
        default:
            return false
        }
    }

    /// The indices where lines start after the first, and the text's end: GL's
    /// `determineLineBreaks`, the breaks with the least raggedness against the average line of
    /// `ceil(total / maximumWidth)` lines. No breaks without a finite maximum width.
    private static func lineBreaks(_ characters: [UInt32], advance: (Int) -> Double, maximumWidth: Double) -> [Int] {
        guard maximumWidth.isFinite, maximumWidth > 0, !characters.isEmpty else { return [characters.count] }
        final class Break {
            let index: Int, x: Double, badness: Double
            let prior: Break?
            init(index: Int, x: Double, badness: Double, prior: Break?) {
                self.index = index
                self.x = x
                self.badness = badness
                self.prior = prior
            }
        }
        let total = characters.indices.reduce(0) { $0 + advance($1) }
        let lineCount = max(1, (total / maximumWidth).rounded(.up))
        let target = total / lineCount
        let hasZeroWidthSpaces = characters.contains(0x200B)
        func badness(_ width: Double, penalty: Double, isLast: Bool) -> Double {
            let raggedness = (width - target) * (width - target)
            if isLast { return width < target ? raggedness / 2 : raggedness * 2 }
            return raggedness + abs(penalty) * penalty
        }
        func evaluate(_ index: Int, _ x: Double, _ potential: [Break], penalty: Double, isLast: Bool) -> Break {
            var bestPrior: Break?
            var best = badness(x, penalty: penalty, isLast: isLast)
            for prior in potential {
                let value = badness(x - prior.x, penalty: penalty, isLast: isLast) + prior.badness
                if value <= best {
                    bestPrior = prior
                    best = value
                }
            }
            return Break(index: index, x: x, badness: best, prior: bestPrior)
        }
        var potential: [Break] = []
        var x = 0.0
        for (index, codePoint) in characters.enumerated() {
            if !whitespace.contains(codePoint) { x += advance(index) }
            guard index < characters.count - 1 else { continue }
            let ideographic = allowsIdeographicBreaking(codePoint)
            if breakable.contains(codePoint) || ideographic {
                let next = characters[index + 1]
                var penalty = 0.0
                if codePoint == 0x0A { penalty -= 10_000 }
                if ideographic && hasZeroWidthSpaces { penalty += 150 }
                if codePoint == 0x28 || codePoint == 0xFF08 { penalty += 50 }
                if next == 0x29 || next == 0xFF09 { penalty += 50 }
                potential.append(evaluate(index + 1, x, potential, penalty: penalty, isLast: false))
            }
        }
        var indices: [Int] = []
        var current: Break? = evaluate(characters.count, x, potential, penalty: 0, isLast: true)
        while let item = current {
            indices.append(item.index)
            current = item.prior
        }
        return indices.reversed()
    }

    // MARK: - Drawing

    /// Draws the glyphs at `anchor` (view points) into `cairo`: every glyph's halo, then every
    /// glyph's fill, sampled per device pixel as GL's SDF shader samples its glyph atlas.
    func draw(at anchor: ViewPoint, in cairo: OpaquePointer) {
        guard opacity > 0 else { return }
        drawGlyphs(at: anchor, in: cairo)
        for (icon, origin) in imageIcons(at: anchor) { icon.draw(at: origin, in: cairo) }
    }

    private func drawGlyphs(at anchor: ViewPoint, in cairo: OpaquePointer) {
        guard !quads.isEmpty else { return }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        let deviceScale = matrix.xx
        guard deviceScale > 0, matrix.xy == 0, matrix.yx == 0 else { return }
        let bounds = inkBounds(at: anchor)
        let minColumn = Int((bounds.minX * deviceScale + matrix.x0).rounded(.down))
        let maxColumn = Int((bounds.maxX * deviceScale + matrix.x0).rounded(.up))
        let minRow = Int((bounds.minY * deviceScale + matrix.y0).rounded(.down))
        let maxRow = Int((bounds.maxY * deviceScale + matrix.y0).rounded(.up))
        let width = maxColumn - minColumn
        let height = maxRow - minRow
        guard width > 0, height > 0, width * height < 16_000_000 else { return }
        let shading = SDFShading(
            color: color, haloColor: haloColor, haloWidthPoints: haloWidthPoints, haloBlurPoints: haloBlurPoints,
            fontScale: scale,
            devicePixelRatio: deviceScale, opacity: opacity)
        var buffer = [(Float, Float, Float, Float)](repeating: (0, 0, 0, 0), count: width * height)
        // Device pixel → em units round the quad's point: undo the turn and the scale.
        let unitsPerDevicePixel = 1 / (scale * deviceScale)
        for pass in shading.halo == nil ? [false] : [true, false] {
            for (quadIndex, quad) in quads.enumerated() {
                let frame = frame(ofQuad: quadIndex)
                let origin = ViewPoint(
                    x: (anchor.x + frame.origin.x) * deviceScale + matrix.x0,
                    y: (anchor.y + frame.origin.y) * deviceScale + matrix.y0)
                let cosine = cos(frame.angle)
                let sine = sin(frame.angle)
                let quadBounds = ViewRect(
                    enclosing: corners(ofQuad: quadIndex).map {
                        ViewPoint(
                            x: (anchor.x + $0.x) * deviceScale + matrix.x0,
                            y: (anchor.y + $0.y) * deviceScale + matrix.y0)
                    })!
                let firstColumn = max(minColumn, Int(quadBounds.minX.rounded(.down)))
                let lastColumn = min(maxColumn, Int(quadBounds.maxX.rounded(.up)))
                let firstRow = max(minRow, Int(quadBounds.minY.rounded(.down)))
                let lastRow = min(maxRow, Int(quadBounds.maxY.rounded(.up)))
                guard firstColumn < lastColumn, firstRow < lastRow else { continue }
                let bitmapWidth = quad.glyph.width + 2 * GlyphRange.border
                let bitmapHeight = quad.glyph.height + 2 * GlyphRange.border
                let quadShading =
                    quad.color.map {
                        SDFShading(
                            color: $0, haloColor: haloColor, haloWidthPoints: haloWidthPoints,
                            haloBlurPoints: haloBlurPoints, fontScale: scale,
                            devicePixelRatio: deviceScale, opacity: opacity)
                    } ?? shading
                for row in firstRow..<lastRow {
                    for column in firstColumn..<lastColumn {
                        let dx = (Double(column) + 0.5 - origin.x) * unitsPerDevicePixel
                        let dy = (Double(row) + 0.5 - origin.y) * unitsPerDevicePixel
                        let local = ViewPoint(x: dx * cosine + dy * sine, y: -dx * sine + dy * cosine)
                        let (u, v) = quad.quadCoordinates(of: local, cornerX: frame.x, cornerY: frame.y)
                        guard u >= 0, u < quad.width, v >= 0, v < quad.height else { continue }
                        // The bitmap starts one padding pixel in; bilinear between texel centres.
                        let distance = Self.sample(
                            quad.glyph.bitmap, width: bitmapWidth, height: bitmapHeight, u: u / quad.scale - 1,
                            v: v / quad.scale - 1)
                        let color =
                            pass
                            ? shading.haloColor(distance: distance)
                            : (quad.color == nil ? shading : quadShading).fillColor(distance: distance)
                        guard color.3 > 0 else { continue }
                        let index = (row - minRow) * width + (column - minColumn)
                        buffer[index] = TexelBlending.over(color, buffer[index])
                    }
                }
            }
        }
        DevicePixels.paint(width: width, height: height, column: minColumn, row: minRow, in: cairo) { column, row in
            buffer[row * width + column]
        }
    }

    /// The distance at bitmap coordinates `u`, `v` (texel centres at .5), bilinear, 0 beyond
    /// the bitmap (the atlas's padding), in [0, 1].
    private static func sample(_ bitmap: [UInt8], width: Int, height: Int, u: Double, v: Double) -> Float {
        let x = u - 0.5
        let y = v - 0.5
        let x0 = Int(x.rounded(.down))
        let y0 = Int(y.rounded(.down))
        let fx = x - Double(x0)
        let fy = y - Double(y0)
        func texel(_ column: Int, _ row: Int) -> Double {
            guard column >= 0, column < width, row >= 0, row < height else { return 0 }
            return Double(bitmap[row * width + column])
        }
        let top = texel(x0, y0) * (1 - fx) + texel(x0 + 1, y0) * fx
        let bottom = texel(x0, y0 + 1) * (1 - fx) + texel(x0 + 1, y0 + 1) * fx
        return Float((top * (1 - fy) + bottom * fy) / 255)
    }
}
