public import Foundation
public import MapComposer
public import MapData
import MapRenderer
public import MapStyle
import MapUtilities
import Tilesets

/// Where a style and its data come from: what `--raster-source`, `--vector-source`,
/// `--styles-directory` and `--basemap-directory` say, as values. Loads a style with its sources
/// configured and the map data it draws from, the same for the commands and for a program that
/// embeds Mapwright:
///
/// ```swift
/// let inputs = MapInputs(vectorSource: "Samples/helsinki/helsinki.mbtiles")
/// let map = try inputs.load(style: "streets")
/// for warning in map.warnings { print(warning) }
/// let place = try map.resolvePlace(named: "Finland")
/// ```
public struct MapInputs: Sendable {
    /// Imagery for the satellite and hybrid styles: a tile URL template or an .mbtiles file; nil for none.
    public var rasterSource: String?
    /// Vector tiles for the styles that draw them: an .mbtiles or .pmtiles file; nil for none.
    public var vectorSource: String?
    /// The folder of named styles; nil looks in the data folders.
    public var stylesDirectory: String?
    /// The folder holding the bundled basemap; nil looks in the data folders.
    public var basemapDirectory: String?
    /// Where data folders are looked for. The default is the process's environment and executable.
    public var locations: DataLocations

    public init(
        rasterSource: String? = nil, vectorSource: String? = nil, stylesDirectory: String? = nil,
        basemapDirectory: String? = nil,
        locations: DataLocations = DataLocations()
    ) {
        self.rasterSource = rasterSource
        self.vectorSource = vectorSource
        self.stylesDirectory = stylesDirectory
        self.basemapDirectory = basemapDirectory
        self.locations = locations
    }

    /// The street-level basemaps the user has, found through ``locations``.
    public var streetBasemaps: StreetBasemaps { StreetBasemaps(locations: locations) }

    /// The elevation tilesets (DEMs) the user registered, found through ``locations``.
    public var terrainBasemaps: TerrainBasemaps { TerrainBasemaps(locations: locations) }

    /// Whether `style` names a file (a path, or a name ending in .json) rather than a style of the styles folder.
    public static func namesFile(_ style: String) -> Bool {
        style.hasSuffix(".json") || style.contains("/")
    }

    /// A style's file: the path, or `NAME.json` in the styles folder.
    ///
    /// - Throws: ``AssemblyError`` listing where styles were looked for, when no folder holds any.
    public func styleFileURL(named style: String) throws(AssemblyError) -> URL {
        if Self.namesFile(style) { return URL(fileURLWithPath: style) }
        return try stylesFolder().appendingPathComponent("\(style).json")
    }

    private func stylesFolder() throws(AssemblyError) -> URL {
        try locations.directory(for: .styles, given: stylesDirectory, input: .stylesDirectory)
    }

    /// Starts reading and decoding the style file `style` names (as
    /// ``loadStyle(named:vectorSourceOnlyIfDrawn:)`` finds it) on another thread, and returns at
    /// once: that load then takes the result (`Style.prefetch(from:)`). Nothing happens for a
    /// style that cannot be found (the load says why).
    public func prefetchStyle(named style: String) {
        guard let url = try? styleFileURL(named: style) else { return }
        Style.prefetch(from: url)
    }

    /// A style by name or path with its raster and vector sources configured, and its warnings.
    ///
    /// - Parameter onlyIfDrawn: Whether ``vectorSource`` goes only to a style that draws vector
    ///   tiles (a server, whose styles may be of both kinds); by default a style that draws none
    ///   is an error with it.
    /// - Throws: ``AssemblyError`` naming the input at fault.
    public func loadStyle(named style: String, vectorSourceOnlyIfDrawn onlyIfDrawn: Bool = false) throws(AssemblyError)
        -> (style: Style, warnings: [StyleWarning])
    {
        let loaded: (style: Style, warnings: [StyleWarning])
        if Self.namesFile(style) {
            do throws(StyleError) { loaded = try Style.load(from: URL(fileURLWithPath: style)) } catch {
                throw .style(error)
            }
        } else {
            let styles = try stylesFolder()
            do throws(StyleError) { loaded = try Style.named(style, in: styles) } catch { throw .style(error) }
        }
        var configured = loaded.style
        if let rasterSource {
            do throws(StyleError) {
                configured = try configured.configuringRasterSources(
                    RasterTileLocation(argument: rasterSource, relativeTo: URL(fileURLWithPath: ".")))
            } catch {
                throw .invalid(.rasterSource, reason: error.description)
            }
        }
        do throws(StyleError) { try configured.requireConfiguredRasterSources() } catch {
            throw .needs(.rasterSource, error)
        }
        if let vectorSource, !onlyIfDrawn || configured.drawsVectorTiles {
            let remote = HTTPRangeSource.remoteURL(vectorSource)
            if remote == nil { try AssemblyError.checkReadableFile(vectorSource, input: .vectorSource) }
            guard vectorSource.hasSuffix(".mbtiles") || vectorSource.hasSuffix(".pmtiles") else {
                throw .invalid(.vectorSource, reason: "'\(vectorSource)' must end in .mbtiles or .pmtiles")
            }
            guard configured.drawsVectorTiles else {
                throw .invalid(
                    .vectorSource,
                    reason:
                        "style '\(configured.id)' draws no vector tiles; use --style streets (or streets-dark, streets-muted)"
                )
            }
            do throws(StyleError) {
                configured = try configured.configuringVectorSources(remote ?? URL(fileURLWithPath: vectorSource))
            } catch {
                throw .invalid(.vectorSource, reason: error.description)
            }
        }
        // Without --vector-source, the street-level basemaps the user has (see StreetBasemaps)
        // feed the standard looks' basemap://streets and any source waiting for vector tiles.
        // Sources waiting for vector tiles (the streets styles, public styles) are of the
        // OpenMapTiles schema.
        // Opened only when some source reads them (each tileset's metadata is read to list it).
        let readsStreets =
            (vectorSource == nil && !configured.unconfiguredVectorSourceIDs.isEmpty)
            || !configured.streetBasemapSourceIDs().isEmpty
        let streets = readsStreets ? streetBasemaps.tilesets() : [:]
        let openMapTiles = streets[.openMapTiles] ?? []
        if vectorSource == nil, !openMapTiles.isEmpty, !configured.unconfiguredVectorSourceIDs.isEmpty {
            for id in configured.unconfiguredVectorSourceIDs {
                guard case .vector(var vector)? = configured.sources[id] else { continue }
                vector.location = .tilesets(openMapTiles)
                vector.tileServer = nil
                configured.sources[id] = .vector(vector)
            }
        }
        configured = configured.configuringStreetBasemaps(streets)
        // The registered DEMs feed the standard looks' basemap://terrain (none: it draws nothing).
        configured = terrainBasemaps.configuring(configured)
        do throws(StyleError) { try configured.requireConfiguredVectorSources() } catch {
            throw .needs(.vectorSource, error)
        }
        return (configured, loaded.warnings)
    }

    /// The map data `style` draws from: the bundled basemap when the style or a place name needs it.
    ///
    /// - Throws: ``AssemblyError`` listing where the basemap was looked for, when it is needed and missing.
    /// Text is drawn with the first data folder's `Fonts/` before the pinned fonts.
    public func mapData(for style: Style, needsPlaces: Bool) throws(AssemblyError) -> MapData {
        try mapData(needsBasemap: style.usesBundledBasemap || needsPlaces)
    }

    /// The map data place names are looked up in (``MapData/resolvePlace(named:style:)``): the bundled basemap.
    ///
    /// - Throws: ``AssemblyError`` listing where the basemap was looked for, when it is missing.
    public func placeData() throws(AssemblyError) -> MapData {
        try mapData(needsBasemap: true)
    }

    /// Starts loading, on another core, the fonts that the map data of inputs with `locations`
    /// draws text with (``MapData/prepareFonts(fontsDirectory:)``), before the inputs are known:
    /// the data made later finds them loaded, or loading. Returns at once.
    public static func prepareFonts(locations: DataLocations = DataLocations()) {
        MapData.prepareFonts(fontsDirectory: locations.existingDirectory(for: .fonts))
    }

    /// The fonts start loading at once, on another core (``MapData/prepareFonts()``).
    private func mapData(needsBasemap: Bool) throws(AssemblyError) -> MapData {
        let data = MapData(
            basemapDirectory: try locations.basemapDirectory(given: basemapDirectory, needed: needsBasemap),
            fontsDirectory: locations.existingDirectory(for: .fonts))
        data.prepareFonts()
        return data
    }

    /// A style with its data: ``loadStyle(named:vectorSourceOnlyIfDrawn:)`` then ``mapData(for:needsPlaces:)``.
    public func load(style name: String, needsPlaces: Bool = false, vectorSourceOnlyIfDrawn: Bool = false)
        throws(AssemblyError) -> StyledMap
    {
        let (style, warnings) = try loadStyle(named: name, vectorSourceOnlyIfDrawn: vectorSourceOnlyIfDrawn)
        return StyledMap(
            name: name, style: style, data: try mapData(for: style, needsPlaces: needsPlaces), warnings: warnings)
    }

    /// What ``vectorSource`` is, for content fingerprints: its absolute path, size and
    /// modification time (a remote archive's URL), with the registered DEMs' (which shade the
    /// standard looks); `-` without one or any. A tileset rewritten in place has another size or
    /// time, so tiles drawn from it are drawn again.
    public var vectorSourceIdentity: String {
        let terrain = terrainBasemaps.identity
        let terrainPart = terrain.isEmpty ? "" : "|terrain:" + terrain
        guard let vectorSource else {
            let streets = streetBasemaps.identity
            return streets.isEmpty && terrain.isEmpty ? "-" : "streets:" + streets + terrainPart
        }
        if let remote = HTTPRangeSource.remoteURL(vectorSource) { return remote.absoluteString }
        return ContentFingerprint.file(URL(fileURLWithPath: vectorSource).standardizedFileURL.path) + terrainPart
    }
}

/// A style loaded with its sources configured, and the map data it draws from.
public struct StyledMap: Sendable {
    /// The style's name or path, as asked for.
    public var name: String
    public var style: Style
    public var data: MapData
    /// What loading the style noticed (unsupported properties), for the caller to show.
    public var warnings: [StyleWarning]

    /// The place named `name` in the style's layers, then the bundled basemap's countries and
    /// states: looked up once, for the request's ``PhotoMapRequest/Framing/resolvedPlace(_:)``.
    ///
    /// - Throws: ``PhotoMapError/unknownPlace(_:suggestions:)`` with the closest names.
    public func resolvePlace(named name: String) throws(PhotoMapError) -> ResolvedPlace {
        try data.resolvePlace(named: name, style: style)
    }
}
