import CCairo
import GeoData
import MapCore
import MapStyle

extension StylePainter {
    func drawFill(_ fill: FillLayer, features: [PreparedFeature]) {
        guard fill.color.isDataDriven || fill.opacity.isDataDriven || fill.outlineColor?.isDataDriven == true else {
            fillGroup(features, color: fill.color.value(atZoom: zoomLevel), opacity: fill.opacity.value(atZoom: zoomLevel),
                      outline: fill.outlineColor?.value(atZoom: zoomLevel))
            return
        }
        // Data-driven: features of one colour, opacity and outline drawn together, groups in the
        // order their first feature comes.
        struct Look: Hashable { let color: Color, opacity: Double, outline: Color? }
        var groups: [Look: [PreparedFeature]] = [:], order: [Look] = []
        for feature in features {
            let values = feature.styleValues
            let look = Look(
                color: fill.color.value(atZoom: zoomLevel, properties: values), opacity: fill.opacity.value(atZoom: zoomLevel, properties: values),
                outline: fill.outlineColor?.value(atZoom: zoomLevel, properties: values))
            if groups[look] == nil { order.append(look) }
            groups[look, default: []].append(feature)
        }
        for look in order { fillGroup(groups[look]!, color: look.color, opacity: look.opacity, outline: look.outline) }
    }

    private func fillGroup(_ features: [PreparedFeature], color: Color, opacity: Double, outline: Color?) {
        guard opacity > 0 else { return }
        cairo_new_path(cairo)
        for feature in features {
            for polygon in feature.geometry.polygons { addPolygon(polygon) }
        }
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_EVEN_ODD)
        cairo.setSource(color.with(alpha: color.alpha * opacity))
        if let outline {
            cairo_fill_preserve(cairo)
            cairo.setSource(outline.with(alpha: outline.alpha * opacity))
            cairo_set_line_width(cairo, 1 / viewport.scale)
            cairo_stroke(cairo)
        } else {
            cairo_fill(cairo)
        }
    }
}
