import Foundation
import HTTPTypes
import Hummingbird
import MBTiles
import MapCore
import MapData
import MapRenderer
import MapStyle
import TileSources

/// TileJSON 3.0.0 documents (<https://github.com/mapbox/tilejson-spec/tree/master/3.0.0>): the
/// required `tilejson` and `tiles`, and `name`, `scheme`, `minzoom`, `maxzoom`, `bounds`,
/// `center`, `attribution`, `description`, plus `format` and `tileSize` as TileServer GL adds them.
/// Names in `tiles` URLs are percent-encoded (``URLPathComponent``).
enum TileJSON {
    static let version = "3.0.0"
    static let worldBounds: [Double] = [-180, -85.051129, 180, 85.051129]

    /// The start of every URL the server writes: the configured ``ServerConfiguration/publicURL``
    /// (`--public-url`), or `SCHEME://HOST` from the request's `Host`, or the configured address.
    /// The scheme is `https` when a proxy in front says so (`X-Forwarded-Proto: https`, or
    /// `Forwarded: proto=https`), else `http`, as TileServer GL writes its URLs behind a TLS proxy.
    static func baseURL(_ request: Request, _ configuration: ServerConfiguration) -> String {
        let scheme = forwardedScheme(request.headers) ?? "http"
        let requestBase: String
        if let authority = request.head.authority, !authority.isEmpty,
            authority.allSatisfy({ $0.isLetter || $0.isNumber || ".-:[]".contains($0) })
        {
            requestBase = "\(scheme)://\(authority)"
        } else {
            requestBase = "\(scheme)://\(configuration.host):\(configuration.port)"
        }
        return configuration.publicURL?.base(requestBase: requestBase) ?? requestBase
    }

    /// `http` or `https` as the first proxy in front saw the request; nil when no proxy says.
    static func forwardedScheme(_ headers: HTTPFields) -> String? {
        let first: String?
        if let proto = headers[HTTPField.Name("X-Forwarded-Proto")!] {
            first = proto.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        } else if let forwarded = headers[HTTPField.Name("Forwarded")!] {
            first = forwarded.split(separator: ",").first?.split(separator: ";").lazy
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .first { $0.hasPrefix("proto=") }.map {
                    String($0.dropFirst(6)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
        } else {
            first = nil
        }
        return first == "https" || first == "http" ? first : nil
    }

    static func style(_ style: ServedStyle, base: String, configuration: ServerConfiguration) -> [String: Any] {
        var json: [String: Any] = [
            "tilejson": version, "name": style.style.name ?? style.name, "scheme": "xyz", "format": "png",
            "tileSize": 256,
            "tiles": ["\(base)/styles/\(URLPathComponent.encoded(style.name))/{z}/{x}/{y}.png"],
            "minzoom": 0, "maxzoom": configuration.maximumZoom, "bounds": worldBounds, "center": [0, 0, 2],
        ]
        if let attribution = style.data.attributionText(for: style.style) { json["attribution"] = attribution }
        return json
    }

    /// The overlay's TileJSON; `bounds` are the photos' (world without photos).
    static func overlay(
        _ overlay: ServedOverlay, photos: ServedPhotos?, base: String, configuration: ServerConfiguration
    ) -> [String: Any] {
        let bounds = photos?.bounds ?? worldBounds
        return [
            "tilejson": version, "name": "photos", "scheme": "xyz", "format": "png", "tileSize": 256,
            "description": "Photos as pins and clusters, tracks and shapes, on transparent tiles",
            "tiles": ["\(base)/overlays/photos/{z}/{x}/{y}.png"],
            "minzoom": 0, "maxzoom": configuration.maximumZoom, "bounds": bounds,
            "center": [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, 2],
        ]
    }

    /// The photos' density map: world bounds (kernels reach beyond the photos), centred on them.
    static func heatmap(_ overlay: ServedOverlay, base: String, configuration: ServerConfiguration) -> [String: Any] {
        [
            "tilejson": version, "name": "heatmap", "scheme": "xyz", "format": "png", "tileSize": 256,
            "description": "Photos as a density map of where they were taken, on transparent tiles",
            "tiles": ["\(base)/overlays/heatmap/{z}/{x}/{y}.png"],
            "minzoom": 0, "maxzoom": configuration.maximumZoom, "bounds": worldBounds,
        ]
    }

    /// A tileset file's TileJSON, its `vector_layers` from its metadata; its tiles under
    /// `/FOLDER/NAME/…`: `tilesets` (the default), or `data`, as TileServer GL serves them.
    static func tileset(_ tileset: OpenTileset, base: String, folder: String = "tilesets") -> [String: Any] {
        let metadata = tileset.metadata
        var json: [String: Any] = [
            "tilejson": version, "name": metadata.name ?? tileset.name, "scheme": "xyz",
            "format": tileset.fileExtension,
            "tiles": [
                "\(base)/\(folder)/\(URLPathComponent.encoded(tileset.name))/{z}/{x}/{y}.\(tileset.fileExtension)"
            ],
            "minzoom": metadata.minZoom ?? 0, "maxzoom": metadata.maxZoom ?? 22,
        ]
        if let bounds = metadata.bounds {
            json["bounds"] = [bounds.west, bounds.south, bounds.east, bounds.north]
        } else {
            json["bounds"] = worldBounds
        }
        if let center = metadata.center { json["center"] = [center.longitude, center.latitude, Double(center.zoom)] }
        if let attribution = metadata.attribution { json["attribution"] = attribution }
        if let description = metadata.description { json["description"] = description }
        if metadata.format == .pbf, let text = metadata.json,
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let layers = object["vector_layers"]
        {
            json["vector_layers"] = layers
        }
        return json
    }
}
