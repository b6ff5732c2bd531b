import Foundation
import MapCore
import MapJSON

extension StyleDecoder {
    /// Reads `sources` (MapLibre Style Specification, "Sources").
    mutating func decodeSources(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [String: StyleSource] {
        var sources: [String: StyleSource] = [:]
        for (id, value) in try object(json, at: path).sorted(by: { $0.key < $1.key }) {
            sources[id] = try decodeSource(value, at: path.appending(id))
        }
        return sources
    }

    private mutating func decodeSource(_ json: JSONValue, at path: StylePath) throws(StyleError) -> StyleSource {
        let members = try object(json, at: path)
        guard let typeJSON = members["type"] else { throw error(.missingKey("type"), at: path) }
        let type = try string(typeJSON, at: path.appending("type"))
        let attribution = try members["attribution"].map { value throws(StyleError) in
            try string(value, at: path.appending("attribution"))
        }
        switch type {
        case "vector":
            reportUnknownKeys(
                members,
                known: ["type", "url", "tiles", "scheme", "attribution", "minzoom", "maxzoom", "bounds", "promoteId"],
                at: path
            ) { "unknown or unsupported key '\($0)' of a vector source (ignored)" }
            // A TileJSON `url` gives what the source itself leaves out.
            var members = members
            var tileJSONTemplates: [String]?
            if case .string(let url)? = members["url"], let tileJSON = try tileJSON(url, at: path.appending("url")) {
                tileJSONTemplates = tileJSON.templates
                members.merge(tileJSON.members) { own, _ in own }
                members["url"] = nil
            }
            // A tile server's TileJSON (public styles name MapTiler's or their own) is not
            // fetched: the source waits for --vector-source, as one without `url` does.
            var tileServer: String?
            if case .string(let url)? = members["url"], Self.isRemote(url), url.lowercased().hasPrefix("http"),
                !Self.isRemoteArchive(url)
            {
                tileServer = url
                members["url"] = nil
            }
            var location =
                try members["url"].map { value throws(StyleError) in
                    try vectorLocation(try string(value, at: path.appending("url")), at: path.appending("url"))
                } ?? .unconfigured
            if let tilesJSON = members["tiles"] {
                location = .templates(
                    try tileTemplates(tilesJSON, at: path.appending("tiles")),
                    scheme: try scheme(members["scheme"], at: path))
            } else if let tileJSONTemplates {
                location = .templates(tileJSONTemplates, scheme: try scheme(members["scheme"], at: path))
            }
            var source = VectorSource(
                location: location,
                attribution: try members["attribution"].map { value throws(StyleError) in
                    try string(value, at: path.appending("attribution"))
                })
            if let value = members["minzoom"] {
                source.minZoom = try integer(value, in: 0...30, at: path.appending("minzoom"))
            }
            if let value = members["maxzoom"] {
                source.maxZoom = try integer(value, in: 0...30, at: path.appending("maxzoom"))
            }
            if let value = members["bounds"] { source.bounds = try bounds(value, at: path.appending("bounds")) }
            if let value = members["promoteId"] {
                source.promoteID = try promoteID(value, at: path.appending("promoteId"))
            }
            if case .unconfigured = location { source.tileServer = tileServer }
            return .vector(source)
        case "geojson":
            // Options that change nothing in a static render of the whole data are read and
            // accepted: tolerance and buffer (simplification and tiling of GL's worker),
            // generateId, maxzoom.
            reportUnknownKeys(
                members,
                known: [
                    "type", "data", "attribution", "cluster", "clusterRadius", "clusterMaxZoom", "clusterMinPoints",
                    "clusterProperties",
                    "lineMetrics", "tolerance", "buffer", "generateId", "promoteId", "maxzoom", "filter",
                ], at: path
            ) {
                "unknown or unsupported key '\($0)' of a geojson source (ignored)"
            }
            var source: GeoJSONSource
            switch members["data"] {
            case .string(let reference)?:
                guard !StyleDecoder.isRemote(reference) else {
                    throw error(
                        .invalidValue("'\(reference)' is not a local file: Mapwright reads GeoJSON from disk"),
                        at: path.appending("data"))
                }
                source = GeoJSONSource(
                    data: .file(StyleLocation.fileURL(reference, relativeTo: baseURL)), attribution: attribution)
            case .object(let object)? where object["type"] != nil:
                source = GeoJSONSource(data: .inline(members["data"]!.jsonText), attribution: attribution)
            default:
                // MapLibre draws nothing of a source without usable data, and the rest of the map.
                warn(
                    at: members["data"] == nil ? path : path.appending("data"),
                    members["data"] == nil
                        ? "a geojson source without 'data' draws nothing"
                        : "a geojson source's data is a GeoJSON object or the path of a GeoJSON file: this one draws nothing"
                )
                source = GeoJSONSource(
                    data: .inline(#"{"type":"FeatureCollection","features":[]}"#), attribution: attribution)
            }
            if case .bool(true)? = members["cluster"] {
                var clustering = GeoJSONSource.Clustering()
                if let value = members["clusterRadius"] {
                    clustering.radius = try number(
                        value, in: 0...Double.greatestFiniteMagnitude, at: path.appending("clusterRadius"))
                }
                if let value = members["maxzoom"] {
                    clustering.maxZoom = try integer(value, in: 0...24, at: path.appending("maxzoom")) - 1
                }
                if let value = members["clusterMaxZoom"] {
                    clustering.maxZoom = try integer(value, in: 0...24, at: path.appending("clusterMaxZoom"))
                }
                if let value = members["clusterMinPoints"] {
                    clustering.minPoints = try integer(
                        value, in: 2...Int(Int32.max), at: path.appending("clusterMinPoints"))
                }
                clustering.maxZoom = max(0, clustering.maxZoom)
                if let value = members["clusterProperties"] {
                    clustering.properties = try clusterProperties(value, at: path.appending("clusterProperties"))
                }
                source.clustering = clustering
            }
            if case .bool(let flag)? = members["lineMetrics"] { source.lineMetrics = flag }
            if let value = members["promoteId"] {
                source.promoteID = try promoteID(value, at: path.appending("promoteId"))
            }
            return .geoJSON(source)
        case "raster":
            reportUnknownKeys(members, known: StyleDecoder.rasterSourceKeys, at: path) {
                "unknown or unsupported key '\($0)' of a raster source (ignored)"
            }
            return .raster(try decodeRasterSource(members, attribution: attribution, at: path))
        case "raster-dem":
            return .rasterDEM(try decodeRasterDEMSource(members, attribution: attribution, at: path))
        case "image":
            return .image(try decodeImageSource(members, at: path))
        default:
            throw error(
                .invalidValue(
                    "source type '\(type)' is outside Mapwright's subset: expected vector, raster, raster-dem, image or geojson"
                ), at: path.appending("type"))
        }
    }

    /// `clusterProperties`: `{"name": [operator or reduce expression, map expression]}`, in
    /// name order, as MapLibre reads them: an operator name `op` reduces with
    /// `[op, ["accumulated"], ["get", name]]`.
    func clusterProperties(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [GeoJSONSource.ClusterProperty]
    {
        var properties: [GeoJSONSource.ClusterProperty] = []
        for (name, value) in try object(json, at: path).sorted(by: { $0.key < $1.key }) {
            guard case .array(let parts) = value, parts.count == 2 else {
                throw error(
                    .invalidValue(
                        "a cluster property is [operator, map expression] or [reduce expression, map expression]"),
                    at: path.appending(name))
            }
            let map = try expression(parts[1], at: path.appending(name))
            let reduceJSON: JSONValue =
                if case .string(let op) = parts[0] {
                    .array([.string(op), .array([.string("accumulated")]), .array([.string("get"), .string(name)])])
                } else {
                    parts[0]
                }
            let reduce = try expression(reduceJSON, at: path.appending(name))
            properties.append(GeoJSONSource.ClusterProperty(name: name, map: map, reduce: reduce))
        }
        return properties
    }

    /// Reads `promoteId`: a property name, or an object of property names by source layer.
    private func promoteID(_ json: JSONValue, at path: StylePath) throws(StyleError) -> PromoteID {
        if case .string(let name) = json { return .property(name) }
        var names: [String: String] = [:]
        for (layer, value) in try object(json, at: path) { names[layer] = try string(value, at: path.appending(layer)) }
        return .bySourceLayer(names)
    }

    /// The keys of a raster source (and of a raster-dem source, with its encoding's).
    static let rasterSourceKeys: Set<String> = [
        "type", "tiles", "url", "tileSize", "attribution", "minzoom", "maxzoom", "scheme", "bounds", "volatile",
    ]

    /// Reads a raster source's tiles: `tiles` or `url` (a tileset file, or a TileJSON whose
    /// members fill in what the source leaves out), `tileSize`, zooms, `scheme` and `bounds`.
    mutating func decodeRasterSource(
        _ members: [String: JSONValue],
        attribution: String?,
        at path: StylePath
    ) throws(StyleError) -> RasterSource {
        var members = members
        var source = RasterSource(attribution: attribution)
        if case .string(let url)? = members["url"],
            let tileJSON = try tileJSON(url, anyLocalFile: true, at: path.appending("url"))
        {
            members.merge(tileJSON.members) { own, _ in own }
            members["url"] = nil
            if members["tiles"] == nil, !tileJSON.templates.isEmpty { source.tiles = .templates(tileJSON.templates) }
            if source.attribution == nil, case .string(let text)? = members["attribution"] { source.attribution = text }
        }
        if let tilesJSON = members["tiles"] {
            let tilesPath = path.appending("tiles")
            var templates: [String] = []
            for (index, item) in try array(tilesJSON, at: tilesPath).enumerated() {
                templates.append(try string(item, at: tilesPath.appending(index: index)))
            }
            if !templates.isEmpty { source.tiles = .templates(templates) }
        }
        if let urlJSON = members["url"] {
            let urlPath = path.appending("url")
            let url = try string(urlJSON, at: urlPath)
            let scheme =
                RasterTileLocation.fileSchemes.first(where: { url.hasPrefix($0) })
                ?? (Self.isRemoteArchive(url) ? "" : nil)
            guard let scheme else {
                throw error(
                    .invalidValue(
                        "raster url '\(url)' is not supported: use mbtiles://PATH, pmtiles://PATH or a PMTiles archive's https:// URL, or tile URL templates in 'tiles'"
                    ),
                    at: urlPath)
            }
            guard source.tiles == nil else {
                throw error(.invalidValue("give either 'tiles' or 'url', not both"), at: urlPath)
            }
            source.tiles = .file(StyleLocation.tilesetURL(String(url.dropFirst(scheme.count)), relativeTo: baseURL))
        }
        if let value = members["tileSize"] {
            source.tileSize = try integer(value, in: 1...4096, at: path.appending("tileSize"))
        }
        if let value = members["minzoom"] {
            source.minZoom = try integer(value, in: 0...30, at: path.appending("minzoom"))
        }
        if let value = members["maxzoom"] {
            source.maxZoom = try integer(value, in: 0...30, at: path.appending("maxzoom"))
        }
        if let value = members["scheme"] {
            let text = try string(value, at: path.appending("scheme"))
            guard let scheme = TileScheme(rawValue: text) else {
                throw error(
                    .invalidValue("'\(text)' is not a tile scheme: expected xyz or tms"), at: path.appending("scheme"))
            }
            source.scheme = scheme
        }
        if let value = members["bounds"] {
            source.bounds = try bounds(value, at: path.appending("bounds"))
        }
        return source
    }

    /// `tiles`: URL templates; a relative path is made a `file://` template relative to the style file.
    private func tileTemplates(_ json: JSONValue, at path: StylePath) throws(StyleError) -> [String] {
        guard case .array(let items) = json, !items.isEmpty else {
            throw error(.invalidValue("tiles is a list of tile URL templates"), at: path)
        }
        var templates: [String] = []
        for (index, item) in items.enumerated() {
            let template = try string(item, at: path.appending(index: index))
            templates.append(
                template.contains("://")
                    ? template : "file://" + StyleLocation.fileURL(template, relativeTo: baseURL).path)
        }
        return templates
    }

    /// `scheme`: `xyz` (the default) or `tms`.
    private func scheme(_ json: JSONValue?, at path: StylePath) throws(StyleError) -> TileScheme {
        guard let json else { return .xyz }
        let text = try string(json, at: path.appending("scheme"))
        guard let scheme = TileScheme(rawValue: text) else {
            throw error(.invalidValue("scheme '\(text)' is not xyz or tms"), at: path.appending("scheme"))
        }
        return scheme
    }

    private func vectorLocation(_ url: String, at path: StylePath) throws(StyleError) -> VectorSourceLocation {
        for scheme in ["mbtiles://", "pmtiles://"] where url.hasPrefix(scheme) {
            let file = String(url.dropFirst(scheme.count))
            guard !file.isEmpty else {
                throw error(.invalidValue("'\(url)' names no file: expected \(scheme)PATH"), at: path)
            }
            return .tileset(StyleLocation.tilesetURL(file, relativeTo: baseURL))
        }
        if url.hasSuffix(".mbtiles") || url.hasSuffix(".pmtiles"), !StyleDecoder.isRemote(url) {
            return .tileset(StyleLocation.fileURL(url, relativeTo: baseURL))
        }
        // A PMTiles archive on a web server, read with range requests.
        if Self.isRemoteArchive(url) {
            return .tileset(StyleLocation.tilesetURL(url, relativeTo: baseURL))
        }
        if let schema = StreetSchema.allCases.first(where: { $0.basemapURL == url }) { return .streetBasemaps(schema) }
        if url.hasPrefix("basemap://") {
            let name = String(url.dropFirst("basemap://".count))
            guard !name.isEmpty, !name.contains("/") else {
                throw error(
                    .invalidValue("'\(url)' names no basemap: expected basemap://NAME, such as basemap://world"),
                    at: path)
            }
            return .basemap(name: name)
        }
        guard !StyleDecoder.isRemote(url) else {
            throw error(
                .invalidValue(
                    "vector source url '\(url)' is not supported: use mbtiles://PATH, pmtiles://PATH, a PMTiles archive's https:// URL, basemap://NAME or the path of a GeoPackage (Mapwright reads tileset files, not TileJSON from tile servers)"
                ), at: path)
        }
        return .file(StyleLocation.fileURL(url, relativeTo: baseURL))
    }

    /// Whether a reference is a PMTiles archive on a web server: an `http(s)` URL ending in `.pmtiles`.
    static func isRemoteArchive(_ reference: String) -> Bool {
        let lowercased = reference.lowercased()
        return (lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://")) && lowercased.hasSuffix(".pmtiles")
    }

    /// Whether a reference has a URL scheme other than `file`, such as `https://` or `mapbox://`.
    static func isRemote(_ reference: String) -> Bool {
        guard let range = reference.range(of: "://") else { return false }
        return reference[..<range.lowerBound] != "file"
    }
}
