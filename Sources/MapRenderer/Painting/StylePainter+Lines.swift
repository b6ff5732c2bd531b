import CCairo
import Foundation
import GeoData
import ImageCodec
import MapCore
import MapData
import MapJSON
import MapStyle

extension StylePainter {
    /// How a line layer strokes one feature.
    private struct LineLook: Hashable {
        let color: Color, width: Double, opacity: Double, dashes: [Double], cap: MapStyle.LineCap,
            join: MapStyle.LineJoin
        let miterLimit: Double, roundLimit: Double
        /// `line-offset`, `line-gap-width` and `line-blur`, in points.
        let offset: Double, gapWidth: Double, blur: Double
        /// As GL dashes a line: the dash array at the whole zoom, the width there (which scales
        /// the dashes), and the length of the array it cross-fades from times its scale (the
        /// next zoom's, halved, at a whole zoom; the previous zoom's, doubled, between).
        let wholeZoomDashes: [Double], wholeZoomWidth: Double, fadeFromLength: Double
        /// `line-pattern`'s image name at the whole zoom; nil without a pattern.
        let pattern: String?

        /// How far the look draws from a line's geometry, in points (see
        /// ``StylePainter/lineReachPoints(width:gapWidth:offset:blur:miterLimit:)``).
        var reachPoints: Double {
            StylePainter.lineReachPoints(
                width: width, gapWidth: gapWidth, offset: offset, blur: blur, miterLimit: miterLimit)
        }
    }

    /// Every property of `line`'s look for a feature with `properties` (the zoom's values for
    /// empty ones): the dashes also at the whole zoom and the one they cross-fade from.
    private func evaluatedLook(
        _ line: LineLayer, properties values: [String: FeatureValue], wholeZoom: Double, fadeZoom: Double,
        fadeScale: Double
    ) -> LineLook {
        LineLook(
            color: line.color.value(atZoom: zoomLevel, properties: values),
            width: line.width.value(atZoom: zoomLevel, properties: values),
            opacity: line.opacity.value(atZoom: zoomLevel, properties: values),
            dashes: line.dashArray?.value(atZoom: zoomLevel, properties: values) ?? [],
            cap: line.cap.value(atZoom: zoomLevel, properties: values),
            join: line.join.value(atZoom: zoomLevel, properties: values),
            miterLimit: line.miterLimit.value(atZoom: zoomLevel), roundLimit: line.roundLimit.value(atZoom: zoomLevel),
            offset: line.offset.value(atZoom: zoomLevel, properties: values),
            gapWidth: max(0, line.gapWidth.value(atZoom: zoomLevel, properties: values)),
            blur: max(0, line.blur.value(atZoom: zoomLevel, properties: values)),
            wholeZoomDashes: line.dashArray?.value(atZoom: wholeZoom, properties: values) ?? [],
            wholeZoomWidth: line.width.value(atZoom: wholeZoom, properties: values),
            fadeFromLength: (line.dashArray?.value(atZoom: fadeZoom, properties: values) ?? []).reduce(0) {
                $0 + max(0, $1)
            } * fadeScale,
            pattern: line.pattern?.value(atZoom: wholeZoom, properties: values).name)
    }

    /// Strokes lines, and the rings of polygons (country borders come from country polygons).
    ///
    /// On an image (a render or a tile) every line is drawn as MapLibre's line shader draws it (``LineMesh``,
    /// ``LineRasteriser``): its joins and caps, edges, `line-offset` (right of the direction when
    /// positive), `line-gap-width`, `line-blur`, `line-gradient` along each whole line, and
    /// `line-dasharray` as GL scales it (by the width at the whole zoom, from each line's or
    /// ring's first vertex); a translucent line darkens where it crosses itself or another, as in
    /// GL. A PDF or SVG is stroked by Cairo, its dashes laid by ``DashPattern`` and features of one
    /// look stroked together. `line-translate` moves the whole layer.
    func drawLine(_ line: LineLayer, layer: StyleLayer) throws(RendererError) {
        let driven = (
            color: line.color.isDataDriven, width: line.width.isDataDriven, opacity: line.opacity.isDataDriven,
            dashes: line.dashArray?.isDataDriven == true, cap: line.cap.isDataDriven, join: line.join.isDataDriven,
            offset: line.offset.isDataDriven, gapWidth: line.gapWidth.isDataDriven, blur: line.blur.isDataDriven,
            pattern: line.pattern?.isDataDriven == true
        )
        let dataDriven = [
            driven.color, driven.width, driven.opacity, driven.dashes, driven.cap, driven.join,
            driven.offset, driven.gapWidth, driven.blur, driven.pattern,
        ].contains(true)
        let wholeZoom = zoomLevel.rounded(.down)
        let fadeZoom = wholeZoom + (wholeZoom < zoomLevel ? -1 : 1)
        let fadeScale = wholeZoom < zoomLevel ? 2.0 : 0.5
        // Every property at the zoom, once; a feature's look evaluates only those that read it.
        let zoomLook = evaluatedLook(
            line, properties: [:], wholeZoom: wholeZoom, fadeZoom: fadeZoom, fadeScale: fadeScale)
        var looks = FeatureLooks<LineLook>(reading: [
            line.color.featurePropertyNames, line.width.featurePropertyNames, line.opacity.featurePropertyNames,
            line.dashArray?.featurePropertyNames ?? [], line.cap.featurePropertyNames, line.join.featurePropertyNames,
            line.offset.featurePropertyNames, line.gapWidth.featurePropertyNames, line.blur.featurePropertyNames,
            line.pattern?.featurePropertyNames ?? [],
        ])
        func look(_ values: [String: FeatureValue]) -> LineLook {
            guard dataDriven else { return zoomLook }
            return looks.look(for: values) { featureLook(values) }
        }
        func featureLook(_ values: [String: FeatureValue]) -> LineLook {
            func value<Value>(_ property: StyleValue<Value>, _ isDriven: Bool, _ atZoom: Value, zoom: Double? = nil)
                -> Value
            {
                isDriven ? property.value(atZoom: zoom ?? zoomLevel, properties: values) : atZoom
            }
            let dashes = driven.dashes
            return LineLook(
                color: value(line.color, driven.color, zoomLook.color),
                width: value(line.width, driven.width, zoomLook.width),
                opacity: value(line.opacity, driven.opacity, zoomLook.opacity),
                dashes: dashes ? line.dashArray?.value(atZoom: zoomLevel, properties: values) ?? [] : zoomLook.dashes,
                cap: value(line.cap, driven.cap, zoomLook.cap), join: value(line.join, driven.join, zoomLook.join),
                miterLimit: zoomLook.miterLimit, roundLimit: zoomLook.roundLimit,
                offset: value(line.offset, driven.offset, zoomLook.offset),
                gapWidth: driven.gapWidth
                    ? max(0, line.gapWidth.value(atZoom: zoomLevel, properties: values)) : zoomLook.gapWidth,
                blur: driven.blur ? max(0, line.blur.value(atZoom: zoomLevel, properties: values)) : zoomLook.blur,
                wholeZoomDashes: dashes
                    ? line.dashArray?.value(atZoom: wholeZoom, properties: values) ?? [] : zoomLook.wholeZoomDashes,
                wholeZoomWidth: value(line.width, driven.width, zoomLook.wholeZoomWidth, zoom: wholeZoom),
                fadeFromLength: dashes
                    ? (line.dashArray?.value(atZoom: fadeZoom, properties: values) ?? []).reduce(0) { $0 + max(0, $1) }
                        * fadeScale
                    : zoomLook.fadeFromLength,
                pattern: driven.pattern
                    ? line.pattern?.value(atZoom: wholeZoom, properties: values).name : zoomLook.pattern)
        }
        let constant = dataDriven ? nil : zoomLook
        if let constant, constant.width <= 0 || constant.opacity <= 0 { return }
        let isDashed = constant.map { DashPattern($0.dashes, lineWidth: $0.width) != nil } ?? (line.dashArray != nil)
        // Dashed lines are drawn whole, from their first vertex; solid ones clipped to the view.
        var features: [PreparedFeature]
        // A gradient and a pattern run along the whole line too.
        let gradient = line.gradientRamp(atZoom: zoomLevel)
        let readsWholeLines = isDashed || gradient != nil || line.pattern != nil
        let translate = line.translate.value(atZoom: zoomLevel)
        let translateAnchor = line.translateAnchor.value(atZoom: zoomLevel)
        let translation = viewTranslation(translate, anchor: translateAnchor)
        let translationPoints = self.translationPoints(translate, anchor: translateAnchor)
        if readsWholeLines {
            let zoomScale = ZoomLevel.zoomScale(atZoomLevel: viewport.zoomLevel)
            let margin = ((constant?.width ?? 32) + 2) / zoomScale
            if let bandSharing {
                // The image's lines, whole, shared by its bands; a band draws those that reach
                // its rows, or (lines of differing widths) those within the widest line of a
                // style (a 128-point reach) of its view.
                let image = bandSharing.imageMapRect.insetBy(dx: -margin, dy: -margin)
                let reach = 128 / zoomScale
                features = try bandSharing.features.features(.init(layerID: layer.id, whole: true)) {
                    () throws(RendererError) in
                    try unclippedFeatures(of: layer, in: image)
                }.meeting(
                    reachPoints(of: layer).flatMap { bandReachArea(points: $0) }
                        ?? visibleMapRect.insetBy(dx: -reach, dy: -reach))
            } else {
                features = try unclippedFeatures(of: layer, in: visibleMapRect.insetBy(dx: -margin, dy: -margin))
            }
        } else {
            features = try self.features(of: layer)
        }
        features = sorted(features, by: line.sortKey)
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        cairo_translate(cairo, translation.dx, translation.dy)
        if let constant {
            strokeGroup(features, look: constant, gradient: gradient)
        } else if line.sortKey != nil {
            // Sorted: runs of one look, in key order.
            var run: [PreparedFeature] = []
            var runLook: LineLook?
            for feature in features {
                let key = look(feature.styleValues)
                if key != runLook, let runLook, !run.isEmpty {
                    strokeGroup(run, look: runLook, gradient: gradient)
                    run = []
                }
                runLook = key
                if key.width > 0, key.opacity > 0, reachesBand(feature, points: key.reachPoints + translationPoints) {
                    run.append(feature)
                }
            }
            if let runLook, !run.isEmpty { strokeGroup(run, look: runLook, gradient: gradient) }
        } else {
            var groups: [LineLook: [PreparedFeature]] = [:]
            var order: [LineLook] = []
            for feature in features {
                let key = look(feature.styleValues)
                // A band leaves out what cannot reach its rows.
                guard key.width > 0, key.opacity > 0, reachesBand(feature, points: key.reachPoints + translationPoints)
                else { continue }
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(feature)
            }
            if let bandSharing {
                // The whole image's order of looks, whichever features this band meets.
                let ranks = bandSharing.features.lookRanks(layerID: layer.id) { () -> [LineLook: Int] in
                    // This band has read the layer's shared features already.
                    let all =
                        (try? bandSharing.features.features(.init(layerID: layer.id, whole: readsWholeLines)) { [] })?
                        .features ?? []
                    var ranks: [LineLook: Int] = [:]
                    for feature in addingStates(to: all, of: layer) {
                        let key = look(feature.styleValues)
                        if ranks[key] == nil { ranks[key] = ranks.count }
                    }
                    return ranks
                }
                order = order.enumerated().sorted {
                    (ranks[$0.element] ?? .max, $0.offset) < (ranks[$1.element] ?? .max, $1.offset)
                }.map(\.element)
            }
            for key in order { strokeGroup(groups[key]!, look: key, gradient: gradient) }
        }
    }

    private func strokeGroup(_ features: [PreparedFeature], look: LineLook, gradient: [Color]?) {
        // Images and tiles alike (the rasteriser snaps vertices to GL's sub-pixel grid, so
        // metatiles cut from one map meet); PDF and SVG are stroked by Cairo.
        if LineRasteriser.canDraw(on: cairo) {
            rasterise(features, look: look, gradient: gradient)
            return
        }
        cairo_new_path(cairo)
        // `line-gap-width`: the two lines' centres lie half the gap and half a width either side.
        let offset = look.offset
        func add(_ points: [ViewPoint], closed: Bool) {
            let moved =
                offset == 0
                ? points : StylePainter.offsetLine(points, by: offset, closed: closed, miterLimit: look.miterLimit)
            if closed { cairo.addRing(moved) } else { cairo.addPolyline(moved) }
        }
        if let dashes = DashPattern(look.dashes, lineWidth: look.width) {
            // Whole lines, walked from their first vertex; pieces within a margin of the view
            // (the line's width and caps, in map points) are added.
            let zoomScale = ZoomLevel.zoomScale(atZoomLevel: viewport.zoomLevel)
            let margin = (look.width + look.gapWidth + abs(offset) + 2) / zoomScale
            let area = visibleMapRect.insetBy(dx: -margin, dy: -margin)
            var pieces: [[ViewPoint]] = []
            let moveTo = { (point: MapPoint) in
                if let view = viewPoint(for: point) { pieces.append([view]) }
            }
            let lineTo = { (point: MapPoint) in
                if let view = viewPoint(for: point), !pieces.isEmpty { pieces[pieces.count - 1].append(view) }
            }
            for feature in features {
                for points in feature.geometry.lines {
                    dashes.addDashes(
                        along: points, closed: false, in: area, pointsPerMapPoint: zoomScale, moveTo: moveTo,
                        lineTo: lineTo)
                }
                for ring in feature.geometry.polygons.joined() where ring.count >= 3 {
                    dashes.addDashes(
                        along: ring, closed: true, in: area, pointsPerMapPoint: zoomScale, moveTo: moveTo,
                        lineTo: lineTo)
                }
            }
            for piece in pieces { add(piece, closed: false) }
        } else {
            for feature in features {
                for points in feature.geometry.lines { add(points.compactMap(viewPoint(for:)), closed: false) }
                for polygon in feature.geometry.polygons {
                    for ring in polygon where ring.count >= 3 { add(ring.compactMap(viewPoint(for:)), closed: true) }
                }
            }
        }
        cairo_set_line_cap(cairo, look.cap.cairo)
        cairo_set_line_join(cairo, look.join.cairo)
        // `line-miter-limit`: MapLibre bevels a miter longer than this many line widths (2 by
        // default), where Cairo's own limit is 10.
        cairo_set_miter_limit(cairo, look.miterLimit)
        cairo_set_dash(cairo, nil, 0, 0)
        let color = look.color.with(alpha: look.color.alpha * look.opacity)
        guard look.gapWidth > 0 || look.blur > 0 else {
            cairo.setSource(color)
            cairo_set_line_width(cairo, look.width)
            cairo_stroke(cairo)
            return
        }
        // A casing or a blurred line: its coverage is built in a group, then painted in colour.
        // The outer edge lies half the gap plus a width from the centre.
        let outerHalfWidth = look.gapWidth / 2 + (look.gapWidth > 0 ? look.width : look.width / 2)
        cairo_push_group(cairo)
        if look.blur > 0 {
            // MapLibre fades a blurred line linearly over `line-blur` (plus its one-pixel
            // antialiasing) inwards from its edge: strokes whose half-widths spread evenly over
            // the blur, each adding an equal share of coverage.
            let steps = max(1, min(24, Int((look.blur * viewport.scale * 2).rounded(.up))))
            cairo_set_operator(cairo, CAIRO_OPERATOR_ADD)
            cairo_set_source_rgba(cairo, 0, 0, 0, 1 / Double(steps))
            for step in 0..<steps {
                let halfWidth = outerHalfWidth - look.blur * (Double(step) + 0.5) / Double(steps)
                guard halfWidth > 0 else { continue }
                cairo_set_line_width(cairo, 2 * halfWidth)
                cairo_stroke_preserve(cairo)
            }
        } else {
            cairo_set_source_rgba(cairo, 0, 0, 0, 1)
            cairo_set_line_width(cairo, 2 * outerHalfWidth)
            cairo_stroke_preserve(cairo)
        }
        if look.gapWidth > 0 {
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            cairo_set_line_width(cairo, look.gapWidth)
            cairo_stroke_preserve(cairo)
        }
        cairo_new_path(cairo)
        let coverage = cairo_pop_group(cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        cairo.setSource(color)
        cairo_mask(cairo, coverage)
        cairo_pattern_destroy(coverage)
    }

    /// Draws solid lines on an image as MapLibre's shader does (see ``LineRasteriser``): their
    /// ends and joins, edges, offset, gap and blur, and translucent overlaps.
    private func rasterise(_ features: [PreparedFeature], look: LineLook, gradient: [Color]?) {
        // A pattern no sprite has draws nothing, as in MapLibre.
        var pattern: LineRasteriser.Pattern?
        if let name = look.pattern {
            guard !name.isEmpty else { return }
            guard let image = images[name] else {
                data.noteMissingImage(name)
                return
            }
            // One period: the image's width in points of the whole zoom (it grows with the map
            // up to the next).
            let period = image.widthPoints * exp2(zoomLevel - zoomLevel.rounded(.down))
            pattern = LineRasteriser.Pattern(
                texture: image.texture, periodPoints: period, heightPoints: image.heightPoints)
        }
        // GL adds vertices 15 pixels of the tile's zoom either side of a sharp corner.
        let zoom = viewport.zoomLevel + MapSnapshotter.styleZoomOffset
        let sharpCornerOffset = 15 * exp2(zoom - zoom.rounded(.down))
        var mesh = lineScratch.scratch.takeMesh()
        defer { lineScratch.scratch.giveBack(mesh) }
        for feature in features {
            for points in feature.geometry.lines {
                mesh.addLine(
                    points.compactMap(viewPoint(for:)), closed: false, join: look.join, cap: look.cap,
                    miterLimit: look.miterLimit, roundLimit: look.roundLimit, sharpCornerOffsetPoints: sharpCornerOffset
                )
            }
            for polygon in feature.geometry.polygons {
                for ring in polygon where ring.count >= 3 {
                    mesh.addLine(
                        ring.compactMap(viewPoint(for:)), closed: true, join: look.join, cap: look.cap,
                        miterLimit: look.miterLimit, roundLimit: look.roundLimit,
                        sharpCornerOffsetPoints: sharpCornerOffset)
                }
            }
        }
        var shading = LineRasteriser.Shading(
            widthPoints: look.width, gapWidthPoints: look.gapWidth, offsetPoints: look.offset, blurPoints: look.blur,
            alpha: (gradient == nil && pattern == nil ? look.color.alpha : 1) * look.opacity, gradient: gradient,
            pattern: pattern)
        // GL's dashes: a period of the whole zoom's array times the width there, in pixels of
        // the whole zoom; the fade at dash ends a device pixel wide at the shorter of the two
        // cross-faded patterns.
        if let field = LineDashField(look.wholeZoomDashes, round: look.cap == .round) {
            let floorWidth = max(look.wholeZoomWidth, 1e-6)
            let shortest = look.fadeFromLength > 0 ? min(look.fadeFromLength, field.length) : field.length
            shading.dash = LineRasteriser.Dash(
                field: field, periodPoints: field.length * floorWidth * exp2(zoomLevel - zoomLevel.rounded(.down)),
                gamma: 1 / (2 * shortest * viewport.scale * floorWidth))
        }
        LineRasteriser.draw(mesh, shading: shading, color: look.color, on: cairo, scratch: lineScratch.scratch)
    }

    /// A line moved `offsetPoints` to the right of its direction (left when negative), as
    /// MapLibre offsets lines: each vertex moves along its join's miter, so the moved segments
    /// stay parallel to the old ones; a corner sharper than the miter limit gets two vertices,
    /// one on each segment's normal (a bevel).
    static func offsetLine(_ points: [ViewPoint], by offsetPoints: Double, closed: Bool, miterLimit: Double)
        -> [ViewPoint]
    {
        var vertices: [ViewPoint] = []
        for point in points where vertices.last != point { vertices.append(point) }
        if closed, vertices.count > 1, vertices.first == vertices.last { vertices.removeLast() }
        let count = vertices.count
        guard count >= 2 else { return points }
        /// The right-hand unit normal of the segment from vertex `index` to the next.
        func normal(_ index: Int) -> (x: Double, y: Double) {
            let a = vertices[index]
            let b = vertices[(index + 1) % count]
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            return (-dy / length, dx / length)
        }
        var result: [ViewPoint] = []
        for index in 0..<count {
            let point = vertices[index]
            let hasBefore = closed || index > 0
            let hasAfter = closed || index < count - 1
            let after = hasAfter ? normal(index) : normal((index - 1 + count) % count)
            let before = hasBefore ? normal((index - 1 + count) % count) : after
            var joinX = before.x + after.x
            var joinY = before.y + after.y
            let joinLength = (joinX * joinX + joinY * joinY).squareRoot()
            let cosine = joinLength > 1e-9 ? (joinX / joinLength) * after.x + (joinY / joinLength) * after.y : 0
            if cosine > 1 / max(miterLimit, 1) {
                joinX /= joinLength * cosine
                joinY /= joinLength * cosine
                result.append(ViewPoint(x: point.x + joinX * offsetPoints, y: point.y + joinY * offsetPoints))
            } else {
                result.append(ViewPoint(x: point.x + before.x * offsetPoints, y: point.y + before.y * offsetPoints))
                result.append(ViewPoint(x: point.x + after.x * offsetPoints, y: point.y + after.y * offsetPoints))
            }
        }
        return result
    }
}

extension MapStyle.LineCap {
    var cairo: cairo_line_cap_t {
        switch self {
        case .butt: return CAIRO_LINE_CAP_BUTT
        case .round: return CAIRO_LINE_CAP_ROUND
        case .square: return CAIRO_LINE_CAP_SQUARE
        }
    }
}

extension MapStyle.LineJoin {
    var cairo: cairo_line_join_t {
        switch self {
        case .miter: return CAIRO_LINE_JOIN_MITER
        case .round: return CAIRO_LINE_JOIN_ROUND
        case .bevel: return CAIRO_LINE_JOIN_BEVEL
        }
    }
}
