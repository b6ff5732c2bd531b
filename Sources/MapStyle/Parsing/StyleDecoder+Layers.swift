import Foundation
import MapJSON

extension StyleDecoder {
    /// Reads `layers` (MapLibre Style Specification, "Layers"), checking each layer's source.
    mutating func decodeLayers(
        _ json: JSONValue,
        sources: [String: StyleSource],
        at path: StylePath
    ) throws(StyleError) -> [StyleLayer] {
        var layers: [StyleLayer] = []
        var ids: Set<String> = []
        let items = try array(json, at: path)
        // Legacy `ref` layers name another layer anywhere in the list.
        var layersByID: [String: [String: JSONValue]] = [:]
        for item in items {
            if case .object(let members) = item, case .string(let id)? = members["id"], layersByID[id] == nil {
                layersByID[id] = members
            }
        }
        for (index, item) in items.enumerated() {
            let unlabelled = path.appending(index: index)
            var members = try object(item, at: unlabelled)
            if case .string(let id)? = members["id"] {
                members = try resolvingRef(members, layersByID: layersByID, at: path.appending(index: index, label: id))
            }
            guard let idJSON = members["id"] else { throw error(.missingKey("id"), at: unlabelled) }
            let id = try string(idJSON, at: unlabelled.appending("id"))
            let layerPath = path.appending(index: index, label: id)
            guard ids.insert(id).inserted else { throw error(.duplicateLayerID(id), at: layerPath.appending("id")) }
            layers.append(try decodeLayer(members, id: id, sources: sources, at: layerPath))
        }
        return layers
    }

    private mutating func decodeLayer(
        _ members: [String: JSONValue],
        id: String,
        sources: [String: StyleSource],
        at path: StylePath
    ) throws(StyleError) -> StyleLayer {
        reportUnknownKeys(members, known: StyleDecoder.layerKeys, at: path) { "unknown layer key '\($0)' (ignored)" }
        guard let typeJSON = members["type"] else { throw error(.missingKey("type"), at: path) }
        let typeName = try string(typeJSON, at: path.appending("type"))
        guard let type = LayerType(rawValue: typeName) else {
            throw error(.unknownLayerType(typeName), at: path.appending("type"))
        }

        var layer = StyleLayer(id: id, kind: .background(BackgroundLayer()))
        if let value = members["minzoom"] {
            layer.minZoom = try number(value, in: 0...24, at: path.appending("minzoom"))
        }
        if let value = members["maxzoom"] {
            layer.maxZoom = try number(value, in: 0...24, at: path.appending("maxzoom"))
        }
        if let minZoom = layer.minZoom, let maxZoom = layer.maxZoom, minZoom >= maxZoom {
            throw error(
                .invalidValue(
                    "minzoom \(JSONValue.number(minZoom).jsonText) is not below maxzoom "
                        + "\(JSONValue.number(maxZoom).jsonText): the layer would never show"),
                at: path.appending("maxzoom"))
        }
        try decodeSourceReference(members, type: type, sources: sources, into: &layer, at: path)

        let paintPath = path.appending("paint")
        let layoutPath = path.appending("layout")
        let paint = try members["paint"].map { value throws(StyleError) in try object(value, at: paintPath) } ?? [:]
        let layout = try members["layout"].map { value throws(StyleError) in try object(value, at: layoutPath) } ?? [:]
        reportUnknownProperties(paint, group: "paint", type: type, at: path)
        reportUnknownProperties(layout, group: "layout", type: type, at: path)

        if let value = layout["visibility"] {
            layer.visibility = try enumeration(value, at: layoutPath.appending("visibility"))
        }
        var properties = PropertyReader(
            decoder: StyleDecoder(file: file, baseURL: baseURL, globalState: globalState),
            paint: paint,
            layout: layout,
            paintPath: paintPath,
            layoutPath: layoutPath
        )
        layer.kind = try decodeKind(type, from: &properties)
        warnings += properties.decoder.warnings
        return layer
    }

    private mutating func decodeSourceReference(
        _ members: [String: JSONValue],
        type: LayerType,
        sources: [String: StyleSource],
        into layer: inout StyleLayer,
        at path: StylePath
    ) throws(StyleError) {
        if type == .background {
            for key in ["source", "source-layer", "filter"] where members[key] != nil {
                warn(at: path, "a background layer has no '\(key)' (ignored)")
            }
            return
        }
        if let value = members["filter"] {
            layer.filter = try filter(value, at: path.appending("filter"))
        }
        guard let sourceJSON = members["source"] else { throw error(.missingKey("source"), at: path) }
        let sourcePath = path.appending("source")
        let sourceID = try string(sourceJSON, at: sourcePath)
        guard let source = sources[sourceID] else { throw error(.unknownSource(sourceID), at: sourcePath) }
        layer.source = sourceID

        switch (type, source) {
        case (.raster, .raster), (.raster, .image), (.hillshade, .rasterDEM):
            break
        case (.raster, _):
            throw error(
                .invalidValue("a raster layer needs a raster or image source; '\(sourceID)' is neither"), at: sourcePath
            )
        case (.hillshade, _):
            throw error(
                .invalidValue("a hillshade layer needs a raster-dem source; '\(sourceID)' is not one"), at: sourcePath)
        case (_, .raster), (_, .rasterDEM), (_, .image):
            throw error(
                .invalidValue(
                    "a \(type.rawValue) layer needs a vector or geojson source; '\(sourceID)' is \(source.typeName)"),
                at: sourcePath)
        default:
            break
        }
        if case .vector = source {
            guard let sourceLayerJSON = members["source-layer"] else {
                throw error(.missingKey("source-layer"), at: path)
            }
            layer.sourceLayer = try string(sourceLayerJSON, at: path.appending("source-layer"))
        } else if members["source-layer"] != nil {
            warn(at: path, "'source-layer' applies only to vector sources (ignored)")
        }
        if type == .raster || type == .hillshade, layer.filter != nil {
            warn(at: path, "a \(type.rawValue) layer has no features to filter; 'filter' ignored")
            layer.filter = nil
        }
    }

    private mutating func reportUnknownProperties(
        _ members: [String: JSONValue], group: String, type: LayerType, at path: StylePath
    ) {
        let known = (group == "paint" ? StyleDecoder.paintProperties : StyleDecoder.layoutProperties)[type] ?? []
        let other = (group == "paint" ? StyleDecoder.layoutProperties : StyleDecoder.paintProperties)[type] ?? []
        for key in members.keys.sorted() where !known.contains(key) {
            if other.contains(key) {
                warn(
                    at: path,
                    "'\(key)' is a \(group == "paint" ? "layout" : "paint") property, not a \(group) property (ignored)"
                )
            } else {
                warn(at: path, "unknown \(group) property '\(key)' for a \(type.rawValue) layer (ignored)")
            }
        }
    }

    private func decodeKind(_ type: LayerType, from properties: inout PropertyReader) throws(StyleError)
        -> StyleLayer.Kind
    {
        let reader = self
        let opacity = number(in: 0...1)
        let length = number(in: 0...Double.infinity)
        switch type {
        case .background:
            var background = BackgroundLayer()
            try properties.paint("background-color", into: &background.color, parse: reader.color)
            try properties.paint("background-opacity", into: &background.opacity, parse: opacity)
            background.pattern = try properties.paint(
                "background-pattern", fallback: ResolvedImage(named: ""), parse: reader.imageName)
            return .background(background)
        case .fill:
            var fill = FillLayer()
            try properties.paint("fill-color", into: &fill.color, parse: reader.color)
            try properties.paint("fill-opacity", into: &fill.opacity, parse: opacity)
            fill.outlineColor = try properties.paint("fill-outline-color", fallback: .transparent, parse: reader.color)
            try properties.paint("fill-antialias", into: &fill.antialias, parse: reader.boolean)
            try properties.paint("fill-translate", into: &fill.translate, isArrayTyped: true, parse: reader.translation)
            try properties.paint("fill-translate-anchor", into: &fill.translateAnchor, parse: reader.enumeration)
            fill.sortKey = try properties.layout("fill-sort-key", fallback: 0, parse: reader.number(_:at:))
            fill.pattern = try properties.paint(
                "fill-pattern", fallback: ResolvedImage(named: ""), parse: reader.imageName)
            return .fill(fill)
        case .line:
            var line = LineLayer()
            try properties.paint("line-color", into: &line.color, parse: reader.color)
            try properties.paint("line-width", into: &line.width, parse: length)
            try properties.paint("line-opacity", into: &line.opacity, parse: opacity)
            line.dashArray = try properties.paint(
                "line-dasharray", isArrayTyped: true, fallback: [1, 0], parse: reader.dashArray)
            try properties.layout("line-cap", into: &line.cap, parse: reader.enumeration)
            try properties.layout("line-join", into: &line.join, parse: reader.enumeration)
            try properties.layout("line-miter-limit", into: &line.miterLimit, parse: length)
            try properties.layout("line-round-limit", into: &line.roundLimit, parse: length)
            try properties.paint("line-offset", into: &line.offset, parse: reader.number(_:at:))
            try properties.paint("line-gap-width", into: &line.gapWidth, parse: length)
            try properties.paint("line-blur", into: &line.blur, parse: length)
            try properties.paint("line-translate", into: &line.translate, isArrayTyped: true, parse: reader.translation)
            try properties.paint("line-translate-anchor", into: &line.translateAnchor, parse: reader.enumeration)
            line.sortKey = try properties.layout("line-sort-key", fallback: 0, parse: reader.number(_:at:))
            line.pattern = try properties.paint(
                "line-pattern", fallback: ResolvedImage(named: ""), parse: reader.imageName)
            if let json = properties.paint["line-gradient"] {
                let path = properties.paintPath.appending("line-gradient")
                guard case .array = json else {
                    throw error(.invalidValue("'line-gradient' is an expression of [\"line-progress\"]"), at: path)
                }
                line.gradient = try expression(json, at: path, expecting: .color)
            }
            return .line(line)
        case .symbol:
            var symbol = SymbolLayer()
            if let value = properties.layout["text-field"] {
                symbol.textField = try properties.decoder.textField(
                    value, at: properties.layoutPath.appending("text-field"))
            }
            try properties.layout("text-size", into: &symbol.textSize, parse: length)
            try properties.layout("text-font", into: &symbol.textFont, isArrayTyped: true, parse: reader.fontList)
            try properties.layout("text-max-width", into: &symbol.textMaxWidth, parse: length)
            try properties.layout("text-transform", into: &symbol.textTransform, parse: reader.enumeration)
            try properties.layout("text-letter-spacing", into: &symbol.textLetterSpacing, parse: reader.number(_:at:))
            try properties.layout("symbol-placement", into: &symbol.placement, parse: reader.enumeration)
            try properties.layout("symbol-z-order", into: &symbol.zOrder, parse: reader.enumeration)
            try properties.layout("symbol-avoid-edges", into: &symbol.avoidEdges, parse: reader.boolean)
            try properties.layout(
                "symbol-spacing", into: &symbol.spacing, parse: reader.number(in: 1...Double.infinity))
            if let value = properties.layout["symbol-sort-key"] {
                symbol.sortKey = try sortKey(value, at: properties.layoutPath.appending("symbol-sort-key"))
            }
            try properties.paint("text-color", into: &symbol.textColor, parse: reader.color)
            try properties.paint("text-opacity", into: &symbol.textOpacity, parse: opacity)
            try properties.paint("text-halo-color", into: &symbol.textHaloColor, parse: reader.color)
            try properties.paint("text-halo-width", into: &symbol.textHaloWidth, parse: length)
            try properties.layout("text-padding", into: &symbol.textPadding, parse: length)
            try properties.layout("text-anchor", into: &symbol.textAnchor, parse: reader.enumeration)
            try properties.layout(
                "text-offset", into: &symbol.textOffset, isArrayTyped: true, parse: reader.translation)
            try properties.layout("text-justify", into: &symbol.textJustify, parse: reader.enumeration)
            try properties.layout(
                "text-variable-anchor", into: &symbol.textVariableAnchor, isArrayTyped: true, parse: reader.anchorList)
            try properties.layout(
                "text-writing-mode", into: &symbol.textWritingMode, isArrayTyped: true, parse: reader.writingModes)
            if properties.layout["text-radial-offset"] != nil {
                var radial: StyleValue<Double> = .constant(0)
                try properties.layout("text-radial-offset", into: &radial, parse: reader.number(_:at:))
                symbol.textRadialOffset = radial
            }
            if let value = properties.layout["text-variable-anchor-offset"] {
                symbol.textVariableAnchorOffset = try reader.variableAnchorOffsets(
                    value, at: properties.layoutPath.appending("text-variable-anchor-offset"))
            }
            try properties.layout("text-line-height", into: &symbol.textLineHeight, parse: reader.number(_:at:))
            try properties.layout("text-rotate", into: &symbol.textRotate, parse: reader.number(_:at:))
            try properties.layout("text-max-angle", into: &symbol.textMaxAngle, parse: reader.number(_:at:))
            try properties.layout("text-keep-upright", into: &symbol.textKeepUpright, parse: reader.boolean)
            try properties.layout(
                "text-rotation-alignment", into: &symbol.textRotationAlignment, parse: reader.enumeration)
            try properties.layout("text-pitch-alignment", into: &symbol.textPitchAlignment, parse: reader.enumeration)
            try properties.paint("text-halo-blur", into: &symbol.textHaloBlur, parse: length)
            try properties.paint(
                "text-translate", into: &symbol.textTranslate, isArrayTyped: true, parse: reader.translation)
            try properties.paint("text-translate-anchor", into: &symbol.textTranslateAnchor, parse: reader.enumeration)
            try properties.layout("text-allow-overlap", into: &symbol.textAllowOverlap, parse: reader.boolean)
            try properties.layout("text-ignore-placement", into: &symbol.textIgnorePlacement, parse: reader.boolean)
            try properties.layout("text-optional", into: &symbol.textOptional, parse: reader.boolean)
            try decodeIcon(into: &symbol, from: &properties)
            return .symbol(symbol)
        case .raster:
            return .raster(try decodeRasterLayer(from: &properties))
        case .circle:
            var circle = CircleLayer()
            try properties.paint("circle-radius", into: &circle.radius, parse: length)
            try properties.paint("circle-color", into: &circle.color, parse: reader.color)
            try properties.paint("circle-opacity", into: &circle.opacity, parse: opacity)
            try properties.paint("circle-blur", into: &circle.blur, parse: reader.number(_:at:))
            try properties.paint("circle-stroke-width", into: &circle.strokeWidth, parse: length)
            try properties.paint("circle-stroke-color", into: &circle.strokeColor, parse: reader.color)
            try properties.paint("circle-stroke-opacity", into: &circle.strokeOpacity, parse: opacity)
            try properties.paint(
                "circle-translate", into: &circle.translate, isArrayTyped: true, parse: reader.translation)
            try properties.paint("circle-translate-anchor", into: &circle.translateAnchor, parse: reader.enumeration)
            try properties.paint("circle-pitch-scale", into: &circle.pitchScale, parse: reader.enumeration)
            try properties.paint("circle-pitch-alignment", into: &circle.pitchAlignment, parse: reader.enumeration)
            circle.sortKey = try properties.layout("circle-sort-key", fallback: 0, parse: reader.number(_:at:))
            return .circle(circle)
        case .hillshade:
            return .hillshade(try decodeHillshadeLayer(from: &properties))
        case .heatmap:
            return .heatmap(try heatmapLayer(from: &properties))
        case .fillExtrusion:
            return .fillExtrusion(try fillExtrusionLayer(from: &properties))
        }
    }

    /// A symbol layer's `icon-*` properties.
    private func decodeIcon(into symbol: inout SymbolLayer, from properties: inout PropertyReader) throws(StyleError) {
        let reader = self
        if let value = properties.layout["icon-image"] {
            symbol.iconImage = try properties.decoder.textField(
                value, at: properties.layoutPath.appending("icon-image"))
        }
        try properties.layout("icon-size", into: &symbol.iconSize, parse: number(in: 0...Double.infinity))
        try properties.layout("icon-rotate", into: &symbol.iconRotate, parse: reader.number(_:at:))
        try properties.layout("icon-offset", into: &symbol.iconOffset, isArrayTyped: true, parse: reader.translation)
        try properties.layout("icon-anchor", into: &symbol.iconAnchor, parse: reader.enumeration)
        try properties.layout("icon-padding", into: &symbol.iconPadding, parse: number(in: 0...Double.infinity))
        try properties.layout("icon-text-fit", into: &symbol.iconTextFit, parse: reader.enumeration)
        try properties.layout(
            "icon-text-fit-padding", into: &symbol.iconTextFitPadding, isArrayTyped: true, parse: reader.fitPadding)
        try properties.layout("icon-allow-overlap", into: &symbol.iconAllowOverlap, parse: reader.boolean)
        try properties.layout("icon-ignore-placement", into: &symbol.iconIgnorePlacement, parse: reader.boolean)
        try properties.layout("icon-optional", into: &symbol.iconOptional, parse: reader.boolean)
        try properties.layout("icon-keep-upright", into: &symbol.iconKeepUpright, parse: reader.boolean)
        try properties.layout("icon-rotation-alignment", into: &symbol.iconRotationAlignment, parse: reader.enumeration)
        try properties.layout("icon-pitch-alignment", into: &symbol.iconPitchAlignment, parse: reader.enumeration)
        try properties.paint("icon-opacity", into: &symbol.iconOpacity, parse: number(in: 0...1))
        try properties.paint("icon-color", into: &symbol.iconColor, parse: reader.color)
        try properties.paint("icon-halo-color", into: &symbol.iconHaloColor, parse: reader.color)
        try properties.paint("icon-halo-width", into: &symbol.iconHaloWidth, parse: number(in: 0...Double.infinity))
        try properties.paint("icon-halo-blur", into: &symbol.iconHaloBlur, parse: number(in: 0...Double.infinity))
        try properties.paint(
            "icon-translate", into: &symbol.iconTranslate, isArrayTyped: true, parse: reader.translation)
        try properties.paint("icon-translate-anchor", into: &symbol.iconTranslateAnchor, parse: reader.enumeration)
    }

    private func sortKey(_ json: JSONValue, at path: StylePath) throws(StyleError) -> SymbolSortKey {
        switch json {
        case .number(let value):
            return .constant(value)
        case .array(let items) where items.count == 2 && items[0] == .string("get"):
            return .property(try string(items[1], at: path.appending(index: 1)))
        default:
            return .expression(try expression(json, at: path))
        }
    }

    static let layerKeys: Set<String> = [
        "id", "type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout", "paint", "metadata",
    ]

    /// The paint properties of each layer type in Mapwright's subset.
    static let paintProperties: [LayerType: Set<String>] = [
        .background: ["background-color", "background-opacity", "background-pattern"],
        .fill: [
            "fill-color", "fill-opacity", "fill-outline-color", "fill-antialias", "fill-translate",
            "fill-translate-anchor",
            "fill-pattern",
        ],
        .line: [
            "line-color", "line-width", "line-opacity", "line-dasharray", "line-offset", "line-gap-width", "line-blur",
            "line-translate", "line-translate-anchor", "line-gradient", "line-pattern",
        ],
        .symbol: [
            "text-color", "text-opacity", "text-halo-color", "text-halo-width", "text-halo-blur", "text-translate",
            "text-translate-anchor", "icon-opacity", "icon-color", "icon-halo-color",
            "icon-halo-width", "icon-halo-blur", "icon-translate", "icon-translate-anchor",
        ],
        .raster: StyleDecoder.rasterPaintProperties,
        .hillshade: StyleDecoder.hillshadePaintProperties,
        .circle: [
            "circle-radius", "circle-color", "circle-opacity", "circle-blur", "circle-stroke-width",
            "circle-stroke-color",
            "circle-stroke-opacity", "circle-translate", "circle-translate-anchor", "circle-pitch-scale",
            "circle-pitch-alignment",
        ],
        .heatmap: heatmapPaintProperties,
        .fillExtrusion: fillExtrusionPaintProperties,
    ]

    /// The layout properties of each layer type in Mapwright's subset.
    static let layoutProperties: [LayerType: Set<String>] = [
        .background: ["visibility"],
        .fill: ["visibility", "fill-sort-key"],
        .line: ["visibility", "line-cap", "line-join", "line-miter-limit", "line-round-limit", "line-sort-key"],
        .symbol: [
            "visibility", "text-field", "text-size", "text-font", "text-max-width", "text-transform",
            "text-letter-spacing", "symbol-sort-key", "symbol-placement", "symbol-spacing", "text-padding",
            "text-allow-overlap",
            "text-ignore-placement", "text-optional", "icon-image", "icon-size", "icon-rotate", "icon-offset",
            "icon-anchor",
            "icon-padding", "icon-text-fit", "icon-text-fit-padding", "icon-allow-overlap", "icon-ignore-placement",
            "icon-optional", "icon-keep-upright",
            "icon-rotation-alignment", "symbol-z-order", "text-anchor", "text-offset", "text-justify",
            "text-line-height", "text-rotate", "text-max-angle",
            "text-keep-upright", "text-rotation-alignment", "text-pitch-alignment", "icon-pitch-alignment",
            "text-variable-anchor", "text-radial-offset", "text-variable-anchor-offset", "symbol-avoid-edges",
            "text-writing-mode",
        ],
        .raster: ["visibility"],
        .circle: ["visibility", "circle-sort-key"],
        .hillshade: ["visibility"],
        .heatmap: ["visibility"],
        .fillExtrusion: ["visibility"],
    ]
}

/// Reads a layer's paint and layout properties into typed values.
struct PropertyReader {
    let paint: [String: JSONValue]
    let layout: [String: JSONValue]
    let paintPath: StylePath
    let layoutPath: StylePath
    /// Reads zoom functions and collects their warnings.
    var decoder: StyleDecoder

    init(
        decoder: StyleDecoder, paint: [String: JSONValue], layout: [String: JSONValue], paintPath: StylePath,
        layoutPath: StylePath
    ) {
        self.decoder = decoder
        self.paint = paint
        self.layout = layout
        self.paintPath = paintPath
        self.layoutPath = layoutPath
    }

    /// Overwrites `value` with the paint property when the layer sets it.
    mutating func paint<Value: StyleValueType>(
        _ key: String,
        into value: inout StyleValue<Value>,
        isArrayTyped: Bool = false,
        parse: StyleDecoder.ValueParser<Value>
    ) throws(StyleError) {
        if let parsed = try self.paint(key, isArrayTyped: isArrayTyped, fallback: value.value(atZoom: 0), parse: parse)
        {
            value = parsed
        }
    }

    /// The paint property, or nil when the layer does not set it.
    mutating func paint<Value: StyleValueType>(
        _ key: String,
        isArrayTyped: Bool = false,
        fallback: Value,
        parse: StyleDecoder.ValueParser<Value>
    ) throws(StyleError) -> StyleValue<Value>? {
        guard let json = paint[key] else { return nil }
        return try decoder.styleValue(
            json, at: paintPath.appending(key), isArrayTyped: isArrayTyped, fallback: fallback, parse: parse)
    }

    /// The layout property, or nil when the layer does not set it.
    mutating func layout<Value: StyleValueType>(
        _ key: String,
        fallback: Value,
        parse: StyleDecoder.ValueParser<Value>
    ) throws(StyleError) -> StyleValue<Value>? {
        guard let json = layout[key] else { return nil }
        return try decoder.styleValue(json, at: layoutPath.appending(key), fallback: fallback, parse: parse)
    }

    /// Overwrites `value` with the layout property when the layer sets it.
    mutating func layout<Value: StyleValueType>(
        _ key: String,
        into value: inout StyleValue<Value>,
        isArrayTyped: Bool = false,
        parse: StyleDecoder.ValueParser<Value>
    ) throws(StyleError) {
        guard let json = layout[key] else { return }
        value = try decoder.styleValue(
            json, at: layoutPath.appending(key), isArrayTyped: isArrayTyped, fallback: value.value(atZoom: 0),
            parse: parse)
    }
}
