public import Foundation
public import MapCore

/// A raster source: satellite imagery or another tiled picture under the vector layers
/// (MapLibre Style Specification, "Sources: raster").
///
/// A style may ship a raster source with neither `tiles` nor `url`: it is *unconfigured*, and
/// someone must supply imagery before the style can be drawn, with
/// ``Style/configuringRasterSources(_:id:)``.
public struct RasterSource: Hashable, Sendable {
    /// Where the tiles come from; nil when unconfigured.
    public var tiles: RasterTileLocation?
    /// `tileSize`: the tiles' width and height in pixels. The default is 512, the specification's.
    public var tileSize: Int
    /// `attribution`, shown on the map. The default is nil.
    public var attribution: String?
    /// `minzoom`: the lowest zoom with tiles. The default is nil: the tiles' own (a tileset
    /// file's `minzoom`, 0 for URL templates, the specification's default).
    public var minZoom: Int?
    /// `maxzoom`: the highest zoom with tiles; deeper zooms scale its tiles up. The default is
    /// nil: the tiles' own (a tileset file's `maxzoom`, 22 for URL templates, the specification's).
    public var maxZoom: Int?
    /// `scheme`. The default is xyz.
    public var scheme: TileScheme
    /// `bounds`: the area with tiles (west, south, east, north); tiles wholly outside it are
    /// never read, as MapLibre never requests them. The default is nil: everywhere.
    public var bounds: BoundingBox?

    public init(
        tiles: RasterTileLocation? = nil,
        tileSize: Int = 512,
        attribution: String? = nil,
        minZoom: Int? = nil,
        maxZoom: Int? = nil,
        scheme: TileScheme = .xyz,
        bounds: BoundingBox? = nil
    ) {
        self.tiles = tiles
        self.tileSize = tileSize
        self.attribution = attribution
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.scheme = scheme
        self.bounds = bounds
    }

    /// Whether the source says where its tiles come from.
    public var isConfigured: Bool { tiles != nil }

}

/// Where a raster source's tiles come from.
public enum RasterTileLocation: Hashable, Sendable {
    /// `tiles`: URL templates with `{z}`, `{x}`, `{y}` (and optionally `{s}`, `{r}`).
    case templates([String])
    /// `"url": "mbtiles://PATH"` or `"pmtiles://PATH"`: a tileset file, MBTiles or PMTiles
    /// (whichever its first bytes say, whatever the URL's scheme or the file's extension); or
    /// `pmtiles://https://HOST/NAME.pmtiles`, a PMTiles archive on a web server (an `http(s)` URL).
    case file(URL)
    /// Several tileset files read as one: a tile comes from the first whose zooms and bounds hold
    /// it and that has it. None draws nothing. What ``terrainBasemaps`` becomes once resolved.
    case files([URL])
    /// `"url": "basemap://terrain"` (of a raster-dem source): the elevation tilesets the user
    /// registered (`mapwright terrain add`/`build`); resolved to ``files(_:)`` by whoever loads the
    /// style (``Style/configuringTerrainBasemaps(_:)``), and drawing nothing until then.
    case terrainBasemaps

    /// Whether the location stands for tiles that are not there: terrain not yet resolved, or
    /// resolved to no tileset. A layer of such a source draws nothing, without a warning.
    public var drawsNothing: Bool {
        switch self {
        case .terrainBasemaps: true
        case .files(let urls): urls.isEmpty
        case .file, .templates: false
        }
    }

    /// The schemes of a tileset file's `url`: `mbtiles://` and `pmtiles://`.
    static let fileSchemes = ["mbtiles://", "pmtiles://"]

    /// Reads a command-line argument: a URL template containing `{z}`, `{x}` and `{y}`, or a
    /// tileset file (`mbtiles://PATH`, `pmtiles://PATH`, or a path ending in `.mbtiles` or
    /// `.pmtiles`, relative to `base`), or a PMTiles archive's `http(s)` URL ending in `.pmtiles`.
    ///
    /// For example, `RasterTileLocation(argument: "https://tiles.example.com/{z}/{x}/{y}.jpg")`.
    ///
    /// - Throws: ``StyleError/Kind/invalidValue(_:)`` for anything else.
    public init(argument: String, relativeTo base: URL? = nil) throws(StyleError) {
        if let scheme = Self.fileSchemes.first(where: { argument.hasPrefix($0) }) {
            self = .file(StyleLocation.tilesetURL(String(argument.dropFirst(scheme.count)), relativeTo: base))
        } else if [".mbtiles", ".pmtiles"].contains(where: { argument.lowercased().hasSuffix($0) }) {
            self = .file(StyleLocation.tilesetURL(argument, relativeTo: base))
        } else if ["{z}", "{x}", "{y}"].allSatisfy(argument.contains) {
            self = .templates([argument])
        } else {
            throw StyleError(
                .invalidValue(
                    "'\(argument)' is neither a tile URL template with {z}, {x} and {y} nor an .mbtiles or .pmtiles file"
                ))
        }
    }
}

/// Resolves paths in a style against the style file's directory.
enum StyleLocation {
    /// A tileset's URL: an `http(s)` URL as it is (a PMTiles archive on a web server), else
    /// ``fileURL(_:relativeTo:)``.
    static func tilesetURL(_ reference: String, relativeTo base: URL?) -> URL {
        let lowercased = reference.lowercased()
        if lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://"), let url = URL(string: reference) {
            return url
        }
        return fileURL(reference, relativeTo: base)
    }

    /// A `file://` URL or a path; relative paths are resolved against `base` (or the working
    /// directory without one).
    static func fileURL(_ reference: String, relativeTo base: URL?) -> URL {
        if reference.hasPrefix("file://"), let url = URL(string: reference) { return url.standardizedFileURL }
        if reference.hasPrefix("/") { return URL(fileURLWithPath: reference).standardizedFileURL }
        let directory = base ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return URL(fileURLWithPath: reference, relativeTo: directory).standardizedFileURL
    }
}
