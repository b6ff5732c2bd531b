public import Foundation
public import MapCore
public import MapJSON

/// A style's data source, one entry of `sources` (MapLibre Style Specification, "Sources").
public enum StyleSource: Hashable, Sendable {
    /// Vector features from a GeoPackage (`"type": "vector"`).
    case vector(VectorSource)
    /// Features from a GeoJSON file (`"type": "geojson"`).
    case geoJSON(GeoJSONSource)
    /// Raster tiles (`"type": "raster"`).
    case raster(RasterSource)
    /// Elevation tiles (`"type": "raster-dem"`), for hillshade layers.
    case rasterDEM(RasterDEMSource)
    /// One picture placed by its four corners (`"type": "image"`).
    case image(ImageSource)

    /// The source's `attribution`, if any.
    public var attribution: String? {
        switch self {
        case .vector(let source): return source.attribution
        case .geoJSON(let source): return source.attribution
        case .raster(let source): return source.attribution
        case .rasterDEM(let source): return source.tiles.attribution
        case .image: return nil
        }
    }

    /// The source's `type`, as the style writes it.
    public var typeName: String {
        switch self {
        case .vector: "vector"
        case .geoJSON: "geojson"
        case .raster: "raster"
        case .rasterDEM: "raster-dem"
        case .image: "image"
        }
    }
}

/// A vector source: Mapbox Vector Tiles from an MBTiles or PMTiles file, as MapLibre reads them
/// (a layer's `source-layer` names a layer of the tiles), or a GeoPackage (a layer's
/// `source-layer` names a feature table).
///
/// Its `url` is `mbtiles://PATH` or `pmtiles://PATH`, or a path ending in `.mbtiles` or
/// `.pmtiles`, for vector tiles; `basemap://NAME` for a bundled basemap (`basemap://world` is
/// `Tiles/basemap/world_map.gpkg`); or the path or `file://` URL of a GeoPackage. A relative path
/// is relative to the style file. A vector source without `url`, or whose `url` is a tile server's
/// TileJSON (`http(s)://`, without `tiles`), waits for tiles, given on the command line by
/// `--vector-source` (``Style/configuringVectorSources(_:id:)``).
public struct VectorSource: Hashable, Sendable {
    /// Where the data is.
    public var location: VectorSourceLocation
    /// `attribution`, shown on the map; nil takes the tileset's own (its metadata's
    /// `attribution`). The default is nil.
    public var attribution: String?
    /// `minzoom` and `maxzoom`: the zooms of the tiles; nil takes the tileset's own. Views deeper
    /// than the deepest zoom draw its tiles scaled up (overzoom). The defaults are nil.
    public var minZoom: Int?
    public var maxZoom: Int?
    /// `bounds`: the area with tiles (west, south, east, north); tiles wholly outside it are
    /// never read. The default is nil: the tileset's own, or everywhere.
    public var bounds: BoundingBox?
    /// `promoteId`: the property that stands as each feature's id for feature state; nil keeps
    /// the tiles' own feature ids. The default is nil.
    public var promoteID: PromoteID?
    /// The `url` as written when it is a tile server's TileJSON (`https://api.maptiler.com/...`,
    /// as public styles ship): Mapwright does not fetch it, so the source waits for tiles
    /// (``VectorSourceLocation/unconfigured``) and errors name it. The default is nil.
    public var tileServer: String?

    public init(
        location: VectorSourceLocation, attribution: String? = nil, minZoom: Int? = nil, maxZoom: Int? = nil,
        bounds: BoundingBox? = nil
    ) {
        self.location = location
        self.attribution = attribution
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
    }
}

/// The two vector tile schemas of street-level data the shipped styles draw: their layers and
/// the properties their features carry.
public enum StreetSchema: String, Hashable, Sendable, CaseIterable {
    /// OpenMapTiles (<https://openmaptiles.org/schema/>): `transportation`, `water`, `building`,
    /// `place`...; what tilemaker's and Planetiler's OpenMapTiles profiles write, and
    /// `mapwright basemap build`.
    case openMapTiles = "openmaptiles"
    /// Protomaps' basemap schema, version 4 (<https://docs.protomaps.com/basemaps/layers>):
    /// `roads`, `water`, `buildings`, `places`, `earth`...; Protomaps' builds.
    case protomaps

    /// The `basemap://` URL a style's source names to read registered basemaps of this schema.
    public var basemapURL: String {
        switch self {
        case .openMapTiles: "basemap://streets"
        case .protomaps: "basemap://streets-protomaps"
        }
    }

    /// The schema of a vector tileset from its layers' ids (its metadata's `vector_layers`):
    /// OpenMapTiles with `transportation` or `water` and no `roads`, Protomaps with `roads` and
    /// `earth` or `buildings`; nil for neither.
    public static func detect(layerIDs: Set<String>) -> StreetSchema? {
        if layerIDs.contains("roads"), layerIDs.contains("earth") || layerIDs.contains("buildings") {
            return .protomaps
        }
        if layerIDs.contains("transportation") || layerIDs.contains("water") { return .openMapTiles }
        return nil
    }
}

/// Where a vector source's data is.
public enum VectorSourceLocation: Hashable, Sendable {
    /// `basemap://NAME`: a GeoPackage shipped with Mapwright.
    case basemap(name: String)
    /// A GeoPackage file.
    case file(URL)
    /// A vector tileset: an MBTiles (`format` pbf) or PMTiles file of Mapbox Vector Tiles.
    case tileset(URL)
    /// Several vector tilesets read as one: a tile comes from the first that covers its place and
    /// zoom and has it. No tileset draws nothing. What ``streetBasemaps`` becomes once resolved.
    case tilesets([URL])
    /// `basemap://streets` (OpenMapTiles schema) or `basemap://streets-protomaps` (Protomaps
    /// schema): the street-level basemaps of that schema the user registered (`mapwright basemap
    /// add`/`build`); resolved to ``tilesets(_:)`` by whoever loads the style, and drawing
    /// nothing until then.
    case streetBasemaps(StreetSchema)
    /// `tiles`: URL templates of Mapbox Vector Tiles, `file://` for a folder of tiles (relative
    /// paths are relative to the style file) or `http(s)://`, with how `{y}` counts rows.
    case templates([String], scheme: TileScheme)
    /// No data yet: the source waits for `--vector-source`.
    case unconfigured

    /// Whether the source reads vector tiles (a tileset or templates).
    public var readsVectorTiles: Bool {
        switch self {
        case .tileset, .tilesets, .streetBasemaps, .templates: return true
        case .basemap, .file, .unconfigured: return false
        }
    }

    /// The GeoPackage's file URL, finding bundled basemaps as `NAME_map.gpkg` in
    /// `basemapDirectory` (normally `Tiles/basemap`); nil for vector tiles or no data.
    public func geoPackageURL(basemapDirectory: URL) -> URL? {
        switch self {
        case .basemap(let name): return basemapDirectory.appendingPathComponent("\(name)_map.gpkg")
        case .file(let url): return url
        case .tileset, .tilesets, .streetBasemaps, .templates, .unconfigured: return nil
        }
    }
}

/// A GeoJSON source: its `data` is the path or `file://` URL of a GeoJSON file (relative paths
/// being relative to the style file), or GeoJSON written in the style itself.
public struct GeoJSONSource: Hashable, Sendable {
    /// Where the features are.
    public enum Data: Hashable, Sendable {
        /// A GeoJSON file.
        case file(URL)
        /// GeoJSON written in the style (a FeatureCollection, a Feature or a bare geometry), as
        /// compact JSON text.
        case inline(String)
    }

    /// How a clustered source (`"cluster": true`) groups its points, as MapLibre does with
    /// supercluster: points closer than ``radius`` at a zoom merge into a cluster feature with
    /// `cluster`, `cluster_id`, `point_count` and `point_count_abbreviated` properties.
    public struct Clustering: Hashable, Sendable {
        /// `clusterRadius`, in points of MapLibre's 512-point tiles. The default is 50.
        public var radius: Double = 50
        /// `clusterMaxZoom`: the deepest (MapLibre) zoom that clusters. The default is the
        /// source's `maxzoom` less one: 17.
        public var maxZoom: Int = 17
        /// `clusterMinPoints`: the fewest points a cluster holds. The default is 2.
        public var minPoints: Int = 2
        /// `clusterProperties`: properties each cluster carries, accumulated over its points, in
        /// name order. The default is none.
        public var properties: [ClusterProperty] = []

        public init() {}
    }

    /// One of `clusterProperties`: a cluster's property accumulated over its points as MapLibre
    /// (supercluster) does: each point's ``map`` value, combined by ``reduce``.
    public struct ClusterProperty: Hashable, Sendable {
        /// The property's name on cluster features.
        public var name: String
        /// The value one point gives, evaluated over the point's properties.
        public var map: StyleExpression
        /// Two values combined: evaluated with `["accumulated"]` the value so far and the property
        /// ``name`` the next one; `[operator, mapExpression]` stands for
        /// `[operator, ["accumulated"], ["get", name]]`.
        public var reduce: StyleExpression

        public init(name: String, map: StyleExpression, reduce: StyleExpression) {
            self.name = name
            self.map = map
            self.reduce = reduce
        }

        /// The property's value over points with these properties, in order: the first point's
        /// mapped value, then each next one reduced into it; nil for no points.
        public func accumulated(over points: [[String: FeatureValue]], zoom: Double) -> ExpressionValue? {
            var total: ExpressionValue?
            for properties in points {
                let value = map.evaluate(in: ExpressionContext(zoom: zoom, properties: properties))
                guard let sofar = total else {
                    total = value
                    continue
                }
                var context = ExpressionContext(zoom: zoom, properties: properties)
                context.accumulated = sofar
                context.structuredProperties[name] = value
                context.properties[name] = nil
                total = reduce.evaluate(in: context)
            }
            return total
        }
    }

    /// The features.
    public var data: Data
    /// `attribution`, shown on the map. The default is nil.
    public var attribution: String?
    /// The clustering of `"cluster": true`; nil draws every point. The default is nil.
    public var clustering: Clustering?
    /// `lineMetrics`: whether lines carry their progress for `line-gradient`. The default is false.
    public var lineMetrics = false
    /// `promoteId`: the property that stands as each feature's id for feature state; nil keeps
    /// the features' own `id`s. The default is nil.
    public var promoteID: PromoteID?

    public init(data: Data, attribution: String? = nil) {
        self.data = data
        self.attribution = attribution
    }
}
