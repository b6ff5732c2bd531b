import Foundation
public import MapCore
public import MapJSON

/// The JSON metadata of a PMTiles archive (specification chapter 5), typed: the keys MBTiles
/// metadata holds, written as TileJSON writes them, so a tileset converted between the two
/// keeps its name, attribution and the rest.
///
/// The object's members are `name`, `format`, `bounds` (`[west, south, east, north]`),
/// `center` (`[longitude, latitude, zoom]`), `minzoom`, `maxzoom`, `attribution`,
/// `description`, `type`, `version` and `vector_layers`; any other member is kept, as read, in
/// ``otherValues``. Reading is lenient: `bounds` and `center` written as MBTiles writes them
/// (`"-180,-85,180,85"`) are read too, and a member of an unexpected kind is kept in
/// ``otherValues`` rather than refused.
///
/// The header also holds the bounds, center and zooms, and is what readers go by; a
/// ``PMTilesWriter`` fills both from the same values.
///
/// For example:
///
/// ```swift
/// var metadata = PMTilesMetadata(name: "Alps", format: "png")
/// metadata.attribution = "© OpenStreetMap contributors"
/// let writer = try PMTilesWriter(url: URL(fileURLWithPath: "alps.pmtiles"), metadata: metadata)
/// ```
public struct PMTilesMetadata: Hashable, Sendable {
    /// The default view: a position and a zoom level.
    public struct Center: Hashable, Sendable {
        /// Degrees east of Greenwich.
        public var longitude: Double
        /// Degrees north of the equator.
        public var latitude: Double
        /// The tile zoom level of the view.
        public var zoom: Int

        /// Creates a default view.
        public init(longitude: Double, latitude: Double, zoom: Int) {
            self.longitude = longitude
            self.latitude = latitude
            self.zoom = zoom
        }
    }

    /// `name`: the plain-English name of the tileset.
    public var name: String?
    /// `format`: the encoding of the tiles, as MBTiles names it (`png`, `jpg`, `webp`, `pbf`).
    public var format: String?
    /// `bounds`: the area the tiles cover.
    public var bounds: BoundingBox?
    /// `center`: the default view.
    public var center: Center?
    /// `minzoom`: the lowest zoom level with tiles.
    public var minZoom: Int?
    /// `maxzoom`: the highest zoom level with tiles.
    public var maxZoom: Int?
    /// `attribution`: who made the data or imagery; may hold HTML.
    public var attribution: String?
    /// `description`: what the tileset shows, as plain text.
    public var description: String?
    /// `type`: `overlay` or `baselayer`.
    public var type: String?
    /// `version`: the revision of the tileset (not of the specification).
    public var version: String?
    /// `vector_layers`: the layers of vector tiles, as TileJSON 3.0 describes them; the
    /// specification requires it for MVT tiles. MBTiles keeps it inside its `json` row.
    public var vectorLayers: JSONValue?
    /// Every other member, by key.
    public var otherValues: [String: JSONValue]

    /// Creates metadata; every value defaults to nil (or none).
    public init(
        name: String? = nil,
        format: String? = nil,
        bounds: BoundingBox? = nil,
        center: Center? = nil,
        minZoom: Int? = nil,
        maxZoom: Int? = nil,
        attribution: String? = nil,
        description: String? = nil,
        type: String? = nil,
        version: String? = nil,
        vectorLayers: JSONValue? = nil,
        otherValues: [String: JSONValue] = [:]
    ) {
        self.name = name
        self.format = format
        self.bounds = bounds
        self.center = center
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.attribution = attribution
        self.description = description
        self.type = type
        self.version = version
        self.vectorLayers = vectorLayers
        self.otherValues = otherValues
    }
}

// MARK: - JSON

extension PMTilesMetadata {
    /// The metadata of a JSON object; see the type's documentation for how each member is read.
    public init(json object: [String: JSONValue]) {
        var others = object
        func take<T>(_ key: String, _ read: (JSONValue) -> T?) -> T? {
            guard let value = object[key], let typed = read(value) else { return nil }
            others[key] = nil
            return typed
        }
        self.init()
        name = take("name") { $0.text }
        format = take("format") { $0.text }
        bounds = take("bounds") { Self.numbers($0, count: 4) }.map { BoundingBox(west: $0[0], south: $0[1], east: $0[2], north: $0[3]) }
        center = take("center") { Self.numbers($0, count: 3) }.flatMap { view in
            Int(exactly: view[2].rounded()).map { Center(longitude: view[0], latitude: view[1], zoom: $0) }
        }
        minZoom = take("minzoom") { Self.integer($0) }
        maxZoom = take("maxzoom") { Self.integer($0) }
        attribution = take("attribution") { $0.text }
        description = take("description") { $0.text }
        type = take("type") { $0.text }
        version = take("version") { $0.text }
        vectorLayers = take("vector_layers") { value in
            if case .array = value { return value }
            return nil
        }
        otherValues = others
    }

    /// The metadata as a JSON object: a member for every value that is not nil, and
    /// ``otherValues`` (a typed value wins over an other value of the same key).
    public var json: [String: JSONValue] {
        var object = otherValues
        func set(_ key: String, _ value: JSONValue?) {
            if let value { object[key] = value }
        }
        set("name", name.map(JSONValue.string))
        set("format", format.map(JSONValue.string))
        set("bounds", bounds.map { .array([$0.west, $0.south, $0.east, $0.north].map(JSONValue.number)) })
        set("center", center.map { .array([.number($0.longitude), .number($0.latitude), .number(Double($0.zoom))]) })
        set("minzoom", minZoom.map { .number(Double($0)) })
        set("maxzoom", maxZoom.map { .number(Double($0)) })
        set("attribution", attribution.map(JSONValue.string))
        set("description", description.map(JSONValue.string))
        set("type", type.map(JSONValue.string))
        set("version", version.map(JSONValue.string))
        set("vector_layers", vectorLayers)
        return object
    }

    /// The JSON text's UTF-8 bytes: compact, members sorted by key.
    var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writer.value(.object(json))
        return writer.bytes
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
