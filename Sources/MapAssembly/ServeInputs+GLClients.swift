import FontGlyphs
import Foundation
import MapData
import MapRenderer
public import MapServer
import MapStyle
import MapUtilities
import Tilesets

extension ServeInputs {
    /// The local tileset files `styles` draw from that are not among `tilesets`, opened to be
    /// served as data with them (`/data/NAME/…`), so that the styles' style.json sources have
    /// tiles to point at: `--vector-source`, `--raster-source FILE`, a style's own `mbtiles://` or
    /// `pmtiles://` files, and the street basemaps of a schema a style reads, several read as one.
    /// A file also given with `--tiles` is that tileset (opened once). Each is named after its
    /// file, without the extension (several read as one after the source's id), with `-2`, `-3`…
    /// added when the name is taken; a file that cannot be opened is left out, with a warning
    /// (its style.json is then the style's raster tiles).
    ///
    /// - Returns: The files opened, by style then source id, and the warnings.
    public static func styleTilesets(of styles: [ServedStyle], besides tilesets: [ServedTileset]) -> (
        tilesets: [ServedTileset], warnings: [String]
    ) {
        var opened: [ServedTileset] = []
        var warnings: [String] = []
        var taken = Set(tilesets.map(\.name))
        func served(_ files: [URL]) -> Bool {
            ServerContent(tilesets: tilesets + opened).dataTileset(servingFiles: files) != nil
        }
        for style in styles {
            for id in style.style.sources.keys.sorted() {
                guard let files = style.style.sources[id].map(tilesetFiles), !files.isEmpty, !served(files) else {
                    continue
                }
                let stem = files.count == 1 ? files[0].deletingPathExtension().lastPathComponent : id
                var name = stem
                var suffix = 2
                while taken.contains(name) {
                    name = "\(stem)-\(suffix)"
                    suffix += 1
                }
                do throws(TilesetsError) {
                    opened.append(try ServedTileset(files: files, name: name))
                    taken.insert(name)
                } catch {
                    warnings.append(
                        "style '\(style.name)', source '\(id)': \(error.description); GL clients get the style's raster tiles"
                    )
                }
            }
        }
        return (opened, warnings)
    }

    /// The local tileset files a source reads as one: a vector tileset or several, a raster or
    /// DEM tileset file or several; none when it reads other data, or a file on the web.
    private static func tilesetFiles(of source: StyleSource) -> [URL] {
        let urls: [URL]
        switch source {
        case .vector(let vector):
            switch vector.location {
            case .tileset(let url): urls = [url]
            case .tilesets(let files): urls = files
            default: return []
            }
        case .raster(let raster): urls = rasterFiles(raster)
        case .rasterDEM(let dem): urls = rasterFiles(dem.tiles)
        case .geoJSON, .image: return []
        }
        return urls.allSatisfy(\.isFileURL) ? urls : []
    }

    private static func rasterFiles(_ source: RasterSource) -> [URL] {
        switch source.tiles {
        case .file(let url)?: [url]
        case .files(let urls)?: urls
        default: []
        }
    }

    /// The fonts served to GL clients: those of the folder `path` (``ServeInputs/fonts``; nil for
    /// none), and the installed faces the renderer draws with (its fonts folder, then the pinned
    /// font packages, or `MAPWRIGHT_FONTCONFIG_FILE`'s), whose glyph ranges are generated.
    ///
    /// - Returns: The fonts, and a warning when fontconfig cannot list the installed ones (the
    ///   folder's are served alone).
    /// - Throws: ``AssemblyError`` naming `--fonts` when `path` is not a folder that can be read.
    static func servedFonts(_ path: String?, fontsDirectory: URL?) throws(AssemblyError) -> (
        fonts: ServedFonts, warning: String?
    ) {
        if let path, let reason = AssemblyError.unreadableFolderReason(path) { throw .invalid(.fonts, reason: reason) }
        let sources = MapData.fontSources(fontsDirectory: fontsDirectory)
        var installed: InstalledFonts?
        var warning: String?
        do throws(FontGlyphsError) {
            installed = try InstalledFonts(
                directories: sources.directories, configurationFile: sources.configurationFile)
        } catch {
            warning = "fonts: glyphs are not generated from the installed fonts: \(error)"
        }
        return (
            ServedFonts(directory: path.map { URL(fileURLWithPath: $0).standardizedFileURL }, installed: installed),
            warning
        )
    }
}
