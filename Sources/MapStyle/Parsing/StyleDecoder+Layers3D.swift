import Foundation
import MapJSON

extension StyleDecoder {
    static let heatmapPaintProperties: Set<String> = [
        "heatmap-radius", "heatmap-weight", "heatmap-intensity", "heatmap-color", "heatmap-opacity",
    ]

    static let fillExtrusionPaintProperties: Set<String> = [
        "fill-extrusion-color", "fill-extrusion-opacity", "fill-extrusion-height", "fill-extrusion-base",
        "fill-extrusion-vertical-gradient", "fill-extrusion-translate", "fill-extrusion-translate-anchor",
        "fill-extrusion-pattern",
    ]

    /// Reads a `heatmap` layer's paint; `heatmap-color` must be an expression (of
    /// `["heatmap-density"]`), as the specification has it.
    func heatmapLayer(from properties: inout PropertyReader) throws(StyleError) -> HeatmapLayer {
        var heatmap = HeatmapLayer()
        let reader = self
        try properties.paint("heatmap-radius", into: &heatmap.radius, parse: reader.number(in: 1...Double.infinity))
        try properties.paint("heatmap-weight", into: &heatmap.weight, parse: reader.number(in: 0...Double.infinity))
        try properties.paint(
            "heatmap-intensity", into: &heatmap.intensity, parse: reader.number(in: 0...Double.infinity))
        try properties.paint("heatmap-opacity", into: &heatmap.opacity, parse: reader.number(in: 0...1))
        if let json = properties.paint["heatmap-color"] {
            let path = properties.paintPath.appending("heatmap-color")
            guard case .array = json else {
                throw error(.invalidValue("'heatmap-color' is an expression of [\"heatmap-density\"]"), at: path)
            }
            heatmap.color = try expression(json, at: path, expecting: .color)
        }
        return heatmap
    }

    /// Reads a `fill-extrusion` layer's paint.
    func fillExtrusionLayer(from properties: inout PropertyReader) throws(StyleError) -> FillExtrusionLayer {
        var extrusion = FillExtrusionLayer()
        let reader = self
        try properties.paint("fill-extrusion-color", into: &extrusion.color, parse: reader.color)
        try properties.paint("fill-extrusion-opacity", into: &extrusion.opacity, parse: reader.number(in: 0...1))
        try properties.paint("fill-extrusion-height", into: &extrusion.height, parse: reader.number(_:at:))
        try properties.paint("fill-extrusion-base", into: &extrusion.base, parse: reader.number(_:at:))
        try properties.paint(
            "fill-extrusion-translate", into: &extrusion.translate, isArrayTyped: true, parse: reader.translation)
        try properties.paint(
            "fill-extrusion-translate-anchor", into: &extrusion.translateAnchor, parse: reader.enumeration)
        extrusion.pattern = try properties.paint(
            "fill-extrusion-pattern", fallback: ResolvedImage(named: ""), parse: reader.imageName)
        if let json = properties.paint["fill-extrusion-vertical-gradient"] {
            guard case .bool(let flag) = json else {
                throw error(
                    .invalidValue("'fill-extrusion-vertical-gradient' is true or false"),
                    at: properties.paintPath.appending("fill-extrusion-vertical-gradient"))
            }
            extrusion.verticalGradient = flag
        }
        return extrusion
    }

    /// Reads the root `light`; a zoom function is read at zoom 0.
    mutating func decodeLight(_ json: JSONValue, at path: StylePath) throws(StyleError) -> Light {
        let members = try object(json, at: path)
        reportUnknownKeys(members, known: ["anchor", "color", "intensity", "position"], at: path) {
            "unknown light property '\($0)' (ignored)"
        }
        let reader = self
        var light = Light()
        if let value = members["anchor"] { light.anchor = try enumeration(value, at: path.appending("anchor")) }
        if let value = members["color"] {
            light.color = try styleValue(value, at: path.appending("color"), fallback: .white, parse: reader.color)
                .value(atZoom: 0)
        }
        if let value = members["intensity"] {
            light.intensity = try styleValue(
                value, at: path.appending("intensity"), fallback: 0.5, parse: reader.number(in: 0...1)
            )
            .value(atZoom: 0)
        }
        if let value = members["position"] {
            let itemsPath = path.appending("position")
            let items = try array(value, at: itemsPath)
            guard items.count == 3 else {
                throw error(.invalidValue("'position' is [radial, azimuthal, polar]"), at: itemsPath)
            }
            light.position = (
                try number(items[0], at: itemsPath.appending(index: 0)),
                try number(items[1], at: itemsPath.appending(index: 1)),
                try number(items[2], at: itemsPath.appending(index: 2))
            )
        }
        return light
    }
}
