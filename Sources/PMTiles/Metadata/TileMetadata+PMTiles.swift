import Foundation
import MapCore
public import MapJSON
public import TileSources

/// A PMTiles archive's JSON metadata (specification chapter 5) as ``TileSources/TileMetadata``.
///
/// The object's members are `name`, `format`, `bounds` (`[west, south, east, north]`), `center`
/// (`[longitude, latitude, zoom]`), `minzoom`, `maxzoom`, `attribution`, `description`, `type`,
/// `version` and `vector_layers` (which MBTiles keeps inside its `json` row, and so does
/// ``TileSources/TileMetadata/json``); any other member is kept in
/// ``TileSources/TileMetadata/otherValues``, a string as it is and anything else as JSON text.
/// Reading is lenient: `bounds` and `center` written as MBTiles writes them (`"-180,-85,180,85"`)
/// are read too, and a member of an unexpected kind is kept with the other values rather than
/// refused. The header also holds the bounds, center and zooms, and is what readers go by; a
/// ``PMTilesWriter`` fills both from the same values.
extension TileMetadata {
    /// The metadata of an archive's JSON object; see the extension's documentation for how each
    /// member is read.
    public init(pmtilesJSON object: [String: JSONValue]) {
        var others = object
        func take<T>(_ key: String, _ read: (JSONValue) -> T?) -> T? {
            guard let value = object[key], let typed = read(value) else { return nil }
            others[key] = nil
            return typed
        }
        self.init()
        name = take("name") { $0.text }
        format = take("format") { $0.text.flatMap(TileFormat.init(metadataValue:)) }
        bounds = take("bounds") { Self.numbers($0, count: 4) }.map {
            BoundingBox(west: $0[0], south: $0[1], east: $0[2], north: $0[3])
        }
        center = take("center") { Self.numbers($0, count: 3) }.flatMap { view in
            Int(exactly: view[2].rounded()).map { Center(longitude: view[0], latitude: view[1], zoom: $0) }
        }
        minZoom = take("minzoom") { Self.integer($0) }
        maxZoom = take("maxzoom") { Self.integer($0) }
        attribution = take("attribution") { $0.text }
        description = take("description") { $0.text }
        type = take("type") { $0.text.flatMap { LayerType(rawValue: $0.lowercased()) } }
        version = take("version") { $0.text }
        json = take("vector_layers") { value in
            if case .array = value { return Self.jsonText(.object(["vector_layers": value])) }
            return nil
        }
        otherValues = others.mapValues { $0.text ?? Self.jsonText($0) }
    }

    /// The metadata as an archive's JSON object: a member for every value that is not nil, the
    /// members of the ``TileSources/TileMetadata/json`` object (`vector_layers`…) at the top level,
    /// and the other values as strings (a typed value wins over an other value of the same key).
    public var pmtilesJSON: [String: JSONValue] {
        var object = otherValues.mapValues(JSONValue.string)
        if let json, let parsed = try? JSONValue.parse(Data(json.utf8)), case .object(let members) = parsed {
            for (key, value) in members { object[key] = value }
        }
        func set(_ key: String, _ value: JSONValue?) {
            if let value { object[key] = value }
        }
        set("name", name.map(JSONValue.string))
        set("format", format.map { .string($0.rawValue) })
        set("bounds", bounds.map { .array([$0.west, $0.south, $0.east, $0.north].map(JSONValue.number)) })
        set("center", center.map { .array([.number($0.longitude), .number($0.latitude), .number(Double($0.zoom))]) })
        set("minzoom", minZoom.map { .number(Double($0)) })
        set("maxzoom", maxZoom.map { .number(Double($0)) })
        set("attribution", attribution.map(JSONValue.string))
        set("description", description.map(JSONValue.string))
        set("type", type.map { .string($0.rawValue) })
        set("version", version.map(JSONValue.string))
        return object
    }

    /// The JSON text's UTF-8 bytes: compact, members sorted by key.
    var pmtilesJSONBytes: [UInt8] {
        var writer = JSONWriter()
        writer.value(.object(pmtilesJSON))
        return writer.bytes
    }

    /// A JSON value as compact text.
    private static func jsonText(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.value(value)
        return writer.text
    }

    /// `count` finite numbers: a JSON array of numbers, or text of numbers separated by commas
    /// as MBTiles writes them; nil for anything else.
    private static func numbers(_ value: JSONValue, count: Int) -> [Double]? {
        let parts: [Double?]
        switch value {
        case .array(let elements):
            parts = elements.map { if case .number(let number) = $0 { number } else { nil } }
        case .string(let text):
            parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        default:
            return nil
        }
        guard parts.count == count, parts.allSatisfy({ $0?.isFinite == true }) else { return nil }
        return parts.map { $0! }
    }

    /// A whole number, or text of one; nil for anything else.
    private static func integer(_ value: JSONValue) -> Int? {
        switch value {
        case .number(let number): number.isFinite ? Int(exactly: number) : nil
        case .string(let text): Int(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }
}
