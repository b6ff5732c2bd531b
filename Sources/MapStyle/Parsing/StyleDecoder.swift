import Foundation
import MapCore
import MapJSON

/// Reads a style document into a ``Style``, collecting warnings for what it ignores and
/// throwing ``StyleError``s located at the file and JSON path of the first value it cannot use.
struct StyleDecoder {
    /// The file name shown in messages, if the style came from a file.
    let file: String?
    /// The directory relative paths in sources are resolved against.
    let baseURL: URL?
    /// What was ignored, in document order (object keys sorted).
    var warnings: [StyleWarning] = []
    /// The root `state` defaults, which `global-state` expressions read.
    var globalState: [String: ExpressionValue] = [:]

    init(file: String?, baseURL: URL?, globalState: [String: ExpressionValue] = [:]) {
        self.file = file
        self.baseURL = baseURL
        self.globalState = globalState
    }

    // MARK: - Diagnostics

    mutating func warn(at path: StylePath, _ message: String) {
        warnings.append(StyleWarning(file: file, path: path.description, message: message))
    }

    func error(_ kind: StyleError.Kind, at path: StylePath) -> StyleError {
        StyleError(kind, file: file, path: path.isRoot ? nil : path.description)
    }

    // MARK: - JSON types

    func object(_ value: JSONValue, at path: StylePath) throws(StyleError) -> [String: JSONValue] {
        guard case .object(let members) = value else { throw wrongType("an object", value, at: path) }
        return members
    }

    func array(_ value: JSONValue, at path: StylePath) throws(StyleError) -> [JSONValue] {
        guard case .array(let items) = value else { throw wrongType("an array", value, at: path) }
        return items
    }

    func string(_ value: JSONValue, at path: StylePath) throws(StyleError) -> String {
        guard case .string(let text) = value else { throw wrongType("a string", value, at: path) }
        return text
    }

    func number(_ value: JSONValue, at path: StylePath) throws(StyleError) -> Double {
        guard case .number(let number) = value else { throw wrongType("a number", value, at: path) }
        return number
    }

    /// A number in a closed range; `what` names it in the message.
    func number(_ value: JSONValue, in range: ClosedRange<Double>, at path: StylePath) throws(StyleError) -> Double {
        let number = try number(value, at: path)
        guard range.contains(number) else {
            let bounds =
                range.upperBound == .infinity
                ? "at least \(JSONValue.number(range.lowerBound).jsonText)"
                : "in [\(JSONValue.number(range.lowerBound).jsonText), \(JSONValue.number(range.upperBound).jsonText)]"
            throw error(.invalidValue("\(value.jsonText) is out of range: expected a number \(bounds)"), at: path)
        }
        return number
    }

    func integer(_ value: JSONValue, in range: ClosedRange<Int>, at path: StylePath) throws(StyleError) -> Int {
        let number = try number(value, in: Double(range.lowerBound)...Double(range.upperBound), at: path)
        guard number.rounded() == number else {
            throw error(.invalidValue("\(value.jsonText) is not a whole number"), at: path)
        }
        return Int(number)
    }

    func wrongType(_ expected: String, _ value: JSONValue, at path: StylePath) -> StyleError {
        let found = value.kindDescription + (value.jsonText.count <= 40 ? " (\(value.jsonText))" : "")
        return error(.wrongType(expected: expected, found: found), at: path)
    }

    /// Warns about each member of an object whose key is not in `known`; `describe` phrases it.
    mutating func reportUnknownKeys(
        _ members: [String: JSONValue],
        known: Set<String>,
        at path: StylePath,
        describe: (String) -> String
    ) {
        for key in members.keys.sorted() where !known.contains(key) {
            warn(at: path, describe(key))
        }
    }

    // MARK: - Root

    /// Reads the whole document.
    mutating func decodeStyle(_ json: JSONValue, id: String) throws(StyleError) -> Style {
        let root = try object(json, at: .root)
        reportUnknownKeys(
            root, known: StyleDecoder.rootKeys.union(StyleDecoder.ignoredRootKeys).union(StyleDecoder.editorRootKeys),
            at: .root
        ) {
            "unknown root key '\($0)' (ignored)"
        }
        for key in root.keys.sorted() where StyleDecoder.ignoredRootKeys.contains(key) {
            warn(at: .root, "'\(key)' is not used by Mapwright (ignored)")
        }

        guard let version = root["version"] else { throw error(.missingKey("version"), at: .root) }
        guard case .number(8) = version else {
            throw error(.unsupportedVersion(version.jsonText), at: StylePath.root.appending("version"))
        }
        let name = try root["name"].map { value throws(StyleError) in
            try string(value, at: StylePath.root.appending("name"))
        }

        var mapwright = MapwrightMetadata()
        if let metadata = root["metadata"] {
            let path = StylePath.root.appending("metadata")
            if let section = try object(metadata, at: path)["mapwright"] {
                mapwright = try decodeMapwright(section, at: path.appending("mapwright"))
            }
        }

        if let state = root["state"] {
            globalState = try decodeGlobalState(state, at: StylePath.root.appending("state"))
        }

        guard let sourcesJSON = root["sources"] else { throw error(.missingKey("sources"), at: .root) }
        let sources = try decodeSources(sourcesJSON, at: StylePath.root.appending("sources"))

        guard let layersJSON = root["layers"] else { throw error(.missingKey("layers"), at: .root) }
        let layers = try decodeLayers(layersJSON, sources: sources, at: StylePath.root.appending("layers"))

        let sky =
            try root["sky"].map { json throws(StyleError) in try decodeSky(json, at: StylePath.root.appending("sky")) }
            ?? Sky()

        var style = Style(id: id, name: name, sources: sources, layers: layers, mapwright: mapwright, sky: sky)
        if let light = root["light"] { style.light = try decodeLight(light, at: StylePath.root.appending("light")) }
        if let sprite = root["sprite"] {
            style.sprites = try decodeSprites(sprite, at: StylePath.root.appending("sprite"))
        }
        if let glyphs = root["glyphs"] {
            style.glyphs = try decodeGlyphs(glyphs, at: StylePath.root.appending("glyphs"))
        }
        style.camera = try decodeCamera(root)
        return style
    }

    /// Reads the root `center`, `zoom`, `bearing` and `pitch`; nil without `center`.
    private func decodeCamera(_ root: [String: JSONValue]) throws(StyleError) -> StyleCamera? {
        guard let centerJSON = root["center"] else { return nil }
        let path = StylePath.root.appending("center")
        guard case .array(let pair) = centerJSON, pair.count == 2 else {
            throw error(.invalidValue("center is [longitude, latitude]"), at: path)
        }
        let longitude = try number(pair[0], in: -180...180, at: path.appending(index: 0))
        let latitude = try number(pair[1], in: -90...90, at: path.appending(index: 1))
        guard let center = try? Coordinate(latitude: latitude, longitude: longitude) else {
            throw error(.invalidValue("center [\(longitude), \(latitude)] is not a place on the map"), at: path)
        }
        var camera = StyleCamera(center: center)
        if let zoom = root["zoom"] {
            camera.zoomLevel = try number(zoom, in: 0...24, at: StylePath.root.appending("zoom"))
        }
        if let bearing = root["bearing"] {
            camera.headingDegrees = try number(bearing, at: StylePath.root.appending("bearing"))
        }
        if let pitch = root["pitch"] {
            camera.pitchDegrees = try number(pitch, in: 0...85, at: StylePath.root.appending("pitch"))
        }
        return camera
    }

    /// Reads the root `sky`: its colours and blends, each a constant or a zoom function; the
    /// fog and atmosphere properties Mapwright does not draw are warned about.
    private mutating func decodeSky(_ json: JSONValue, at path: StylePath) throws(StyleError) -> Sky {
        let members = try object(json, at: path)
        let known: Set<String> = ["sky-color", "horizon-color", "fog-color", "sky-horizon-blend", "fog-ground-blend"]
        let unused: Set<String> = ["horizon-fog-blend", "atmosphere-blend"]
        reportUnknownKeys(members, known: known.union(unused), at: path) { "unknown sky property '\($0)' (ignored)" }
        for key in members.keys.sorted() where unused.contains(key) {
            warn(at: path, "'\(key)' is not used by Mapwright (ignored)")
        }
        let reader = self
        func color(_ key: String) throws(StyleError) -> StyleValue<Color>? {
            guard let value = members[key] else { return nil }
            return try styleValue(value, at: path.appending(key), fallback: .white, parse: reader.color)
        }
        func fraction(_ key: String) throws(StyleError) -> StyleValue<Double>? {
            guard let value = members[key] else { return nil }
            return try styleValue(value, at: path.appending(key), fallback: 0.5, parse: reader.number(in: 0...1))
        }
        var sky = Sky()
        sky.skyColor = try color("sky-color")
        sky.horizonColor = try color("horizon-color")
        sky.fogColor = try color("fog-color")
        sky.skyHorizonBlend = try fraction("sky-horizon-blend")
        sky.fogGroundBlend = try fraction("fog-ground-blend")
        return sky
    }

    /// Reads the root `sprite`: a URL or path (the sprite `default`), or an array of `{id, url}`
    /// with distinct ids. Paths are resolved against the style's folder.
    private mutating func decodeSprites(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [SpriteReference] {
        func location(_ text: String) -> URL {
            text.hasPrefix("http://") || text.hasPrefix("https://")
                ? URL(string: text) ?? StyleLocation.fileURL(text, relativeTo: baseURL)
                : StyleLocation.fileURL(text, relativeTo: baseURL)
        }
        if case .string(let text) = json { return [SpriteReference(id: "default", url: location(text))] }
        guard case .array(let items) = json else {
            throw error(
                .wrongType(
                    expected: "a sprite's path or URL, or an array of {\"id\", \"url\"}", found: json.kindDescription),
                at: path)
        }
        var sprites: [SpriteReference] = []
        for (index, item) in items.enumerated() {
            let itemPath = path.appending(index: index)
            let members = try object(item, at: itemPath)
            reportUnknownKeys(members, known: ["id", "url"], at: itemPath) { "unknown sprite key '\($0)' (ignored)" }
            guard let idJSON = members["id"] else { throw error(.missingKey("id"), at: itemPath) }
            guard let urlJSON = members["url"] else { throw error(.missingKey("url"), at: itemPath) }
            let id = try string(idJSON, at: itemPath.appending("id"))
            guard !sprites.contains(where: { $0.id == id }) else {
                throw error(.invalidValue("the sprite id '\(id)' is used twice"), at: itemPath.appending("id"))
            }
            sprites.append(SpriteReference(id: id, url: location(try string(urlJSON, at: itemPath.appending("url")))))
        }
        return sprites
    }

    /// Reads the root `glyphs`: a URL template with `{fontstack}` and `{range}`; a path or
    /// `file://` URL is resolved against the style's folder, other URLs are kept as written.
    private func decodeGlyphs(_ json: JSONValue, at path: StylePath) throws(StyleError) -> String {
        let text = try string(json, at: path)
        guard !text.contains("://") || text.hasPrefix("file://") else { return text }
        var reference = text
        if reference.hasPrefix("file://") {
            reference = String(reference.dropFirst(7)).removingPercentEncoding ?? String(reference.dropFirst(7))
        }
        // The placeholders survive the path's resolution as plain names.
        let fontstack = "\u{1}fontstack\u{1}"
        let range = "\u{1}range\u{1}"
        reference = reference.replacingOccurrences(of: "{fontstack}", with: fontstack).replacingOccurrences(
            of: "{range}", with: range)
        return StyleLocation.fileURL(reference, relativeTo: baseURL).path
            .replacingOccurrences(of: fontstack, with: "{fontstack}").replacingOccurrences(of: range, with: "{range}")
    }

    static let rootKeys: Set<String> = [
        "version", "name", "metadata", "sources", "layers", "sky", "light", "state", "sprite", "glyphs", "center",
        "zoom", "bearing", "pitch",
    ]

    /// Root keys of the MapLibre Style Specification that Mapwright does not use, and the
    /// bookkeeping keys style editors write (Mapbox Studio and MapTiler's `id`, `owner`, `created`,
    /// `modified`, `draft`, `visibility`, `protected`), which GL's validator lets through too:
    /// OpenMapTiles' published styles carry an `id`.
    static let ignoredRootKeys: Set<String> = ["roll", "centerAltitude", "transition", "terrain", "projection"]

    /// The bookkeeping keys style editors write (Mapbox Studio and MapTiler's `id`, `owner`,
    /// `created`, `modified`, `draft`, `visibility`, `protected`): nothing to draw, passed over in
    /// silence as GL's validator does (OpenMapTiles' published styles carry an `id`).
    static let editorRootKeys: Set<String> = ["id", "owner", "created", "modified", "draft", "visibility", "protected"]
}
