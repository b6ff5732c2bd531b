import Foundation

/// A style's data source, one entry of `sources` (MapLibre Style Specification, "Sources").
public enum StyleSource: Hashable, Sendable {
    /// Vector features from a GeoPackage (`"type": "vector"`).
    case vector(VectorSource)
    /// Features from a GeoJSON file (`"type": "geojson"`).
    case geoJSON(GeoJSONSource)
    /// Raster tiles (`"type": "raster"`).
    case raster(RasterSource)

    /// The source's `attribution`, if any.
    public var attribution: String? {
        switch self {
        case .vector(let source): return source.attribution
        case .geoJSON(let source): return source.attribution
        case .raster(let source): return source.attribution
        }
    }
}

/// A vector source. Where MapLibre reads vector tiles, Mapwright reads GeoPackage feature
/// tables: a layer's `source-layer` names the table.
///
/// Its `url` is `basemap://NAME` for a bundled basemap (`basemap://world` is
/// `Tiles/basemap/world_map.gpkg`), or the path or `file://` URL of a GeoPackage; a relative
/// path is relative to the style file.
public struct VectorSource: Hashable, Sendable {
    /// Where the GeoPackage is.
    public var location: GeoPackageLocation
    /// `attribution`, shown on the map. The default is nil.
    public var attribution: String?

    public init(location: GeoPackageLocation, attribution: String? = nil) {
        self.location = location
        self.attribution = attribution
    }
}

/// Where a vector source's GeoPackage is.
public enum GeoPackageLocation: Hashable, Sendable {
    /// `basemap://NAME`: a basemap shipped with Mapwright.
    case basemap(name: String)
    /// A GeoPackage file.
    case file(URL)

    /// The GeoPackage's file URL, finding bundled basemaps as `NAME_map.gpkg` in
    /// `basemapDirectory` (normally `Tiles/basemap`).
    public func fileURL(basemapDirectory: URL) -> URL {
        switch self {
        case .basemap(let name): return basemapDirectory.appendingPathComponent("\(name)_map.gpkg")
        case .file(let url): return url
        }
    }
}

/// A GeoJSON source: its `data` is the path or `file://` URL of a GeoJSON file, relative paths
/// being relative to the style file. Inline GeoJSON is outside the subset.
public struct GeoJSONSource: Hashable, Sendable {
    /// The GeoJSON file.
    public var data: URL
    /// `attribution`, shown on the map. The default is nil.
    public var attribution: String?

    public init(data: URL, attribution: String? = nil) {
        self.data = data
        self.attribution = attribution
    }
}
