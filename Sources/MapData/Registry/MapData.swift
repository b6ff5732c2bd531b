public import Foundation
public import GeoData
import ImageCodec
import MapCore
package import MapStyle
public import MapUtilities
import Synchronization
import Tilesets
import VectorTiles

/// The vector data styles draw from, opened once and shared by every render: GeoPackage tables
/// and GeoJSON files, each read into memory once, with geometry prepared once per zoom level
/// and screen scale (see `PreparedLayerCache`).
///
/// Keep one `MapData` for the life of a process (a server, a batch export) so later renders
/// and tiles reuse what earlier ones prepared.
///
/// Its caches are behind a lock; the sources and prepared layers it hands out are immutable.
public final class MapData: Sendable {
    /// Where `basemap://NAME` sources are found: `NAME_map.gpkg` in this folder.
    public let basemapDirectory: URL
    /// A folder of font files searched before the pinned fonts; nil for the pinned fonts only.
    public let fontsDirectory: URL?
    /// Where raster tiles fetched over HTTP are cached, one MBTiles file per source, and, in its
    /// `files/`, the sprite sheets of styles that name them by URL (``HTTPFileCache``).
    public let tileCacheDirectory: URL
    /// Prepared geometry, per (source, zoom level, scale).
    public let preparedLayers = PreparedLayerCache()

    /// Forgets the geometry prepared per zoom (``preparedLayers``): renders prepare what they
    /// need again. What a server near its memory limit lets go; renders under way keep theirs.
    public func forgetPreparedGeometry() {
        preparedLayers.removeAll()
    }

    /// What ``MapData`` opened and made, behind one lock: read and changed by the feature files
    /// (`Sprites/`, `Glyphs/`, `Clusters/`, ...) through ``cached(_:in:make:)`` and `withLock`.
    let caches = Mutex(Caches())

    /// State readers of the data keep with it for as long as the data lives, one value per type,
    /// made by ``attachedState(make:)`` on first use: the renderer's fonts and line buffers.
    /// Opaque here.
    private let attached = Mutex<[ObjectIdentifier: any Sendable]>([:])

    /// The value of type `State` kept with this data, made by `make` the first time it is asked
    /// for: what the renderer keeps per `MapData` (its fonts, its line rasteriser's buffers)
    /// without the data knowing its type.
    package func attachedState<State: Sendable>(make: () -> State) -> State {
        attached.withLock { states in
            if let state = states[ObjectIdentifier(State.self)] as? State { return state }
            let made = make()
            states[ObjectIdentifier(State.self)] = made
            return made
        }
    }

    /// What ``MapData`` opened, by file or key.
    struct Caches {
        var geoPackages: [URL: GeoPackage] = [:]
        var sources: [String: any FeatureSource] = [:]
        var rasterSources: [String: RasterTileSource] = [:]
        var images: [String: RGBAImage] = [:]
        var vectorTileSources: [String: VectorTileSource] = [:]
        var clusterIndexes: [String: GeoJSONClusters?] = [:]
        /// Why GeoJSON sources draw nothing: one each.
        var skippedSources: [SkippedData] = []
        /// The style images, by sprite URLs and pixel ratio.
        var styleImages: [String: StyleImages] = [:]
        /// Images the layers named that no sprite has, in the order first asked for.
        var missingImages: [String] = []
        /// Images added by name at run time (``addImage(_:named:pixelRatio:sdf:)``).
        var runtimeImages: [String: StyleImage] = [:]
        /// SDF glyph ranges by file; nil for a file that is missing or unreadable.
        var glyphRanges: [String: GlyphRange?] = [:]
    }

    /// Creates the data store.
    ///
    /// - Parameters:
    ///   - basemapDirectory: The folder holding the bundled basemap (`world_map.gpkg`), read
    ///     when a style draws `basemap://` or a place is looked up. `MapAssembly.MapInputs` finds
    ///     it in the data folders.
    ///   - fontsDirectory: A folder of font files searched before the pinned fonts; nil (the
    ///     default) for the pinned fonts only.
    ///   - tileCacheDirectory: Where fetched raster tiles are cached. The default is the user's
    ///     (`UserDirectories().tileCacheDirectory`): `$XDG_CACHE_HOME/mapwright/tiles`, by default
    ///     `~/.cache/mapwright/tiles`, never the working directory.
    public init(
        basemapDirectory: URL, fontsDirectory: URL? = nil,
        tileCacheDirectory: URL = UserDirectories().tileCacheDirectory
    ) {
        self.basemapDirectory = basemapDirectory
        self.fontsDirectory = fontsDirectory
        self.tileCacheDirectory = tileCacheDirectory
    }

    /// The vector source a style layer draws from: a GeoPackage table (`source-layer`) or a
    /// GeoJSON file. `nil` for raster sources.
    ///
    /// - Throws: ``MapDataError`` when the file is missing or unreadable, or the table unknown.
    package func source(for styleSource: StyleSource, sourceLayer: String?) throws(MapDataError) -> (any FeatureSource)?
    {
        switch styleSource {
        case .raster, .rasterDEM, .image:
            return nil
        case .geoJSON(let geoJSON):
            switch geoJSON.data {
            case .file(let url):
                return try cached(geoJSON.data.cacheKey) { () throws(MapDataError) in
                    do throws(GeoDataError) {
                        let collection = MapData.withStyleIDs(try GeoJSONReader.read(path: url.path))
                        noteSkippedFeatures(of: collection, source: url.displayPath)
                        return FeatureCollectionSource(name: url.lastPathComponent, collection: collection)
                    } catch {
                        // A file that is there but is not GeoJSON draws nothing, as in MapLibre, with a
                        // warning; a file that is not there is an error naming it.
                        guard FileManager.default.fileExists(atPath: url.path) else { throw .data(error) }
                        return skippedGeoJSON(name: url.displayPath, reason: error.description)
                    }
                }
            case .inline(let text):
                // Keyed by the text's hash: the same GeoJSON in two styles is read once.
                return try cached(geoJSON.data.cacheKey) { () throws(MapDataError) in
                    do throws(GeoDataError) {
                        let collection = MapData.withStyleIDs(
                            try GeoJSONReader.read(data: Data(text.utf8), path: "inline GeoJSON"))
                        noteSkippedFeatures(of: collection, source: "inline GeoJSON")
                        return FeatureCollectionSource(name: "inline GeoJSON", collection: collection)
                    } catch {
                        return skippedGeoJSON(name: "inline GeoJSON", reason: error.description)
                    }
                }
            }
        case .vector(let vector):
            guard let url = vector.location.geoPackageURL(basemapDirectory: basemapDirectory) else { return nil }
            let table = sourceLayer ?? ""
            return try cached("gpkg:\(url.path)#\(table)") { () throws(MapDataError) in
                let geoPackage = try self.geoPackage(
                    at: url,
                    isBasemap: {
                        if case .basemap = vector.location { return true }
                        return false
                    }())
                do throws(GeoDataError) { return try GeoPackageSource(geoPackage: geoPackage, table: table) } catch {
                    throw .data(error)
                }
            }
        }
    }

    /// The vector tiles a vector source reads (a tileset file or tile templates), opened once
    /// per location and zooms; nil for a source of GeoPackage data or none.
    ///
    /// - Throws: ``MapDataError/vectorTiles(path:reason:)`` when it is not a vector tileset.
    package func vectorTileSource(_ vector: VectorSource) throws(MapDataError) -> VectorTileSource? {
        let location: TileSourceLocation
        switch vector.location {
        case .tileset(let url):
            location = .file(url)
        case .templates(let templates, let scheme):
            location = .templates(
                templates, scheme: scheme, minZoom: vector.minZoom ?? 0, maxZoom: vector.maxZoom ?? 22)
        case .tilesets(let urls):
            guard !urls.isEmpty else { return nil }
            location = urls.count == 1 ? .file(urls[0]) : .layered(urls.map { .file($0) })
        case .basemap, .file, .unconfigured, .streetBasemaps:
            return nil
        }
        let key =
            switch vector.location {
            case .templates(let templates, let scheme):
                "templates:\(scheme.rawValue):" + templates.joined(separator: " ")
            default: "file:\(location.description)"
            }
        let boundsKey = vector.bounds.map { "#\($0.west),\($0.south),\($0.east),\($0.north)" } ?? ""
        return try cached("\(key)#\(vector.minZoom ?? -1)-\(vector.maxZoom ?? -1)\(boundsKey)", in: \.vectorTileSources)
        { () throws(MapDataError) in
            try VectorTileSource(
                location: location, minZoom: vector.minZoom, maxZoom: vector.maxZoom, bounds: vector.bounds)
        }
    }

    /// An empty source standing for GeoJSON that cannot be read, its reason kept for
    /// ``skippedDataWarnings()``.
    func skippedGeoJSON(name: String, reason: String) -> FeatureCollectionSource {
        caches.withLock {
            $0.skippedSources.append(SkippedData(source: name, warning: "\(reason): the source draws nothing"))
        }
        return FeatureCollectionSource(name: name, collection: FeatureCollection(features: []))
    }

    /// Keeps the warning for a GeoJSON source's broken features, if it has any, for ``skippedDataWarnings()``.
    func noteSkippedFeatures(of collection: FeatureCollection, source: String) {
        guard let warning = collection.skippedFeaturesWarning else { return }
        caches.withLock { $0.skippedSources.append(SkippedData(source: source, warning: warning)) }
    }

    private func cached(
        _ key: String, make: () throws(MapDataError) -> any FeatureSource
    ) throws(MapDataError) -> any FeatureSource {
        try cached(key, in: \.sources, make: make)
    }

    /// The raster source cached under `key`, made by `make` the first time.
    func cachedRaster(
        _ key: String, make: () throws(MapDataError) -> RasterTileSource
    ) throws(MapDataError) -> RasterTileSource {
        try cached(key, in: \.rasterSources, make: make)
    }

    /// The decoded picture cached under `key`, made by `make` the first time.
    func cachedImage(_ key: String, make: () throws(MapDataError) -> RGBAImage) throws(MapDataError) -> RGBAImage {
        try cached(key, in: \.images, make: make)
    }

    /// The value of `cache` under `key`, made by `make` outside the lock the first time; when two
    /// threads make one at once, the first stored wins.
    func cached<Value: Sendable>(
        _ key: String, in cache: WritableKeyPath<Caches, [String: Value]>, make: () throws(MapDataError) -> Value
    ) throws(MapDataError) -> Value {
        if let value = caches.withLock({ $0[keyPath: cache][key] }) { return value }
        let value = try make()
        return caches.withLock { caches in
            if let existing = caches[keyPath: cache][key] { return existing }
            caches[keyPath: cache][key] = value
            return value
        }
    }

    private func geoPackage(at url: URL, isBasemap: Bool) throws(MapDataError) -> GeoPackage {
        if let open = caches.withLock({ $0.geoPackages[url] }) { return open }
        guard FileManager.default.fileExists(atPath: url.path) else {
            if isBasemap { throw .missingBasemap(path: url.path) }
            throw .data(.unreadableFile(path: url.path, reason: "no such file"))
        }
        let geoPackage: GeoPackage
        do { geoPackage = try GeoPackage(path: url.path) } catch { throw .data(error) }
        caches.withLock { $0.geoPackages[url] = geoPackage }
        return geoPackage
    }
}

extension GeoJSONSource.Data {
    /// The key ``MapData`` keeps what it made of this data by: the file's path, or the inline
    /// text's hash (the same GeoJSON in two styles is read once; the text is not kept twice).
    package var cacheKey: String {
        switch self {
        case .file(let url): "geojson:\(url.path)"
        case .inline(let text): "geojson-inline:\(FNV1a(text.utf8).hexDigits)"
        }
    }
}
