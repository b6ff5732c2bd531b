import CCairo
import GeoData
import MapCore
import MapStyle

extension StylePainter {
    /// How a line layer strokes one feature.
    private struct LineLook: Hashable {
        let color: Color, width: Double, opacity: Double, dashes: [Double], cap: MapStyle.LineCap, join: MapStyle.LineJoin
        let miterLimit: Double
    }

    /// Strokes lines, and the rings of polygons (country borders come from country polygons).
    ///
    /// A dashed layer's dashes start at each line's (or ring's) first vertex, wherever the view
    /// is (see ``DashPattern``): the same border is dashed alike in every image and tile. A
    /// data-driven layer strokes features of one look together.
    func drawLine(_ line: LineLayer, layer: StyleLayer) throws(RendererError) {
        let dataDriven = [line.color.isDataDriven, line.width.isDataDriven, line.opacity.isDataDriven,
                          line.dashArray?.isDataDriven == true, line.cap.isDataDriven, line.join.isDataDriven].contains(true)
        func look(_ values: [String: StyleFeatureValue]) -> LineLook {
            LineLook(
                color: line.color.value(atZoom: zoomLevel, properties: values), width: line.width.value(atZoom: zoomLevel, properties: values),
                opacity: line.opacity.value(atZoom: zoomLevel, properties: values),
                dashes: line.dashArray?.value(atZoom: zoomLevel, properties: values) ?? [],
                cap: line.cap.value(atZoom: zoomLevel, properties: values), join: line.join.value(atZoom: zoomLevel, properties: values),
                miterLimit: line.miterLimit.value(atZoom: zoomLevel))
        }
        let constant = dataDriven ? nil : look([:])
        if let constant, constant.width <= 0 || constant.opacity <= 0 { return }
        let isDashed = constant.map { DashPattern($0.dashes, lineWidth: $0.width) != nil } ?? (line.dashArray != nil)
        // Dashed lines are drawn whole, from their first vertex; solid ones clipped to the view.
        let features: [PreparedFeature]
        if isDashed {
            let zoomScale = ZoomLevel.zoomScale(atZoomLevel: viewport.zoomLevel)
            let margin = ((constant?.width ?? 32) + 2) / zoomScale
            features = try unclippedFeatures(of: layer, in: visibleMapRect.insetBy(dx: -margin, dy: -margin))
        } else {
            features = try self.features(of: layer)
        }
        guard let constant else {
            var groups: [LineLook: [PreparedFeature]] = [:], order: [LineLook] = []
            for feature in features {
                let key = look(feature.styleValues)
                guard key.width > 0, key.opacity > 0 else { continue }
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(feature)
            }
            for key in order { strokeGroup(groups[key]!, look: key) }
            return
        }
        strokeGroup(features, look: constant)
    }

    private func strokeGroup(_ features: [PreparedFeature], look: LineLook) {
        cairo_new_path(cairo)
        if let dashes = DashPattern(look.dashes, lineWidth: look.width) {
            // Whole lines, walked from their first vertex; pieces within a margin of the view
            // (the line's width and caps, in map points) are added.
            let zoomScale = ZoomLevel.zoomScale(atZoomLevel: viewport.zoomLevel)
            let margin = (look.width + 2) / zoomScale
            let area = visibleMapRect.insetBy(dx: -margin, dy: -margin)
            let moveTo = { (point: MapPoint) in
                if let view = viewport.unwrappedPoint(for: point) { cairo_move_to(cairo, view.x, view.y) }
            }
            let lineTo = { (point: MapPoint) in
                if let view = viewport.unwrappedPoint(for: point) { cairo_line_to(cairo, view.x, view.y) }
            }
            for feature in features {
                for points in feature.geometry.lines {
                    dashes.addDashes(along: points, closed: false, in: area, pointsPerMapPoint: zoomScale, moveTo: moveTo, lineTo: lineTo)
                }
                for ring in feature.geometry.polygons.joined() where ring.count >= 3 {
                    dashes.addDashes(along: ring, closed: true, in: area, pointsPerMapPoint: zoomScale, moveTo: moveTo, lineTo: lineTo)
                }
            }
        } else {
            for feature in features {
                for points in feature.geometry.lines { cairo.addPolyline(points.compactMap(viewport.unwrappedPoint(for:))) }
                for polygon in feature.geometry.polygons { addPolygon(polygon) }
            }
        }
        cairo.setSource(look.color.with(alpha: look.color.alpha * look.opacity))
        cairo_set_line_width(cairo, look.width)
        cairo_set_line_cap(cairo, look.cap.cairo)
        cairo_set_line_join(cairo, look.join.cairo)
        // `line-miter-limit`: MapLibre bevels a miter longer than this many line widths (2 by
        // default), where Cairo's own limit is 10.
        cairo_set_miter_limit(cairo, look.miterLimit)
        cairo_set_dash(cairo, nil, 0, 0)
        cairo_stroke(cairo)
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
