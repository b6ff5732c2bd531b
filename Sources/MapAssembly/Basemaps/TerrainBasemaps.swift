public import Foundation
import ImageCodec
public import MapCore
public import MapStyle
import MapUtilities
import TileSources
import Tilesets

/// The elevation tilesets (DEMs) a user has: raster tilesets of Terrarium or Mapbox Terrain-RGB
/// PNG tiles that shade the standard looks wherever they cover the view (their hillshade layer
/// reads the source `basemap://terrain`), with no option to give. Without one the layer draws
/// nothing.
///
/// They are kept in `terrain.json` in the user's data folder (`~/.local/share/mapwright`),
/// newest first, beside the street-level basemaps' `basemaps.json`: added with `mapwright terrain
/// add FILE` (the file stays where it is) or made from a GeoTIFF by `mapwright terrain build`.
/// Where two overlap, the newer wins. All share one encoding, the one the style's source is told.
///
/// ```swift
/// let terrain = TerrainBasemaps()
/// let entry = try terrain.add(path: "alps-terrarium.mbtiles")
/// let style = terrain.configuring(loaded)
/// ```
public struct TerrainBasemaps: Sendable {
    /// How a DEM's pixels give metres.
    public enum Encoding: String, Hashable, Sendable, CaseIterable, Codable {
        /// Terrarium (Mapzen, AWS Terrain Tiles, Protomaps, Mapterhorn): `R × 256 + G + B / 256 − 32768`.
        case terrarium
        /// Mapbox Terrain-RGB: `(R × 65536 + G × 256 + B) / 10 − 10000`.
        case mapbox

        /// The style's encoding.
        public var demEncoding: DEMEncoding { self == .terrarium ? .terrarium : .mapbox }
    }

    /// One registered DEM.
    public struct Entry: Hashable, Sendable, RegisteredTileset {
        /// Its name: the file's name without extension unless given; unique among the registered.
        public var name: String
        /// The tileset's absolute path.
        public var path: String
        /// How its pixels give metres.
        public var encoding: Encoding
        /// Its tiles' width in pixels (256 or 512), the style source's `tileSize`.
        public var tileSizePixels: Int
        /// Where it covers (its metadata's `bounds`); nil when it does not say.
        public var bounds: BoundingBox?
        /// Its zooms, from its metadata.
        public var minZoom: Int?, maxZoom: Int?
        /// Its metadata's `attribution`, shown on maps it shades; nil when it has none.
        public var attribution: String?

        public init(
            name: String, path: String, encoding: Encoding, tileSizePixels: Int = 256, bounds: BoundingBox? = nil,
            minZoom: Int? = nil, maxZoom: Int? = nil, attribution: String? = nil
        ) {
            self.name = name
            self.path = path
            self.encoding = encoding
            self.tileSizePixels = tileSizePixels
            self.bounds = bounds
            self.minZoom = minZoom
            self.maxZoom = maxZoom
            self.attribution = attribution
        }
    }

    /// Where the user's data folder is. The default is the process's.
    public var locations: DataLocations

    public init(locations: DataLocations = DataLocations()) {
        self.locations = locations
    }

    /// The list of registered DEMs, `terrain.json` in the user's data folder.
    var registry: TilesetRegistry<Entry> {
        TilesetRegistry("terrain.json", key: "terrain", input: .terrain, locations: locations)
    }

    /// The registry: `terrain.json` in the user's data folder.
    public var registryURL: URL { registry.url }

    /// The registered DEMs, newest first; none when nothing was registered.
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` when the registry cannot be read.
    public func registered() throws(AssemblyError) -> [Entry] { try registry.entries() }

    /// The DEMs to draw, newest first: the registered ones whose files are still there. A
    /// registry that cannot be read gives none.
    public func drawn() -> [Entry] {
        ((try? registered()) ?? []).filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// `style` with its `basemap://terrain` sources reading the drawn DEMs (in the newest's
    /// encoding and tile size, their attributions joined); with none, they draw nothing.
    public func configuring(_ style: Style) -> Style {
        guard !style.terrainBasemapSourceIDs.isEmpty else { return style }
        let entries = drawn()
        var credits: [String] = []
        for credit in entries.compactMap(\.attribution) where !credit.isEmpty && !credits.contains(credit) {
            credits.append(credit)
        }
        return style.configuringTerrainBasemaps(
            entries.map { URL(fileURLWithPath: $0.path) },
            encoding: (entries.first?.encoding ?? .terrarium).demEncoding,
            tileSizePixels: entries.first?.tileSizePixels ?? 256,
            attribution: credits.isEmpty ? nil : credits.joined(separator: " · "))
    }

    /// What the DEMs are, for content fingerprints: each file's path, size and modification time.
    public var identity: String {
        drawn().map { ContentFingerprint.file($0.path) }.joined(separator: ";")
    }

    /// Registers the DEM tileset at `path` (kept where it is), first in the list; registering a
    /// path again replaces its entry.
    ///
    /// - Parameters:
    ///   - name: Its name. The default is the file's name without its extension.
    ///   - encoding: How its pixels give metres. The default (nil) reads it from the metadata:
    ///     an `encoding` row or TileJSON member, else a name, description or attribution naming
    ///     Terrarium, Mapterhorn or Protomaps (Terrarium) or Terrain-RGB (Mapbox).
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming the file: missing, not a tileset,
    ///   not of PNG tiles, an encoding it does not tell, one other than the registered DEMs'; or
    ///   a name already taken by another file.
    @discardableResult
    public func add(path: String, name: String? = nil, encoding: Encoding? = nil) throws(AssemblyError) -> Entry {
        try AssemblyError.checkReadableFile(path, input: .terrain)
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var entry = try Self.inspect(url, encoding: encoding)
        if let name { entry.name = name }
        try registry.add(entry) { entries throws(AssemblyError) in
            let others = entries.filter { $0.encoding != entry.encoding }
            if !others.isEmpty {
                throw .invalid(
                    .terrain,
                    reason:
                        "\(url.path) is \(entry.encoding.rawValue)-encoded, but the registered DEMs \(others.map(\.name).joined(separator: ", ")) are \(others[0].encoding.rawValue): the DEMs drawn together share one encoding; remove those first (mapwright terrain remove NAME) or give --encoding if this one was misread"
                )
            }
        }
        return entry
    }

    /// Unregisters the DEM `name`; its file is left where it is.
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` when no registered DEM has that name.
    @discardableResult
    public func remove(name: String) throws(AssemblyError) -> Entry {
        try registry.remove(name: name) { names in
            "no registered DEM is named '\(name)' (\(names.isEmpty ? "none is registered" : "registered: \(names.joined(separator: ", "))"))"
        }
    }

    /// The entry for a tileset: opened, checked to hold PNG tiles, its encoding and tile size found.
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming the file and the problem.
    static func inspect(_ url: URL, encoding given: Encoding?) throws(AssemblyError) -> Entry {
        let display = url.path
        let source: any TileSource
        do { source = try TileSourceLocation.file(url).open() } catch {
            throw .invalid(.terrain, reason: "\(display): \(error.description)")
        }
        let metadata: TileMetadata
        do { metadata = try source.metadata() } catch {
            throw .invalid(.terrain, reason: "\(display): its metadata cannot be read: \(error)")
        }
        switch metadata.format {
        case .png?, nil: break
        case .webp?:
            throw .invalid(
                .terrain,
                reason:
                    "\(display) holds WebP tiles, which Mapwright does not decode: use a PNG DEM tileset, or build one from a GeoTIFF with `mapwright terrain build`"
            )
        case let other?:
            throw .invalid(
                .terrain,
                reason:
                    "\(display) holds \(other.rawValue) tiles, not PNG elevations: a DEM is a tileset of Terrarium or Mapbox Terrain-RGB PNG tiles"
            )
        }
        guard let encoding = given ?? Self.encoding(in: metadata) else {
            throw .invalid(
                .terrain,
                reason:
                    "\(display) does not say how its pixels give elevations (no 'encoding' in its metadata): give --encoding terrarium or --encoding mapbox"
            )
        }
        let zooms = (try? source.zoomRange()) ?? nil
        let size = try Self.tileSizePixels(of: source, display: display)
        return Entry(
            name: url.deletingPathExtension().lastPathComponent, path: url.path, encoding: encoding,
            tileSizePixels: size,
            bounds: metadata.bounds, minZoom: metadata.minZoom ?? zooms?.lowerBound,
            maxZoom: metadata.maxZoom ?? zooms?.upperBound,
            attribution: metadata.attribution)
    }

    /// The encoding a tileset's metadata tells: its `encoding` (an MBTiles row, or a member of
    /// its `json` or a PMTiles archive's metadata), else the words of its name, description and
    /// attribution (Terrarium, Mapterhorn and Protomaps tiles are Terrarium; Terrain-RGB is Mapbox's).
    static func encoding(in metadata: TileMetadata) -> Encoding? {
        if let value = metadata.otherValues["encoding"], let encoding = Encoding(rawValue: value.lowercased()) {
            return encoding
        }
        if let data = metadata.json?.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let value = object["encoding"] as? String, let encoding = Encoding(rawValue: value.lowercased())
        {
            return encoding
        }
        let words = [metadata.name, metadata.description, metadata.attribution].compactMap { $0 }.joined(separator: " ")
            .lowercased()
        if ["terrarium", "mapterhorn", "protomaps"].contains(where: words.contains) { return .terrarium }
        if ["terrain-rgb", "terrain rgb", "mapbox"].contains(where: words.contains) { return .mapbox }
        return nil
    }

    /// The width of the tileset's first tile, which must be a square PNG.
    private static func tileSizePixels(of source: any TileSource, display: String) throws(AssemblyError) -> Int {
        struct Found: Error { let data: Data }
        var first: Data?
        do { try source.forEachTile { _, data in throw Found(data: data) } } catch let found as Found {
            first = found.data
        } catch {
            throw .invalid(.terrain, reason: "\(display): its tiles cannot be read: \(error)")
        }
        guard let first else { throw .invalid(.terrain, reason: "\(display) holds no tiles") }
        guard TileFormat(sniffing: first) == .png else {
            throw .invalid(
                .terrain,
                reason:
                    "\(display)'s tiles are not PNG images: a DEM is a tileset of Terrarium or Mapbox Terrain-RGB PNG tiles"
            )
        }
        let image: RGBAImage
        do { image = try RGBAImage(pngData: first) } catch {
            throw .invalid(.terrain, reason: "\(display)'s first tile cannot be decoded: \(error)")
        }
        guard image.width == image.height, [256, 512].contains(image.width) else {
            throw .invalid(
                .terrain,
                reason:
                    "\(display)'s tiles are \(image.width)×\(image.height) pixels: DEM tiles are squares of 256 or 512")
        }
        return image.width
    }

    /// An entry of `terrain.json`: `{"terrain": [{"name", "path", "encoding", "tileSize", "bounds", "minzoom", "maxzoom", "attribution"}]}`.
    struct Stored: Codable {
        var name: String
        var path: String
        var encoding: Encoding
        var tileSize: Int
        var bounds: [Double]?
        var minzoom: Int?
        var maxzoom: Int?
        var attribution: String?

        init(_ entry: Entry) {
            name = entry.name
            path = entry.path
            encoding = entry.encoding
            tileSize = entry.tileSizePixels
            bounds = entry.bounds.map { [$0.west, $0.south, $0.east, $0.north] }
            minzoom = entry.minZoom
            maxzoom = entry.maxZoom
            attribution = entry.attribution
        }

        var entry: Entry {
            let box = bounds.flatMap {
                $0.count == 4 ? BoundingBox(west: $0[0], south: $0[1], east: $0[2], north: $0[3]) : nil
            }
            return Entry(
                name: name, path: path, encoding: encoding, tileSizePixels: tileSize, bounds: box, minZoom: minzoom,
                maxZoom: maxzoom,
                attribution: attribution)
        }
    }
}

extension TerrainBasemaps.Entry {
    init(stored: TerrainBasemaps.Stored) { self = stored.entry }
    var stored: TerrainBasemaps.Stored { TerrainBasemaps.Stored(self) }
}
