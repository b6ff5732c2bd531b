import Foundation
import MapRenderer

/// A test's style as JSON objects, changed by the test's operations before one render, with its
/// `local://` and `mapbox://` URLs pointing into the suite's folders as GL's harness serves them.
struct StyleDocument {
    var json: [String: Any]
    /// The suite's folder, for `local://`.
    let suite: URL
    /// The state the operations gave features (`setFeatureState`), for the render.
    var featureStates = FeatureStates()
    /// Images added at run time (`addImage`, less those `removeImage` took away), by name.
    var addedImages: [String: AddedImage] = [:]

    /// An image `addImage` adds: its file, pixel ratio and whether it is an SDF.
    struct AddedImage {
        let file: URL
        let pixelRatio: Double
        let sdf: Bool
    }
    /// The harness's clock, advanced by `wait` and `sleep`, in milliseconds.
    var clockMilliseconds = 0.0
    /// Paint properties and the light easing to their new values (see ``Transition``).
    var transitions: [Transition] = []

    init(data: Data, suite: URL) throws {
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw RunnerFailure("the style is not a JSON object")
        }
        self.json = json
        self.suite = suite
    }

    /// The test's `metadata.test`.
    var testMetadata: [String: Any] {
        ((json["metadata"] as? [String: Any])?["test"] as? [String: Any]) ?? [:]
    }

    /// The style's bytes with every `local://PATH` made `file://SUITE/PATH` (and `mapbox://` URLs
    /// the suite stands in for, the same way), for the style module to read.
    func resolvedData() throws -> Data {
        let data = try JSONSerialization.data(
            withJSONObject: Self.resolvingURLs(json, suite: suite), options: [.sortedKeys])
        return data
    }

    private static func resolvingURLs(_ value: Any, suite: URL) -> Any {
        switch value {
        case let text as String:
            var resolved = text
            if text.hasPrefix("local://") {
                resolved = "file://" + suite.appendingPathComponent(String(text.dropFirst(8))).path
            }
            if text.hasPrefix("mapbox://"), let local = mapboxURL(text, suite: suite) { resolved = local }
            return resolvedTileJSON(resolved, suite: suite) ?? resolved
        case let array as [Any]:
            return array.map { resolvingURLs($0, suite: suite) }
        case let object as [String: Any]:
            return object.mapValues { resolvingURLs($0, suite: suite) }
        default:
            return value
        }
    }

    /// A TileJSON of the suite's `tilesets/` folder copied with its own `local://` tile URLs
    /// resolved, as GL's harness serves them, into a folder of the temporary directory; nil for
    /// any other URL.
    private static func resolvedTileJSON(_ url: String, suite: URL) -> String? {
        let tilesets = suite.appendingPathComponent("tilesets").path + "/"
        guard url.hasPrefix("file://" + tilesets) else { return nil }
        let file = URL(fileURLWithPath: String(url.dropFirst("file://".count)))
        guard let data = try? Data(contentsOf: file), let json = try? JSONSerialization.jsonObject(with: data),
            let resolved = try? JSONSerialization.data(
                withJSONObject: resolvingURLs(json, suite: suite), options: [.sortedKeys])
        else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapwright-conformance-tilejson")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent(file.deletingPathExtension().lastPathComponent + ".json")
        if (try? Data(contentsOf: copy)) != resolved { try? resolved.write(to: copy, options: .atomic) }
        return "file://" + copy.path
    }

    /// `mapbox://` URLs of the suite's older tests, as GL's harness maps them to its files:
    /// `mapbox://sprites/mapbox/bright-v9` → `sprites/bright-v9`, `mapbox://fonts/...` → `glyphs/...`,
    /// `mapbox://mapbox.satellite` → `tilesets/satellite.json`-style names when the file exists.
    private static func mapboxURL(_ text: String, suite: URL) -> String? {
        let rest = String(text.dropFirst("mapbox://".count))
        let candidates: [String]
        if rest.hasPrefix("sprites/mapbox/") {
            candidates = ["sprites/" + rest.dropFirst("sprites/mapbox/".count)]
        } else if rest.hasPrefix("fonts/mapbox/") {
            candidates = ["glyphs/" + rest.dropFirst("fonts/mapbox/".count)]
        } else {
            candidates = ["tilesets/\(rest).json", "tilesets/\(rest)"]
        }
        for candidate in candidates
        where FileManager.default.fileExists(atPath: suite.appendingPathComponent(candidate).path) {
            return "file://" + suite.appendingPathComponent(candidate).path
        }
        return "file://" + suite.appendingPathComponent(candidates[0]).path
    }

    // MARK: - Operations

    /// Applies the test's operations in order, as far as a style can hold them: the runtime
    /// steps that change the style or the view before the one render. `wait` and `sleep` with
    /// a time advance a clock that paint and light transitions run on (see ``Transition``);
    /// otherwise every render is whole.
    ///
    /// - Throws: ``RunnerFailure`` naming the first operation that cannot be applied (images
    ///   added at runtime...): the test cannot be run faithfully.
    mutating func apply(_ operations: [[Any]]) throws {
        for operation in operations {
            guard let name = operation.first as? String else { throw RunnerFailure("an operation without a name") }
            let arguments = Array(operation.dropFirst())
            switch name {
            case "wait", "sleep", "idle":
                advanceClock(by: name == "idle" ? nil : (arguments.first as? NSNumber)?.doubleValue)
            case "setPaintProperty", "setLayoutProperty":
                guard arguments.count >= 3, let layerID = arguments[0] as? String,
                    let property = arguments[1] as? String
                else {
                    throw RunnerFailure("\(name) needs a layer, a property and a value")
                }
                if name == "setPaintProperty", !(arguments[2] is NSNull) {
                    let layer = ((json["layers"] as? [Any]) ?? []).lazy.compactMap { $0 as? [String: Any] }.first {
                        $0["id"] as? String == layerID
                    }
                    recordPaintTransition(
                        layerID: layerID, property: property, from: (layer?["paint"] as? [String: Any])?[property],
                        to: arguments[2])
                }
                try changeLayer(layerID) { layer in
                    let group = name == "setPaintProperty" ? "paint" : "layout"
                    var properties = (layer[group] as? [String: Any]) ?? [:]
                    if arguments[2] is NSNull {
                        properties[property] = nil
                    } else {
                        properties[property] = arguments[2]
                    }
                    layer[group] = properties
                }
            case "setFilter":
                guard let layerID = arguments.first as? String else { throw RunnerFailure("setFilter needs a layer") }
                try changeLayer(layerID) { layer in
                    if arguments.count < 2 || arguments[1] is NSNull {
                        layer["filter"] = nil
                    } else {
                        layer["filter"] = arguments[1]
                    }
                }
            case "setLayerZoomRange":
                guard arguments.count >= 3, let layerID = arguments[0] as? String else {
                    throw RunnerFailure("setLayerZoomRange needs a layer and two zooms")
                }
                try changeLayer(layerID) { layer in
                    layer["minzoom"] = arguments[1] is NSNull ? nil : arguments[1]
                    layer["maxzoom"] = arguments[2] is NSNull ? nil : arguments[2]
                }
            case "addLayer":
                guard let layer = arguments.first as? [String: Any] else {
                    throw RunnerFailure("addLayer needs a layer")
                }
                var layers = (json["layers"] as? [Any]) ?? []
                if arguments.count > 1, let before = arguments[1] as? String,
                    let index = layers.firstIndex(where: { (($0 as? [String: Any])?["id"] as? String) == before })
                {
                    layers.insert(layer, at: index)
                } else {
                    layers.append(layer)
                }
                json["layers"] = layers
            case "removeLayer":
                guard let layerID = arguments.first as? String else { throw RunnerFailure("removeLayer needs a layer") }
                json["layers"] = ((json["layers"] as? [Any]) ?? []).filter {
                    (($0 as? [String: Any])?["id"] as? String) != layerID
                }
            case "addSource":
                guard arguments.count >= 2, let id = arguments[0] as? String else {
                    throw RunnerFailure("addSource needs an id and a source")
                }
                var sources = (json["sources"] as? [String: Any]) ?? [:]
                sources[id] = arguments[1]
                json["sources"] = sources
            case "removeSource":
                guard let id = arguments.first as? String else { throw RunnerFailure("removeSource needs an id") }
                var sources = (json["sources"] as? [String: Any]) ?? [:]
                sources[id] = nil
                json["sources"] = sources
            case "setFeatureState", "removeFeatureState":
                try applyFeatureState(name, arguments)
            case "setStyle":
                try replaceStyle(with: arguments.first)
            case "setZoom":
                json["zoom"] = arguments.first
            case "setCenter":
                json["center"] = arguments.first
            case "setBearing":
                json["bearing"] = arguments.first
            case "setPitch":
                json["pitch"] = arguments.first
            case "setLight":
                recordLightTransition(from: json["light"], to: arguments.first)
                json["light"] = arguments.first
            case "addImage":
                guard arguments.count >= 2, let id = arguments[0] as? String, let path = arguments[1] as? String else {
                    throw RunnerFailure("addImage needs a name and an image file")
                }
                let options = arguments.count > 2 ? (arguments[2] as? [String: Any]) ?? [:] : [:]
                addedImages[id] = AddedImage(
                    file: suite.appendingPathComponent(path),
                    pixelRatio: (options["pixelRatio"] as? NSNumber)?.doubleValue ?? 1,
                    sdf: (options["sdf"] as? Bool) ?? false)
            case "removeImage":
                guard let id = arguments.first as? String else { throw RunnerFailure("removeImage needs a name") }
                addedImages[id] = nil
            case "setGlobalStateProperty":
                guard arguments.count >= 2, let key = arguments[0] as? String else {
                    throw RunnerFailure("setGlobalStateProperty needs a name and a value")
                }
                var state = (json["state"] as? [String: Any]) ?? [:]
                var entry = (state[key] as? [String: Any]) ?? [:]
                entry["default"] = arguments[1]
                state[key] = entry
                json["state"] = state
            default:
                throw RunnerFailure("the operation \(name) is not applied before a render")
            }
        }
        try applyTransitions()
    }

    /// Replaces the style, keeping the test's metadata and a placed camera: `setStyle` with a
    /// style or a `local://` URL.
    private mutating func replaceStyle(with argument: Any?) throws {
        var replacement: [String: Any]
        if let style = argument as? [String: Any] {
            replacement = style
        } else if let url = argument as? String, url.hasPrefix("local://") {
            let file = suite.appendingPathComponent(String(url.dropFirst(8)))
            guard let data = try? Data(contentsOf: file),
                let style = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else {
                throw RunnerFailure("setStyle: \(url) cannot be read")
            }
            replacement = style
        } else {
            throw RunnerFailure("setStyle needs a style or a local:// URL")
        }
        replacement["metadata"] = json["metadata"]
        // GL moves the camera to a new style's only while the map's camera is as it started
        // (its transform "unmodified"): a first style, or the operations, that placed the
        // camera keep it.
        let camera = ["center", "zoom", "bearing", "pitch"]
        let center = (json["center"] as? [NSNumber])?.map(\.doubleValue) ?? [0, 0]
        let placed =
            center.contains { $0 != 0 }
            || ["zoom", "bearing", "pitch"].contains { ((json[$0] as? NSNumber)?.doubleValue ?? 0) != 0 }
        if placed {
            for key in camera { replacement[key] = json[key] }
        }
        json = replacement
    }

    mutating func changeLayer(_ id: String, _ change: (inout [String: Any]) -> Void) throws {
        var layers = (json["layers"] as? [Any]) ?? []
        guard let index = layers.firstIndex(where: { (($0 as? [String: Any])?["id"] as? String) == id }),
            var layer = layers[index] as? [String: Any]
        else {
            throw RunnerFailure("no layer '\(id)' to change")
        }
        change(&layer)
        layers[index] = layer
        json["layers"] = layers
    }
}
