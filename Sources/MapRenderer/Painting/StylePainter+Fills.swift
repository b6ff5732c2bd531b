import CCairo
import Foundation
import GeoData
import MapCore
import MapData
import MapStyle

extension StylePainter {
    /// Fills a layer's polygons as MapLibre composites them: feature after feature (in
    /// `fill-sort-key` order, lowest first), each polygon filled on its own (its holes cut out)
    /// and blended over what is drawn already, so translucent polygons that overlap are darker
    /// where they do. With `fill-antialias` (the default) edges are smoothed and, when
    /// `fill-outline-color` is set, a one-pixel outline in that colour is drawn over every fill,
    /// as MapLibre draws outlines after the layer's fills (a `fill-pattern` without an outline
    /// colour is outlined with its pattern, as GL does); without it edges are hard and no
    /// outline is drawn. A `fill-pattern` fills with its sprite image instead of the colour. `fill-translate` moves everything by that many points.
    func drawFill(_ fill: FillLayer, features: [PreparedFeature]) {
        let translation = viewTranslation(
            fill.translate.value(atZoom: zoomLevel), anchor: fill.translateAnchor.value(atZoom: zoomLevel))
        struct Look { let color: Color, outline: Color?, pattern: StyleImage?, opacity: Double }
        var drawn: [(feature: PreparedFeature, look: Look)] = []
        let antialias = fill.antialias.value(atZoom: zoomLevel)
        // A feature's look, nil when it draws nothing; made once for features alike (FeatureLooks).
        var looks = FeatureLooks<Look?>(reading: [
            fill.opacity.featurePropertyNames, fill.pattern?.featurePropertyNames ?? [],
            fill.color.featurePropertyNames,
            antialias ? fill.outlineColor?.featurePropertyNames ?? [] : [],
        ])
        for feature in sorted(features, by: fill.sortKey) {
            let values = feature.styleValues
            let look = looks.look(for: values) { () -> Look? in
                let opacity = fill.opacity.value(atZoom: zoomLevel, properties: values)
                guard opacity > 0 else { return nil }
                var image: StyleImage?
                if let pattern = fill.pattern {
                    // A pattern no sprite has draws nothing, as in MapLibre.
                    guard let found = patternImage(pattern, properties: values) else { return nil }
                    image = found
                }
                let color = fill.color.value(atZoom: zoomLevel, properties: values)
                let outline = antialias ? fill.outlineColor?.value(atZoom: zoomLevel, properties: values) : nil
                return Look(
                    color: color.with(alpha: color.alpha * opacity),
                    outline: outline.map { $0.with(alpha: $0.alpha * opacity) },
                    pattern: image, opacity: opacity)
            }
            if let look { drawn.append((feature, look)) }
        }
        guard !drawn.isEmpty else { return }
        cairo_save(cairo)
        cairo_translate(cairo, translation.dx, translation.dy)
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_EVEN_ODD)
        if !antialias {
            // Hard edges fill the pixels whose centres are inside, as GL's rasteriser does; a
            // centre on a left or top edge is inside (GL's top-left rule), where Cairo leaves it
            // out: moving the polygons up and left by Cairo's smallest step (1/256 px) agrees.
            cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
            cairo_translate(cairo, -1 / (256 * viewport.scale), -1 / (256 * viewport.scale))
        }
        for (feature, look) in drawn where look.pattern != nil {
            guard let image = look.pattern, let source = makePatternSource(image) else { continue }
            cairo_set_source(cairo, source)
            cairo_pattern_destroy(source)
            for polygon in feature.geometry.polygons {
                cairo_save(cairo)
                cairo_new_path(cairo)
                addPolygon(polygon)
                cairo_clip(cairo)
                cairo_paint_with_alpha(cairo, look.opacity)
                cairo_restore(cairo)
            }
        }
        for (feature, look) in drawn where look.pattern == nil && look.color.alpha > 0 {
            cairo.setSource(look.color)
            for polygon in feature.geometry.polygons {
                cairo_new_path(cairo)
                addPolygon(polygon)
                cairo_fill(cairo)
            }
        }
        cairo_set_line_width(cairo, 1 / viewport.scale)
        for (feature, look) in drawn {
            if let image = look.pattern, antialias, fill.outlineColor == nil {
                // GL outlines an antialiased pattern fill with its pattern, one pixel wide.
                guard let source = makePatternSource(image) else { continue }
                // The group only as large as the outline's pixels: a group the size of the
                // canvas per feature (every water polygon of OSM Bright's tiles) was a tenth of
                // an export, allocating and clearing it. Only where the group's smaller origin
                // moves Pixman's samples of the pattern by whole fixed-point steps (whole
                // zooms, no heading: tiles), so that each pixel gets the same value.
                cairo_save(cairo)
                if cairo.samplesExactlyWhenShifted(source) {
                    cairo_new_path(cairo)
                    for polygon in feature.geometry.polygons { addPolygon(polygon) }
                    cairo.clipToStrokePixels()
                }
                cairo_push_group(cairo)
                cairo_set_source(cairo, source)
                cairo_pattern_destroy(source)
                cairo_new_path(cairo)
                for polygon in feature.geometry.polygons { addPolygon(polygon) }
                cairo_stroke(cairo)
                cairo_pop_group_to_source(cairo)
                cairo_paint_with_alpha(cairo, look.opacity)
                cairo_restore(cairo)
                continue
            }
            guard let outline = look.outline, outline.alpha > 0 else { continue }
            cairo.setSource(outline)
            cairo_new_path(cairo)
            for polygon in feature.geometry.polygons { addPolygon(polygon) }
            cairo_stroke(cairo)
        }
        cairo_restore(cairo)
    }

    /// Features in the order a `*-sort-key` draws them: ascending keys, ties (and features
    /// without a number) in data order; the data order when there is no key.
    func sorted(_ features: [PreparedFeature], by sortKey: StyleValue<Double>?) -> [PreparedFeature] {
        guard let sortKey else { return features }
        let keyed = features.enumerated().map { index, feature in
            (key: sortKey.value(atZoom: zoomLevel, properties: feature.styleValues), index: index, feature: feature)
        }
        return keyed.sorted { ($0.key, $0.index) < ($1.key, $1.index) }.map(\.feature)
    }

    /// A layer's `*-translate` as an offset in view points: turned with the map's heading when
    /// anchored to the map, along the view's axes when anchored to the viewport.
    func viewTranslation(_ translation: Translation, anchor: TranslateAnchor) -> (dx: Double, dy: Double) {
        let offset = translation.inView(anchor: anchor, headingDegrees: viewport.camera.headingDegrees)
        return (offset.x, offset.y)
    }
}

extension Translation {
    /// The translation in view points: as given for the `viewport` anchor, turned with the map
    /// (its heading) for the `map` anchor, as GL turns it.
    func inView(anchor: TranslateAnchor, headingDegrees: Double) -> ViewPoint {
        guard !isZero else { return ViewPoint(x: 0, y: 0) }
        guard anchor == .map else { return ViewPoint(x: xPoints, y: yPoints) }
        let heading = headingDegrees * .pi / 180
        let cosHeading = cos(heading)
        let sinHeading = sin(heading)
        return ViewPoint(
            x: xPoints * cosHeading + yPoints * sinHeading, y: -xPoints * sinHeading + yPoints * cosHeading)
    }
}
