public import Foundation
public import GeoData
public import ImageCodec
public import MapCore
public import MapStyle
public import MapUtilities
import Synchronization
import Tilesets
package import VectorTiles
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

    /// State a reader of the data keeps with it for as long as the data lives, made by
    /// ``attachedState(make:)`` on first use: the renderer's fonts and line buffers. Opaque here.
    private let attached = Mutex<(any Sendable)?>(nil)

    /// The value of type `State` kept with this data, made by `make` the first time it is asked
    /// for: what the renderer keeps per `MapData` (its fonts, its line rasteriser's buffers)
    /// without the data knowing its type. One value: a second type asked for replaces the first.
    package func attachedState<State: Sendable>(make: () -> State) -> State {
        attached.withLock { slot in
            if let state = slot as? State { return state }
            let made = make()
            slot = made
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
        basemapDirectory: URL, fontsDirectory: URL? = nil, tileCacheDirectory: URL = UserDirectories().tileCacheDirectory
    ) {
        self.basemapDirectory = basemapDirectory
        self.fontsDirectory = fontsDirectory
        self.tileCacheDirectory = tileCacheDirectory
    }

    /// The vector source a style layer draws from: a GeoPackage table (`source-layer`) or a
    /// GeoJSON file. `nil` for raster sources.
    ///
    /// - Throws: ``MapDataError`` when the file is missing or unreadable, or the table unknown.
    package func source(for styleSource: StyleSource, sourceLayer: String?) throws(MapDataError) -> (any FeatureSource)? {
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
                        let collection = MapData.withStyleIDs(try GeoJSONReader.read(data: Data(text.utf8), path: "inline GeoJSON"))
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
                let geoPackage = try self.geoPackage(at: url, isBasemap: { if case .basemap = vector.location { return true }; return false }())
                do throws(GeoDataError) { return try GeoPackageSource(geoPackage: geoPackage, table: table) } catch { throw .data(error) }
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
            location = .templates(templates, scheme: scheme, minZoom: vector.minZoom ?? 0, maxZoom: vector.maxZoom ?? 22)
        case .tilesets(let urls):
            guard !urls.isEmpty else { return nil }
            location = urls.count == 1 ? .file(urls[0]) : .layered(urls.map { .file($0) })
        case .basemap, .file, .unconfigured, .streetBasemaps:
            return nil
        }
        let key = switch vector.location {
        case .templates(let templates, let scheme): "templates:\(scheme.rawValue):" + templates.joined(separator: " ")
        default: "file:\(location.description)"
        }
        let boundsKey = vector.bounds.map { "#\($0.west),\($0.south),\($0.east),\($0.north)" } ?? ""
        return try cached("\(key)#\(vector.minZoom ?? -1)-\(vector.maxZoom ?? -1)\(boundsKey)", in: \.vectorTileSources) { () throws(MapDataError) in
            try VectorTileSource(location: location, minZoom: vector.minZoom, maxZoom: vector.maxZoom, bounds: vector.bounds)
        }
    }

    /// An empty source standing for GeoJSON that cannot be read, its reason kept for
    /// ``skippedDataWarnings()``.
    func skippedGeoJSON(name: String, reason: String) -> FeatureCollectionSource {
        caches.withLock { $0.skippedSources.append(SkippedData(source: name, warning: "\(reason): the source draws nothing")) }
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

    /// A clustered GeoJSON source's index, and the source point of each input.
    package struct GeoJSONClusters: Sendable {
        package let index: ClusterIndex
        package let points: [(feature: Int, point: MapPoint)]
    }


    /// The cluster index of a clustered GeoJSON source (what the renderer's `StylePainter.clusteredFeatures` draws),
    /// built once per source and clustering from `make`'s inputs; nil when the clustering's
    /// options cannot cluster (a radius of 0: every point stands alone).
    package func clusterIndex(
        key: String, clustering: GeoJSONSource.Clustering, make: () -> ([ClusterInput], [(feature: Int, point: MapPoint)])
    ) -> GeoJSONClusters? {
        let key = "\(key)#\(clustering.radius)-\(clustering.maxZoom)-\(clustering.minPoints)"
        if let kept = caches.withLock({ $0.clusterIndexes[key] }) { return kept }
        let made: GeoJSONClusters?
        if let options = try? ClusterOptions(
            radiusPoints: clustering.radius, minimumPoints: clustering.minPoints, maximumZoom: min(clustering.maxZoom, ClusterOptions.zoomRange.upperBound),
            tileSizePoints: 512) {
            let (inputs, points) = make()
            made = GeoJSONClusters(index: ClusterIndex(inputs, options: options), points: points)
        } else {
            made = nil
        }
        caches.withLock { $0.clusterIndexes[key] = made }
        return made
    }

    /// The images of a style's sprites for renders at `pixelRatio` (`@2x` sheets above 1), read
    /// once per sprite list and ratio and kept while the map data is; a sprite that cannot be
    /// read gives no images and one warning in ``skippedData()``.
    package func styleImages(for sprites: [SpriteReference], pixelRatio: Double) -> StyleImages {
        let spriteImages = spriteImages(for: sprites, pixelRatio: pixelRatio)
        let runtime = caches.withLock { $0.runtimeImages }
        guard !runtime.isEmpty else { return spriteImages }
        return StyleImages(images: spriteImages.images.merging(runtime) { $1 }, failures: spriteImages.failures)
    }

    /// The image `name` of `style`'s sprites (or added with ``addImage(_:named:pixelRatio:sdf:)``)
    /// at `pixelRatio`, with its own pixel ratio; nil when none has it. What a pin drawn from a
    /// sprite image (`--marker-image NAME`) is made from.
    public func spriteImage(named name: String, in style: Style, pixelRatio: Double) -> (image: RGBAImage, pixelRatio: Double)? {
        guard let image = styleImages(for: style.sprites, pixelRatio: pixelRatio)[name] else { return nil }
        return (image.pixels, image.pixelRatio)
    }

    /// Adds an image every style drawn with this data can name (`icon-image`, `*-pattern`),
    /// as MapLibre's `addImage` does; it replaces a sprite's image of the same name.
    ///
    /// - Parameters:
    ///   - pixelRatio: The image's pixels per point. The default is 1.
    ///   - sdf: Whether the image is a signed distance field, coloured by `icon-color`. The
    ///     default is false.
    public func addImage(_ image: RGBAImage, named name: String, pixelRatio: Double = 1, sdf: Bool = false) {
        var entry = SpriteIndex.Entry(x: 0, y: 0, width: image.width, height: image.height)
        entry.pixelRatio = pixelRatio
        entry.sdf = sdf
        let styleImage = StyleImage(pixels: image, entry: entry)
        caches.withLock { $0.runtimeImages[name] = styleImage }
    }

    /// Removes an image ``addImage(_:named:pixelRatio:sdf:)`` added.
    public func removeImage(named name: String) {
        caches.withLock { $0.runtimeImages[name] = nil }
    }

    private func spriteImages(for sprites: [SpriteReference], pixelRatio: Double) -> StyleImages {
        guard !sprites.isEmpty else { return .none }
        let key = sprites.map { "\($0.id)=\($0.url.absoluteString)" }.joined(separator: "|") + (pixelRatio > 1 ? "@2x" : "@1x")
        if let kept = caches.withLock({ $0.styleImages[key] }) { return kept }
        let files = HTTPFileCache(directory: tileCacheDirectory.appendingPathComponent("files", isDirectory: true))
        let loaded = StyleImages.load(sprites, pixelRatio: pixelRatio, files: files)
        return caches.withLock { caches in
            if let kept = caches.styleImages[key] { return kept }
            caches.styleImages[key] = loaded
            for failure in loaded.failures where !caches.skippedSources.contains(where: { $0.warning == failure }) {
                caches.skippedSources.append(SkippedData(source: "sprite", warning: failure))
            }
            return loaded
        }
    }

    /// Notes that a layer named an image no sprite has (drawn as nothing, as MapLibre does), for
    /// the one warning of ``skippedData()``.
    package func noteMissingImage(_ name: String) {
        caches.withLock { caches in
            if !caches.missingImages.contains(name) { caches.missingImages.append(name) }
        }
    }

    /// The glyph range file at `path` (a style's `glyphs` template filled in), read once and
    /// kept; nil when it is missing or cannot be decoded (its characters are then not drawn).
    package func glyphRange(atPath path: String) -> GlyphRange? {
        if let kept = caches.withLock({ $0.glyphRanges[path] }) { return kept }
        let range = (try? Data(readingFile: URL(fileURLWithPath: path), maximumBytes: 16 << 20)).flatMap { try? GlyphRange(data: [UInt8]($0)) }
        caches.withLock { $0.glyphRanges[path] = .some(range) }
        return range
    }

    /// What a source left out of the renders so far, and the one warning line saying so.
    public struct SkippedData: Sendable, Hashable {
        /// The source's file path, or "inline GeoJSON": what a log keys the warning by.
        public let source: String
        /// The line to print: the source, what was left out (counted) and the first reason.
        public let warning: String
    }

    /// One entry per GeoJSON source that cannot be read (drawn as empty, as MapLibre does) or
    /// whose broken features are left out, and per sprite that cannot be read; one for the
    /// images layers named that no sprite has; then
    /// per vector tileset whose renders so far left data out: broken features and unreadable
    /// tiles, counted, with the first reason; empty when nothing was left out. Renders never fail
    /// on such data (see ``VectorTileSource``): commands print these once a map or an export is
    /// done, `serve` logs them once per source.
    public func skippedData() -> [SkippedData] {
        let (sources, skipped, missing) = caches.withLock { (Array($0.vectorTileSources.values), $0.skippedSources, $0.missingImages) }
        let tilesets = sources.compactMap { source in source.skippedData.warning(path: source.path).map { SkippedData(source: source.path, warning: $0) } }
        var images: [SkippedData] = []
        if let first = missing.first {
            let others = missing.count == 1 ? "" : missing.count == 2 ? " and 1 other" : " and \(missing.count - 1) others"
            images.append(SkippedData(source: "sprite", warning: "no sprite has the image '\(first)'\(others): what names it is not drawn"))
        }
        return skipped + images + tilesets.sorted { $0.warning < $1.warning }
    }

    /// The warning lines of ``skippedData()``, in its order.
    public func skippedDataWarnings() -> [String] { skippedData().map(\.warning) }

    /// The map's credit line, as ``Style/attributionText`` has it (`metadata.mapwright.attribution.text`,
    /// or the distinct `attribution`s of the sources the layers use), except that a vector source
    /// reading a tileset is credited by the tileset's own `attribution` (it describes the data:
    /// OpenStreetMap data carries "© OpenStreetMap contributors" there), the source's being the
    /// fallback for tilesets that name none (tilemaker writes none); nil when nobody is credited.
    /// The text is as the files have it, HTML included (TileJSON carries it so);
    /// ``plainText(ofAttribution:)`` makes the drawn line.
    ///
    /// - Parameter zoom: The zoom the map shows: only the sources of layers visible at it are
    ///   credited, as MapLibre credits the sources it shows. Nil (the default) credits every
    ///   source the layers draw (a tileset's metadata, a TileJSON).
    public func attributionText(for style: Style, zoom: Double? = nil) -> String? {
        if let text = style.mapwright.attribution.text { return text }
        var credits: [String] = []
        for layer in style.layers where zoom.map({ layer.isVisible(atZoom: $0) }) ?? true {
            guard let id = layer.source, let source = style.sources[id] else { continue }
            // Street-level basemaps the user has none of draw nothing, so credit no one.
            if case .vector(let vector) = source, vector.location == .tilesets([]) { continue }
            if case .vector(let vector) = source, case .streetBasemaps = vector.location { continue }
            var text = source.attribution
            if case .vector(let vector) = source, let own = (try? vectorTileSource(vector))??.attribution, !own.isEmpty {
                text = own
            }
            if let text, !text.isEmpty, !credits.contains(text) { credits.append(text) }
        }
        return credits.isEmpty ? nil : credits.joined(separator: " · ")
    }

    /// An attribution as the map draws it: HTML tags removed (OpenMapTiles and Planetiler write
    /// `<a href=…>&copy; OpenMapTiles</a>`), character references decoded (`&copy;`, `&#169;`,
    /// `&#xA9;` and HTML's common named ones), runs of white space made one space.
    public static func plainText(ofAttribution html: String) -> String {
        var text = ""
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                text.append(" ")
                index = html.index(after: close)
            } else if character == "&", let semicolon = html[index...].prefix(12).firstIndex(of: ";"),
                      let decoded = Self.decodedReference(html[html.index(after: index)..<semicolon]) {
                text.append(decoded)
                index = html.index(after: semicolon)
            } else {
                text.append(character)
                index = html.index(after: index)
            }
        }
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The character of an HTML character reference's name (`copy`, `#169`, `#xA9`); nil for
    /// names it does not know, which are then kept as written.
    private static func decodedReference(_ name: Substring) -> Character? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
        let named: [Substring: Character] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "copy": "©", "reg": "®",
            "ndash": "–", "mdash": "—", "middot": "·",
        ]
        return named[name]
    }

    /// The vector tilesets `style` reads whose tiles (their metadata's bounds) lie wholly outside
    /// `rect`, in world copies too: a map there draws none of their data. Tilesets without
    /// bounds, or that cannot be opened, are not listed.
    public func vectorTilesets(of style: Style, outside rect: MapRect) -> [(url: URL, bounds: BoundingBox)] {
        var outside: [(url: URL, bounds: BoundingBox)] = []
        for id in style.sources.keys.sorted() {
            guard case .vector(let vector)? = style.sources[id], case .tileset(let url) = vector.location,
                  let bounds = (try? vectorTileSource(vector))??.bounds, !outside.contains(where: { $0.url == url })
            else { continue }
            let world = WebMercator.worldSize
            guard ![-world, 0, world].contains(where: { rect.offsetBy(dx: $0, dy: 0).intersects(bounds) }) else { continue }
            outside.append((url, BoundingBox(bounds)))
        }
        return outside
    }

    /// Whether the street-level basemaps `style` draws (its `basemap://streets` sources, resolved
    /// to tilesets by the assembly) have tiles in `rect`: nil for a style without such a resolved
    /// source (or one never resolved: nothing is known of the user's data), false when none is
    /// registered or none of their tilesets' bounds meets the rect (in any world copy). A tileset
    /// without bounds covers everywhere.
    public func streetBasemapsCover(_ rect: MapRect, in style: Style) -> Bool? {
        var found = false
        for source in style.sources.values {
            guard case .vector(let vector) = source else { continue }
            switch vector.location {
            case .tilesets(let urls):
                found = true
                for url in urls {
                    guard let tileset = (try? vectorTileSource(VectorSource(location: .tileset(url)))) ?? nil else { continue }
                    guard let bounds = tileset.bounds else { return true }
                    let world = WebMercator.worldSize
                    if [-world, 0, world].contains(where: { rect.offsetBy(dx: $0, dy: 0).intersects(bounds) }) { return true }
                }
            default: continue
            }
        }
        return found ? false : nil
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
