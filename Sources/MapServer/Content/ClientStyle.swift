import Foundation
import MapJSON
import MapStyle

/// A served style as GL clients (MapLibre GL JS, QGIS, the mobile SDKs) read it, at
/// `/styles/NAME/style.json`: the style file's JSON (``ServedStyle/fileBytes``), its members as
/// written, with what only Mapwright could read pointed at the server, as TileServer GL rewrites
/// its styles' `local://`, `mbtiles://` and `pmtiles://` references:
///
/// - each source reading tileset files the server serves as data (``ServerContent/dataTilesets``:
///   `--vector-source`, `--raster-source FILE`, a style's own `mbtiles://` or `pmtiles://` file,
///   the street basemaps of its schema read as one) is
///   `{"type": TYPE, "url": "BASE/data/NAME.json"}` with the file's other members (`attribution`,
///   `minzoom`, `promoteId`, a DEM's `encoding`…; `tiles` and `scheme` dropped); a raster source
///   given URL templates by `--raster-source` gets them as its `tiles`; sources with `http(s)`
///   tiles, inline GeoJSON and images on the web are left as written;
/// - `sprite`: each sprite whose sheet is in local files is `BASE/styles/NAME/sprite` (the string
///   form) or `BASE/styles/NAME/sprite/ID` (each `{id, url}` of the array form), served from its
///   files; sprites on the web, and folders of SVG icons (no sheet to serve), are left as written;
/// - `glyphs`: `BASE/fonts/{fontstack}/{range}.pbf` in place of local glyphs, or of none when
///   the style draws text (the shipped styles name none and draw text with installed fonts): the
///   server answers them from `--fonts` or makes them from the installed fonts; glyphs on the web
///   are left as written;
/// - layers: split where they take from feature data what a GL client cannot
///   (``portableLayers(_:)``: a data-driven `line-dasharray` is one layer per dash pattern).
///
/// A style that draws from a source no GL client can read (the bundled basemap's GeoPackages,
/// `basemap://world` and `basemap://places` of the standard, muted, dark, hybrid styles; a
/// GeoPackage or GeoJSON file; tiles in a local folder)
/// cannot be rewritten faithfully: its style.json is then one raster source of the server's own
/// tiles of that style (its TileJSON, `BASE/styles/NAME.json`, 256-pixel PNGs drawn by Mapwright)
/// and one raster layer, with the style's `name`, `center`, `zoom`, `bearing` and `pitch`, and
/// `metadata["mapwright:raster"]` naming the sources that made it so. A GL client then shows the
/// same map as the viewer, as TileServer GL offers each style's raster tiles. Sources that no
/// layer draws from and no GL client can read are left out, and so are sources without data
/// (`basemap://streets` or `basemap://terrain` when none is registered) with their layers, which
/// draw nothing in Mapwright either.
enum ClientStyle {
    /// The style.json of `style`, its URLs starting with `base` (`http://HOST`).
    static func document(of style: ServedStyle, content: ServerContent, base: String) -> JSONValue {
        guard case .object(var root)? = try? JSONValue.parse(style.fileBytes) else {
            return rasterDocument(of: style, root: [:], base: base, reason: "the style file is not JSON")
        }
        var drawn = Set(style.style.layers.compactMap(\.source))
        if case .array(let layers)? = root["layers"] {
            for case .object(let layer) in layers {
                if case .string(let source)? = layer["source"] { drawn.insert(source) }
            }
        }
        var sources: [String: JSONValue] = [:]
        var empty: Set<String> = []
        var unreadable: [String] = []
        if case .object(let written)? = root["sources"] {
            for (id, json) in written {
                if let loaded = style.style.sources[id], drawsNothing(loaded) {
                    empty.insert(id)
                } else if let rewritten = source(json, as: style.style.sources[id], content: content, base: base) {
                    sources[id] = rewritten
                } else if drawn.contains(id) {
                    unreadable.append(id)
                }
            }
        }
        guard unreadable.isEmpty else {
            let names = unreadable.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return rasterDocument(
                of: style, root: root, base: base,
                reason: unreadable.count == 1
                    ? "its source \(names) cannot be read by GL clients"
                    : "its sources \(names) cannot be read by GL clients")
        }
        root["sources"] = .object(sources)
        // Sources without data (no street basemap or terrain registered) draw nothing, here as in Mapwright.
        if !empty.isEmpty, case .array(let layers)? = root["layers"] {
            root["layers"] = .array(
                layers.filter { layer in
                    guard case .string(let source)? = layer["source"] else { return true }
                    return !empty.contains(source)
                })
        }
        let styleURL = "\(base)/styles/\(URLPathComponent.encoded(style.name))"
        switch root["sprite"] {
        case .string(_)? where style.style.sprites.count == 1 && hasSheet(style.style.sprites[0]):
            root["sprite"] = .string("\(styleURL)/sprite")
        case .array(let items)?:
            root["sprite"] = .array(
                items.map { item in
                    guard case .object(var members) = item, case .string(let id)? = members["id"],
                        style.style.sprites.contains(where: { $0.id == id && hasSheet($0) })
                    else { return item }
                    members["url"] = .string("\(styleURL)/sprite/\(URLPathComponent.encoded(id))")
                    return .object(members)
                })
        default:
            break
        }
        if case .array(let layers)? = root["layers"] {
            root["layers"] = .array(portableLayers(layers))
        }
        if style.style.glyphs.map({ !$0.contains("://") }) ?? drawsText(root) {
            root["glyphs"] = .string("\(base)/fonts/{fontstack}/{range}.pbf")
        }
        return .object(root)
    }

    /// A source as GL clients read it (see ``ClientStyle``), or nil when none can.
    ///
    /// - Parameters:
    ///   - json: The source as the file writes it.
    ///   - loaded: The source as loaded and configured (`--vector-source`, `--raster-source`, the
    ///     registered basemaps): where its data is.
    private static func source(_ json: JSONValue, as loaded: StyleSource?, content: ServerContent, base: String)
        -> JSONValue?
    {
        guard case .object(var members) = json, let loaded else { return nil }
        func data(_ urls: [URL]) -> JSONValue? {
            guard let tileset = content.dataTileset(servingFiles: urls) else { return nil }
            members["url"] = .string("\(base)/data/\(URLPathComponent.encoded(tileset.name)).json")
            members["tiles"] = nil
            members["scheme"] = nil
            return .object(members)
        }
        func raster(_ source: RasterSource) -> JSONValue? {
            switch source.tiles {
            case .file(let url)?: return data([url])
            case .files(let urls)?: return data(urls)
            case .templates(let templates)? where templates.allSatisfy(isWebAddress):
                members["tiles"] = .array(templates.map(JSONValue.string))
                members["url"] = nil
                if members["tileSize"] == nil { members["tileSize"] = .number(Double(source.tileSize)) }
                return .object(members)
            default: return nil
            }
        }
        switch loaded {
        case .vector(let vector):
            switch vector.location {
            case .tileset(let url): return data([url])
            case .tilesets(let urls): return data(urls)
            case .templates(let templates, _) where templates.allSatisfy(isWebAddress): return json
            case .templates, .basemap, .file, .streetBasemaps, .unconfigured: return nil
            }
        case .raster(let source): return raster(source)
        case .rasterDEM(let source): return raster(source.tiles)
        case .geoJSON(let source):
            if case .inline = source.data { return json }
            return nil
        case .image(let source): return source.url.isFileURL ? nil : json
        }
    }

    /// Whether some symbol layer of the style draws text (has a `text-field`).
    private static func drawsText(_ root: [String: JSONValue]) -> Bool {
        guard case .array(let layers)? = root["layers"] else { return false }
        return layers.contains { $0["layout"]?["text-field"] != nil }
    }

    /// Whether a source has no data to draw from: a street basemap or terrain of the bundled
    /// styles when none is registered (`basemap://streets`, `basemap://terrain`).
    private static func drawsNothing(_ source: StyleSource) -> Bool {
        switch source {
        case .vector(let vector):
            switch vector.location {
            case .streetBasemaps: return true
            case .tilesets(let urls): return urls.isEmpty
            default: return false
            }
        case .raster(let raster): return raster.tiles?.drawsNothing ?? false
        case .rasterDEM(let dem): return dem.tiles.tiles?.drawsNothing ?? false
        case .geoJSON, .image: return false
        }
    }

    /// Whether a sprite is a sheet in local files (its `.json` index is there), which the server
    /// serves; a folder of SVG icons, which Mapwright makes a sheet of when it draws, is not.
    static func hasSheet(_ sprite: SpriteReference) -> Bool {
        sprite.url.isFileURL && FileManager.default.fileExists(atPath: sprite.indexURL(pixelRatio: 1).path)
    }

    /// Whether a tile URL template is fetched over HTTP, as GL clients fetch it.
    private static func isWebAddress(_ template: String) -> Bool {
        let lowercased = template.lowercased()
        return lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://")
    }

    /// The style as one raster source of the server's tiles of it (see ``ClientStyle``).
    private static func rasterDocument(of style: ServedStyle, root: [String: JSONValue], base: String, reason: String)
        -> JSONValue
    {
        var document: [String: JSONValue] = [
            "version": .number(8),
            "name": .string(style.style.name ?? style.name),
            "metadata": .object(["mapwright:raster": .string("Mapwright's raster tiles of the style: \(reason)")]),
            "sources": .object([
                "mapwright": .object([
                    "type": .string("raster"),
                    "url": .string("\(base)/styles/\(URLPathComponent.encoded(style.name)).json"),
                    "tileSize": .number(256),
                ])
            ]),
            "layers": .array([
                .object(["id": .string("mapwright"), "type": .string("raster"), "source": .string("mapwright")])
            ]),
        ]
        for key in ["center", "zoom", "bearing", "pitch"] { document[key] = root[key] }
        return .object(document)
    }
}
