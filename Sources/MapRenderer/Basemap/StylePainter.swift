import CCairo
import Foundation
import GeoData
import ImageCodec
import MapCore
import MapStyle
import RasterTiles

/// Draws a style's background, fill, line and raster layers through a viewport, and gives any
/// layer's features in view (symbol layers' labels are placed from them by the snapshotter).
struct StylePainter {
    let viewport: Viewport
    let style: Style
    let data: MapData
    let cairo: OpaquePointer
    /// The area drawn, in map points (world copies included).
    let visibleMapRect: MapRect
    /// The zoom level the style is evaluated at (layer visibility, sizes, colours): the
    /// viewport's for images, one less for tiles (see `MapTileRenderer`). Geometry is prepared
    /// for the viewport's zoom level, whatever the style's.
    let zoomLevel: Double
    /// How far beyond the view geometry is cut, in pixels; nil for PreparedLayer's default (16).
    /// Tiles cut far away (see `RenderPass.clipMarginPixels`).
    let clipMarginPixels: Double?

    init(
        viewport: Viewport, styleZoomLevel: Double? = nil, clipMarginPixels: Double? = nil, style: Style, data: MapData,
        cairo: OpaquePointer, visibleMapRect: MapRect
    ) {
        self.viewport = viewport
        self.style = style
        self.data = data
        self.cairo = cairo
        self.visibleMapRect = visibleMapRect
        zoomLevel = styleZoomLevel ?? viewport.zoomLevel
        self.clipMarginPixels = clipMarginPixels
    }

    /// The layer's features in view, prepared for this zoom and clipped, filtered by the layer.
    func features(of layer: StyleLayer) throws(RendererError) -> [PreparedFeature] {
        if let tiles = try vectorTiles(of: layer) {
            // Tiles cut their features to their bounds; those of the tiles meeting the view and
            // a margin of 16 pixels (strokes and outlines crossing the edge) are drawn.
            let margin = 16 * PreparedLayer.tolerance(zoomLevel: PreparedLayer.preparationZoomLevel(for: viewport.zoomLevel), screenScale: viewport.scale)
            guard let zoom = tiles.zoom else { return [] }
            let features = try tiles.source.features(
                layer: layer.sourceLayer ?? "", in: visibleMapRect.insetBy(dx: -margin, dy: -margin), zoom: zoom)
            return layer.filter == nil ? features : features.filter { layer.includes($0.styleValues, zoom: zoomLevel) }
        }
        guard let prepared = try preparedLayer(of: layer) else { return [] }
        let features: [PreparedFeature]
        do { features = try prepared.features(in: visibleMapRect, clipMarginPixels: clipMarginPixels) } catch { throw .data(error) }
        guard layer.filter != nil else { return features }
        return features.filter { layer.includes($0.styleValues, zoom: zoomLevel) }
    }

    /// The layer's features that meet `rect` (map points, world copies included), whole: not
    /// clipped, each moved into the world copy it was found in; filtered by the layer. A vector
    /// tileset's features are whole within their tiles, and the lines of one feature cut at tile
    /// edges are joined again (dashes run on across tiles).
    func unclippedFeatures(of layer: StyleLayer, in rect: MapRect) throws(RendererError) -> [PreparedFeature] {
        if let tiles = try vectorTiles(of: layer) {
            guard let zoom = tiles.zoom else { return [] }
            let features = try tiles.source.features(layer: layer.sourceLayer ?? "", in: rect, zoom: zoom)
            let filtered = layer.filter == nil ? features : features.filter { layer.includes($0.styleValues, zoom: zoomLevel) }
            return StylePainter.joiningLines(of: filtered)
        }
        guard let prepared = try preparedLayer(of: layer) else { return [] }
        var result: [PreparedFeature] = []
        for copy in rect.worldCopies {
            let indices: [Int]
            do { indices = try prepared.source.featureIndices(inWorldRect: copy.rect) } catch { throw .data(error) }
            for index in indices {
                var feature = prepared.features[index]
                guard !feature.geometry.isEmpty, layer.filter == nil || layer.includes(feature.styleValues, zoom: zoomLevel) else { continue }
                feature.geometry = feature.geometry.offsetBy(dx: copy.offsetX)
                result.append(feature)
            }
        }
        return result
    }

    /// The vector tileset a layer draws from and the zoom of its tiles for this view; nil for a
    /// layer of another source.
    private func vectorTiles(of layer: StyleLayer) throws(RendererError) -> (source: VectorTileSource, zoom: Int?)? {
        guard let sourceID = layer.source else { return nil }
        guard let styleSource = style.sources[sourceID] else { throw .unknownSource(layer: layer.id, source: sourceID) }
        guard case .vector(let vector) = styleSource, let source = try data.vectorTileSource(vector) else { return nil }
        return (source, source.tileZoom(forViewportZoom: viewport.zoomLevel))
    }

    /// Features whose lines are pieces of one line cut at tile edges, joined: features with the
    /// same properties become one, their lines joined end to start; polygons and points are
    /// kept as they come.
    static func joiningLines(of features: [PreparedFeature]) -> [PreparedFeature] {
        var result: [PreparedFeature] = []
        var slots: [[String: PropertyValue]: Int] = [:]
        var pieces: [Int: [[MapPoint]]] = [:]
        for feature in features {
            guard !feature.geometry.lines.isEmpty, feature.geometry.polygons.isEmpty, feature.geometry.points.isEmpty else {
                result.append(feature)
                continue
            }
            if let slot = slots[feature.properties] {
                pieces[slot, default: []] += feature.geometry.lines
            } else {
                slots[feature.properties] = result.count
                pieces[result.count] = feature.geometry.lines
                result.append(feature)
            }
        }
        for (slot, lines) in pieces where lines.count > 1 {
            result[slot].geometry = PreparedGeometry(lines: LineJoining.joined(lines, quantum: 1.0 / 16))
        }
        return result
    }

    /// The layer's source geometry prepared for the viewport's zoom level and scale; nil for a
    /// layer without a vector source.
    private func preparedLayer(of layer: StyleLayer) throws(RendererError) -> PreparedLayer? {
        guard let sourceID = layer.source else { return nil }
        guard let styleSource = style.sources[sourceID] else { throw .unknownSource(layer: layer.id, source: sourceID) }
        guard let source = try data.source(for: styleSource, sourceLayer: layer.sourceLayer) else { return nil }
        return data.preparedLayers.preparedLayer(
            for: source,
            zoomLevel: PreparedLayer.preparationZoomLevel(for: viewport.zoomLevel),
            screenScale: viewport.scale
        )
    }

    func drawBackground(_ background: BackgroundLayer) {
        let color = background.color.value(atZoom: zoomLevel)
        cairo.setSource(color.with(alpha: color.alpha * background.opacity.value(atZoom: zoomLevel)))
        cairo_paint(cairo)
    }

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

    private func addPolygon(_ rings: [[MapPoint]]) {
        for ring in rings where ring.count >= 3 {
            cairo.addRing(ring.compactMap(viewport.unwrappedPoint(for:)))
        }
    }
}

extension Dictionary where Key == String, Value == PropertyValue {
    /// The properties as the style's filters and text fields read them.
    var styleValues: [String: StyleFeatureValue] {
        mapValues { value in
            switch value {
            case .string(let text): return .string(text)
            case .number(let number): return .number(number)
            case .bool(let flag): return .bool(flag)
            case .null: return .null
            }
        }
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
