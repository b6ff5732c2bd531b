import ArgumentParser
import Foundation
import MapRenderer
import MapStyle
import MapUtilities

/// Which style a map is drawn in, and where styles and the basemap are found: `--style`,
/// `--raster-source`, `--styles-directory` and `--basemap-directory`, shared by `render` and
/// `tiles export`.
struct StyleOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "A style name from the styles folder (standard, muted, dark, satellite, hybrid; streets, streets-muted, streets-dark with --vector-source) or a style JSON file.")
    var style: String = "standard"

    @Option(parsing: .unconditional, help: "Imagery for the satellite and hybrid styles: a tile URL template with {z}, {x} and {y} (also {s}, {r}) or an .mbtiles or .pmtiles file.")
    var rasterSource: String?

    @Option(parsing: .unconditional, help: "Vector tiles for the styles that draw them (streets): an OpenMapTiles-schema .mbtiles or .pmtiles file, such as Samples/helsinki/helsinki.mbtiles.")
    var vectorSource: String?

    @Option(parsing: .unconditional, help: "The folder of named styles; by default $MAPWRIGHT_DATA/Styles, then the installed, user and checkout data (README: Data and caches).")
    var stylesDirectory: String?

    @Option(parsing: .unconditional, help: "The folder holding the bundled basemap; by default $MAPWRIGHT_DATA/Tiles/basemap, then the installed, user and checkout data.")
    var basemapDirectory: String?

    /// The style by name from the styles folder, or from a file path, its raster sources
    /// configured by `--raster-source`; its warnings go to standard error.
    ///
    /// - Throws: `CommandFailure` with the style's problem in one line.
    func loadStyle() throws -> Style {
        try loadStyle(named: style)
    }

    /// A style by name or path, as ``loadStyle()`` loads `--style` (`serve` takes several).
    ///
    /// - Parameter onlyIfDrawn: Whether `--vector-source` goes only to a style that draws vector
    ///   tiles (`serve`, whose styles may be of both kinds); by default a style that draws none
    ///   is an error with it.
    /// - Throws: `CommandFailure` with the style's problem in one line.
    func loadStyle(named style: String, vectorSourceOnlyIfDrawn onlyIfDrawn: Bool = false) throws -> Style {
        let isFile = style.hasSuffix(".json") || style.contains("/")
        let styles = isFile ? nil : try DataLocations.commands.directory(for: .styles, option: stylesDirectory, named: "--styles-directory")
        let loaded: (style: Style, warnings: [StyleWarning])
        do throws(StyleError) {
            if let styles {
                loaded = try Style.named(style, in: styles)
            } else {
                loaded = try Style.load(from: URL(fileURLWithPath: style))
            }
        } catch {
            throw CommandFailure(error.description)
        }
        for warning in loaded.warnings { Mapwright.warn(warning.description) }
        var configured = loaded.style
        if let rasterSource {
            do throws(StyleError) {
                configured = try configured.configuringRasterSources(
                    RasterTileLocation(argument: rasterSource, relativeTo: URL(fileURLWithPath: ".")))
            } catch {
                throw CommandFailure("--raster-source: \(error.description)")
            }
        }
        do throws(StyleError) {
            try configured.requireConfiguredRasterSources()
        } catch {
            throw CommandFailure("\(error.description), with --raster-source")
        }
        if let vectorSource, !onlyIfDrawn || configured.drawsVectorTiles {
            try OutputPath.checkReadableFile(vectorSource, option: "--vector-source")
            guard vectorSource.hasSuffix(".mbtiles") || vectorSource.hasSuffix(".pmtiles") else {
                throw CommandFailure("--vector-source: '\(vectorSource)' must end in .mbtiles or .pmtiles")
            }
            guard configured.drawsVectorTiles else {
                throw CommandFailure("--vector-source: style '\(configured.id)' draws no vector tiles; use --style streets (or streets-dark, streets-muted)")
            }
            do throws(StyleError) {
                configured = try configured.configuringVectorSources(URL(fileURLWithPath: vectorSource))
            } catch {
                throw CommandFailure("--vector-source: \(error.description)")
            }
        }
        do throws(StyleError) {
            try configured.requireConfiguredVectorSources()
        } catch {
            throw CommandFailure("\(error.description), with --vector-source")
        }
        return configured
    }

    /// The map data `style` draws from: the bundled basemap when the style or a place name needs it.
    ///
    /// - Throws: `CommandFailure` listing where the basemap was looked for, when it is needed and missing.
    func mapData(for style: Style, needsPlaces: Bool) throws -> MapData {
        let basemap = try DataLocations.commands.basemapDirectory(option: basemapDirectory, needed: style.usesBundledBasemap || needsPlaces)
        return MapData(basemapDirectory: basemap)
    }
}

extension StyleOptions {
    /// The style's file: `--style` as a path, or `NAME.json` in the styles folder.
    ///
    /// - Throws: `CommandFailure` listing where styles were looked for, when none is found.
    func styleFileURL() throws -> URL {
        try styleFileURL(named: style)
    }

    /// A style's file, by name or path.
    func styleFileURL(named style: String) throws -> URL {
        if style.hasSuffix(".json") || style.contains("/") { return URL(fileURLWithPath: style) }
        let styles = try DataLocations.commands.directory(for: .styles, option: stylesDirectory, named: "--styles-directory")
        return styles.appendingPathComponent("\(style).json")
    }
}

extension StyleOptions {
    /// What `--vector-source` is, for content fingerprints (the cache key of `serve`, the resume
    /// check of `tiles export`): its absolute path, size and modification time; `-` without one.
    /// A tileset rewritten in place has another size or time, so its tiles are drawn again.
    var vectorSourceIdentity: String {
        guard let vectorSource else { return "-" }
        let url = URL(fileURLWithPath: vectorSource).standardizedFileURL
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(url.path):\(size):\(modified)"
    }
}
