import Foundation
import MapJSON

extension StyleDecoder {
    /// Reads `metadata.mapwright`; see ``MapwrightMetadata`` for its keys and defaults.
    mutating func decodeMapwright(_ json: JSONValue, at path: StylePath) throws(StyleError) -> MapwrightMetadata {
        let members = try object(json, at: path)
        reportUnknownKeys(members, known: ["pins", "callout", "overlay", "cluster", "attribution", "labels"], at: path)
        {
            "unknown Mapwright section '\($0)' (ignored)"
        }
        var metadata = MapwrightMetadata()
        if let json = members["pins"] {
            var section = try MetadataSection(
                json,
                keys: [
                    "palette", "default", "stroke-color", "shadow-color",
                    "shadow-opacity", "selected-scale",
                ], decoder: &self, at: path.appending("pins"))
            try section.colors("palette", into: &metadata.pins.palette)
            try section.color("default", into: &metadata.pins.defaultColor)
            try section.color("stroke-color", into: &metadata.pins.strokeColor)
            try section.color("shadow-color", into: &metadata.pins.shadowColor)
            try section.number("shadow-opacity", in: 0...1, into: &metadata.pins.shadowOpacity)
            try section.number("selected-scale", in: 1...4, into: &metadata.pins.selectedScale)
        }
        if let json = members["callout"] {
            var section = try MetadataSection(
                json,
                keys: [
                    "title-font", "title-size", "subtitle-font", "subtitle-size",
                    "background", "text-color", "subtitle-color", "max-width", "corner-radius", "accessory-color",
                ],
                decoder: &self, at: path.appending("callout"))
            try section.string("title-font", into: &metadata.callout.titleFont)
            try section.number("title-size", in: 1...200, into: &metadata.callout.titleSize)
            try section.string("subtitle-font", into: &metadata.callout.subtitleFont)
            try section.number("subtitle-size", in: 1...200, into: &metadata.callout.subtitleSize)
            try section.color("background", into: &metadata.callout.background)
            try section.color("text-color", into: &metadata.callout.textColor)
            try section.color("subtitle-color", into: &metadata.callout.subtitleColor)
            try section.number("max-width", in: 1...10_000, into: &metadata.callout.maxWidth)
            try section.number("corner-radius", in: 0...1_000, into: &metadata.callout.cornerRadius)
            try section.color("accessory-color", into: &metadata.callout.accessoryColor)
        }
        if let json = members["overlay"] {
            var section = try MetadataSection(
                json,
                keys: [
                    "line-color", "line-width", "fill-color", "circle-fill-color",
                    "circle-line-color", "circle-radius", "accuracy-fill-color",
                ], decoder: &self, at: path.appending("overlay"))
            try section.color("line-color", into: &metadata.overlay.lineColor)
            try section.number("line-width", in: 0...1_000, into: &metadata.overlay.lineWidth)
            try section.color("fill-color", into: &metadata.overlay.fillColor)
            try section.color("circle-fill-color", into: &metadata.overlay.circleFillColor)
            try section.color("circle-line-color", into: &metadata.overlay.circleLineColor)
            try section.number("circle-radius", in: 0...1_000, into: &metadata.overlay.circleRadius)
            try section.color("accuracy-fill-color", into: &metadata.overlay.accuracyFillColor)
        }
        if let json = members["cluster"] {
            var section = try MetadataSection(
                json,
                keys: [
                    "fill-color", "text-color", "font", "text-size", "min-radius",
                    "max-radius",
                ], decoder: &self, at: path.appending("cluster"))
            try section.color("fill-color", into: &metadata.cluster.fillColor)
            try section.color("text-color", into: &metadata.cluster.textColor)
            try section.string("font", into: &metadata.cluster.font)
            try section.number("text-size", in: 1...200, into: &metadata.cluster.textSize)
            try section.number("min-radius", in: 1...1_000, into: &metadata.cluster.minRadius)
            try section.number("max-radius", in: 1...1_000, into: &metadata.cluster.maxRadius)
            if metadata.cluster.minRadius > metadata.cluster.maxRadius {
                throw error(.invalidValue("min-radius is larger than max-radius"), at: path.appending("cluster"))
            }
        }
        if let json = members["attribution"] {
            var section = try MetadataSection(
                json, keys: ["text", "color"], decoder: &self, at: path.appending("attribution"))
            var text = ""
            try section.string("text", into: &text)
            metadata.attribution.text = section.has("text") ? text : nil
            try section.color("color", into: &metadata.attribution.color)
        }
        if let json = members["labels"] {
            var section = try MetadataSection(
                json, keys: ["collision-padding", "placement"], decoder: &self, at: path.appending("labels"))
            try section.number("collision-padding", in: 0...1_000, into: &metadata.labels.collisionPadding)
            if section.has("placement") {
                var name = ""
                try section.string("placement", into: &name)
                guard let placement = MapwrightMetadata.Labels.Placement(rawValue: name) else {
                    let names = MapwrightMetadata.Labels.Placement.allCases.map { "'\($0.rawValue)'" }.joined(
                        separator: " or ")
                    throw error(
                        .invalidValue("placement is \(names), found '\(name)'"),
                        at: path.appending("labels").appending("placement"))
                }
                metadata.labels.placement = placement
            }
        }
        return metadata
    }
}

/// One object of `metadata.mapwright`, read key by key into typed settings.
private struct MetadataSection {
    let members: [String: JSONValue]
    let path: StylePath
    let decoder: StyleDecoder

    /// Reads the object and warns about keys outside `keys`.
    init(_ json: JSONValue, keys: Set<String>, decoder: inout StyleDecoder, at path: StylePath) throws(StyleError) {
        members = try decoder.object(json, at: path)
        self.path = path
        decoder.reportUnknownKeys(members, known: keys, at: path) { "unknown key '\($0)' (ignored)" }
        self.decoder = decoder
    }

    func has(_ key: String) -> Bool { members[key] != nil }

    mutating func color(_ key: String, into value: inout Color) throws(StyleError) {
        if let json = members[key] { value = try decoder.color(json, at: path.appending(key)) }
    }

    mutating func colors(_ key: String, into value: inout [Color]) throws(StyleError) {
        guard let json = members[key] else { return }
        let listPath = path.appending(key)
        var colors: [Color] = []
        for (index, item) in try decoder.array(json, at: listPath).enumerated() {
            colors.append(try decoder.color(item, at: listPath.appending(index: index)))
        }
        guard !colors.isEmpty else {
            throw decoder.error(.invalidValue("the palette needs at least one colour"), at: listPath)
        }
        value = colors
    }

    mutating func number(_ key: String, in range: ClosedRange<Double>, into value: inout Double) throws(StyleError) {
        if let json = members[key] { value = try decoder.number(json, in: range, at: path.appending(key)) }
    }

    mutating func string(_ key: String, into value: inout String) throws(StyleError) {
        if let json = members[key] { value = try decoder.string(json, at: path.appending(key)) }
    }
}
