import Foundation
public import MapCore

/// What a tileset says of itself, whatever its format: the keys MBTiles 1.3 ("Metadata") and
/// PMTiles v3 (its JSON metadata, and its header's zooms and bounds) share, typed, with the names
/// TileJSON gives them.
///
/// MBTiles keeps it as rows of its `metadata` table (`MBTiles`' `init(rows:path:)` and `rows`),
/// PMTiles as a JSON object (`PMTiles`' `init(pmtilesJSON:)` and `pmtilesJSON`), so a tileset
/// converted between the two keeps its name, attribution and the rest. MBTiles requires `name` and
/// `format`, suggests `bounds`, `center`, `minzoom` and `maxzoom`; the rest are optional (`json`,
/// the vector layers of vector tilesets). Keys this type does not model (`scheme`, `generator`,
/// `agg_tiles_hash`…) are kept, as text, in ``otherValues``.
///
/// For example:
///
/// ```swift
/// var metadata = TileMetadata(name: "Satellite", format: .jpg)
/// metadata.minZoom = 0
/// metadata.maxZoom = 12
/// try store.writeMetadata(metadata)
/// ```
public struct TileMetadata: Hashable, Sendable {
    /// The default view: a position and a zoom level, written `longitude,latitude,zoom`.
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

    /// Whether the tiles go over other layers or under them (`type`).
    public enum LayerType: String, Hashable, Sendable {
        case overlay
        case baselayer
    }

    /// `name`: the plain-English name of the tileset. Required by the specification.
    public var name: String?
    /// `format`: the encoding of the tiles. Required by the specification. An unknown format is nil
    /// here and kept, as written, in ``otherValues``.
    public var format: TileFormat?
    /// `bounds`: the area every zoom level covers.
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
    /// `type`: overlay or base layer.
    public var type: LayerType?
    /// `version`: the revision of the tileset (not of the specification).
    public var version: String?
    /// `json`: for vector tilesets, a JSON object listing `vector_layers` (and optionally
    /// `tilestats`), kept as written.
    public var json: String?
    /// Every other row, by key.
    public var otherValues: [String: String]

    /// Creates metadata; every value defaults to nil (or none).
    public init(
        name: String? = nil,
        format: TileFormat? = nil,
        bounds: BoundingBox? = nil,
        center: Center? = nil,
        minZoom: Int? = nil,
        maxZoom: Int? = nil,
        attribution: String? = nil,
        description: String? = nil,
        type: LayerType? = nil,
        version: String? = nil,
        json: String? = nil,
        otherValues: [String: String] = [:]
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
        self.json = json
        self.otherValues = otherValues
    }
}
