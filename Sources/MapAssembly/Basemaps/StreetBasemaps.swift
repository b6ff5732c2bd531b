public import Foundation
public import MapCore
public import MapStyle
import MapUtilities
import TileSources
import Tilesets

/// The street-level basemaps a user has: vector tilesets of the OpenMapTiles or the Protomaps
/// schema that every command draws wherever they cover the view, under the standard looks
/// (their `basemap://streets` and `basemap://streets-protomaps` sources, one per schema) and,
/// for OpenMapTiles, the streets styles, with no option to give.
///
/// Two kinds are listed, in this order (the first that has a tile gives it):
///
/// 1. the user's registered basemaps, newest first, kept in `basemaps.json` in the user's data
///    folder (`~/.local/share/mapwright`): added with `mapwright basemap add FILE` (the file stays
///    where it is) or `basemap add URL` (a PMTiles archive on a web server, read with range
///    requests into the user's cache, see `Tilesets`' `HTTPRangeSource`);
/// 2. the tilesets in every data folder's `Tiles/streets/` (a checkout's, the installed data's,
///    `$MAPWRIGHT_DATA`'s): `scripts/setup.sh` puts the Helsinki sample there, so README's first
///    map has streets.
///
/// ```swift
/// let basemaps = StreetBasemaps()
/// let entry = try basemaps.add(path: "finland.mbtiles")
/// let style = loaded.configuringStreetBasemaps(basemaps.tilesets())
/// ```
public struct StreetBasemaps: Sendable {
    /// One street-level basemap.
    public struct Entry: Hashable, Sendable, RegisteredTileset {
        /// Its name: the file's name without extension unless given; unique among the registered.
        public var name: String
        /// The tileset's absolute path, or a remote archive's `http(s)` URL.
        public var path: String
        /// Where it covers (its metadata's `bounds`); nil when it does not say.
        public var bounds: BoundingBox?
        /// Its zooms, from its metadata.
        public var minZoom: Int?, maxZoom: Int?
        /// Whether it was found in a data folder's `Tiles/streets/` rather than registered.
        public var isBundled: Bool
        /// Its schema, from its layers. The default is OpenMapTiles.
        public var schema: StreetSchema

        public init(
            name: String, path: String, bounds: BoundingBox?, minZoom: Int?, maxZoom: Int?, isBundled: Bool = false,
            schema: StreetSchema = .openMapTiles
        ) {
            self.schema = schema
            self.name = name
            self.path = path
            self.bounds = bounds
            self.minZoom = minZoom
            self.maxZoom = maxZoom
            self.isBundled = isBundled
        }
    }

    /// The data folders (and the user's data folder) looked in. The default is the process's.
    public var locations: DataLocations

    public init(locations: DataLocations = DataLocations()) {
        self.locations = locations
    }

    /// The list of registered basemaps, `basemaps.json` in the user's data folder.
    var registry: TilesetRegistry<Entry> {
        TilesetRegistry("basemaps.json", key: "basemaps", input: .basemap, locations: locations)
    }

    /// The registry: `basemaps.json` in the user's data folder.
    public var registryURL: URL { registry.url }

    /// The registered basemaps, newest first; none when nothing was registered.
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` when the registry cannot be read.
    public func registered() throws(AssemblyError) -> [Entry] { try registry.entries() }

    /// The tilesets in the data folders' `Tiles/streets/`, by file name, data folder by data folder.
    public func bundled() -> [Entry] {
        bundledURLs().compactMap { url in
            guard var entry = try? Self.inspect(url) else { return nil }
            entry.isBundled = true
            return entry
        }
    }

    /// The `.mbtiles` and `.pmtiles` files of the data folders' `Tiles/streets/`, unopened.
    func bundledURLs() -> [URL] {
        var urls: [URL] = []
        for root in locations.roots {
            let folder = root.directory.appendingPathComponent("Tiles/streets", isDirectory: true)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names.sorted() where name.hasSuffix(".mbtiles") || name.hasSuffix(".pmtiles") {
                let url = folder.appendingPathComponent(name).standardizedFileURL
                if !urls.contains(url) { urls.append(url) }
            }
        }
        return urls
    }

    /// Every street-level basemap, registered (newest first) then bundled.
    public func all() throws(AssemblyError) -> [Entry] {
        let registered = try registered()
        return registered + bundled().filter { entry in !registered.contains { $0.path == entry.path } }
    }

    /// The tilesets to draw from, in order: the registered basemaps whose files are still there
    /// (and the remote archives registered), then the bundled ones. A registry that cannot be read
    /// gives the bundled ones only.
    public func tilesetURLs() -> [URL] {
        drawn().map { Self.url(of: $0.path) ?? URL(fileURLWithPath: $0.path) }
    }

    /// ``tilesetURLs()`` by schema, what ``MapStyle/Style/configuringStreetBasemaps(_:)`` takes.
    public func tilesets() -> [StreetSchema: [URL]] {
        Dictionary(grouping: drawn(), by: \.schema).mapValues {
            $0.map { Self.url(of: $0.path) ?? URL(fileURLWithPath: $0.path) }
        }
    }

    private func drawn() -> [Entry] {
        let registered = ((try? registered()) ?? []).filter {
            Self.url(of: $0.path) != nil || FileManager.default.fileExists(atPath: $0.path)
        }
        return registered + bundled().filter { entry in !registered.contains { $0.path == entry.path } }
    }

    /// A registered path's URL when it is a remote archive's `http(s)` URL; nil for a file's path.
    static func url(of path: String) -> URL? { HTTPRangeSource.remoteURL(path) }

    /// What the basemaps are, for content fingerprints (served tiles, resumed exports): each
    /// tileset's path, size and modification time, so tiles drawn from a replaced file are drawn
    /// again; a remote archive's URL.
    public var identity: String {
        tilesetURLs().map { url in url.isFileURL ? ContentFingerprint.file(url.path) : url.absoluteString }.joined(
            separator: ";")
    }

    /// Registers the OpenMapTiles-schema vector tileset at `path` (kept where it is), first in the
    /// list; registering a path again replaces its entry. `path` may be a PMTiles archive's
    /// `http(s)` URL: its header, directories and metadata are read to check it, and its tiles
    /// are read by range when drawn.
    ///
    /// - Parameter name: Its name. The default is the file's name without its extension.
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming the file or URL: missing, not a
    ///   tileset, not of vector tiles, another schema; or a name already taken by another.
    @discardableResult
    public func add(path: String, name: String? = nil) throws(AssemblyError) -> Entry {
        let remote = Self.url(of: path)
        if remote == nil { try AssemblyError.checkReadableFile(path, input: .basemap) }
        let url = remote ?? URL(fileURLWithPath: path).standardizedFileURL
        var entry = try Self.inspect(url)
        if let name { entry.name = name }
        try registry.add(entry)
        return entry
    }

    /// Unregisters the basemap `name`; its file is left where it is.
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` when no registered basemap has that name.
    @discardableResult
    public func remove(name: String) throws(AssemblyError) -> Entry {
        try registry.remove(name: name) { names in
            let bundled = bundled().contains { $0.name == name }
            let hint =
                bundled
                ? "'\(name)' is in a data folder's Tiles/streets/, not registered: delete the file to stop drawing it"
                : names.isEmpty ? "none is registered" : "registered: \(names.joined(separator: ", "))"
            return "no registered basemap is named '\(name)' (\(hint))"
        }
    }

    /// The entry for a tileset: opened, checked to hold vector tiles of the OpenMapTiles or the Protomaps schema.
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming the file and the problem.
    static func inspect(_ url: URL) throws(AssemblyError) -> Entry {
        let display = url.isFileURL ? url.path : url.absoluteString
        let source: any TileSource
        do { source = try TileSourceLocation.file(url).open() } catch {
            throw .invalid(
                .basemap,
                reason: error.description.hasPrefix(display) ? error.description : "\(display): \(error.description)")
        }
        let metadata: TileMetadata
        do { metadata = try source.metadata() } catch {
            throw .invalid(.basemap, reason: "\(display): its metadata cannot be read: \(error)")
        }
        guard metadata.format == nil || metadata.format == .pbf else {
            throw .invalid(
                .basemap,
                reason:
                    "\(display) holds \(metadata.format?.rawValue ?? "") tiles, not vector tiles: a basemap is an OpenMapTiles- or Protomaps-schema vector tileset"
            )
        }
        let layers = Self.vectorLayerIDs(metadata.json)
        let schema = StreetSchema.detect(layerIDs: layers)
        if !layers.isEmpty, schema == nil {
            throw .invalid(
                .basemap,
                reason:
                    "\(display) is of neither the OpenMapTiles nor the Protomaps schema (its layers: \(layers.sorted().prefix(8).joined(separator: ", "))): the shipped styles draw OpenMapTiles' transportation, water, building... layers or Protomaps' roads, water, buildings..."
            )
        }
        let zooms = (try? source.zoomRange()) ?? nil
        return Entry(
            name: url.deletingPathExtension().lastPathComponent, path: display, bounds: metadata.bounds,
            minZoom: metadata.minZoom ?? zooms?.lowerBound, maxZoom: metadata.maxZoom ?? zooms?.upperBound,
            schema: schema ?? .openMapTiles)
    }

    /// The ids of a vector tileset's `vector_layers` (its metadata's `json`); none when it does not list them.
    static func vectorLayerIDs(_ json: String?) -> Set<String> {
        guard let data = json?.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let layers = object["vector_layers"] as? [[String: Any]]
        else { return [] }
        return Set(layers.compactMap { $0["id"] as? String })
    }

    /// An entry of `basemaps.json`: `{"basemaps": [{"name", "path", "bounds": [w, s, e, n], "minzoom", "maxzoom", "schema"}]}`;
    /// `schema` (`openmaptiles` or `protomaps`) missing is OpenMapTiles (registries written before Protomaps).
    struct Stored: Codable {
        var name: String
        var path: String
        var bounds: [Double]?
        var minzoom: Int?
        var maxzoom: Int?
        var schema: String?

        init(_ entry: Entry) {
            schema = entry.schema.rawValue
            name = entry.name
            path = entry.path
            bounds = entry.bounds.map { [$0.west, $0.south, $0.east, $0.north] }
            minzoom = entry.minZoom
            maxzoom = entry.maxZoom
        }

        var entry: Entry {
            let box = bounds.flatMap {
                $0.count == 4 ? BoundingBox(west: $0[0], south: $0[1], east: $0[2], north: $0[3]) : nil
            }
            return Entry(
                name: name, path: path, bounds: box, minZoom: minzoom, maxZoom: maxzoom,
                schema: schema.flatMap(StreetSchema.init(rawValue:)) ?? .openMapTiles)
        }
    }
}

extension StreetBasemaps.Entry {
    init(stored: StreetBasemaps.Stored) { self = stored.entry }
    var stored: StreetBasemaps.Stored { StreetBasemaps.Stored(self) }
}
