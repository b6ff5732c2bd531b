import Foundation
public import MapCore

/// A tile URL template, as sources in MapLibre styles and TileJSON give them: `http://`,
/// `https://`, or `file://` for tiles in a folder (``FileTemplateTileSource``).
///
/// Placeholders:
/// - `{z}`, `{x}`: the zoom level and column.
/// - `{y}`: the row, counted from the north, or from the south for the `TileScheme.tms` scheme.
/// - `{-y}`: the row counted from the south whatever the scheme (TMS).
/// - `{s}`: a subdomain from a list (`a`, `b`, `c` by default), picked by `(x + y) mod count`, so
///   one tile always has the same URL and the same cache entry in the browser sense.
/// - `{r}`: `@2x` when the render scale is 2 or more, empty otherwise.
/// - `{quadkey}`: the Bing Maps quadkey of the tile.
///
/// A template with none of `{z}`, `{x}`, `{y}`, `{-y}` and `{quadkey}` is one URL for every
/// tile, as MapLibre requests it (a single tile file for the one tile in view).
///
/// For example:
///
/// ```swift
/// let template = try TileURLTemplate("https://{s}.tile.example.org/{z}/{x}/{y}{r}.png")
/// template.url(for: try TileID(z: 3, x: 4, y: 2), scale: 2) // https://c.tile.example.org/3/4/2@2x.png
/// ```
public struct TileURLTemplate: Hashable, Sendable, CustomStringConvertible {
    /// The template as written.
    public let template: String
    /// How `{y}` counts rows. The default is `TileScheme.xyz`.
    public let scheme: TileScheme
    /// The values `{s}` takes. The default is `a`, `b`, `c`.
    public let subdomains: [String]
    /// The host of the URLs, with the port when the template gives one and the first subdomain
    /// for `{s}`: `a.tile.example.org`, `127.0.0.1:8080`; empty for `file://` templates.
    public let host: String

    /// Checks and keeps a template.
    ///
    /// - Throws: ``TilesetsError/invalidTemplate(_:reason:)`` when the template is not an http,
    ///   https or file URL, has part of the tile address only (`{z}`, `{x}` and `{y}` or `{-y}`, or
    ///   `{quadkey}`, or none of them), has an unknown placeholder, or has `{s}` with no subdomains.
    public init(_ template: String, scheme: TileScheme = .xyz, subdomains: [String] = ["a", "b", "c"])
        throws(TilesetsError)
    {
        let lowercased = template.lowercased()
        let isFile = lowercased.hasPrefix("file://")
        guard lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") || isFile else {
            throw .invalidTemplate(template, reason: "only http://, https:// and file:// URLs are read")
        }
        let placeholders = Self.placeholders(in: template)
        if let unknown = placeholders.first(where: { !Self.known.contains($0) }) {
            throw .invalidTemplate(template, reason: "unknown placeholder {\(unknown)}")
        }
        // A URL without any of the tile's address is one tile for every address, as GL requests
        // it; one with part of it ({z} and {x} only) is a mistake.
        let addressed =
            placeholders.contains("quadkey")
            || (placeholders.contains("z") && placeholders.contains("x")
                && (placeholders.contains("y") || placeholders.contains("-y")))
        let unaddressed = !placeholders.contains { Self.address.contains($0) }
        guard addressed || unaddressed else {
            throw .invalidTemplate(template, reason: "it needs {z}, {x} and {y} (or {-y}, or {quadkey})")
        }
        if placeholders.contains("s") && subdomains.isEmpty {
            throw .invalidTemplate(template, reason: "it has {s} but no subdomains are given")
        }
        let sample = Self.expand(
            template,
            with: [
                "z": "0", "x": "0", "y": "0", "-y": "0", "s": subdomains.first ?? "", "r": "", "quadkey": "0",
            ])
        if isFile {
            host = ""
        } else {
            guard let components = URLComponents(string: sample), let host = components.host, !host.isEmpty else {
                throw .invalidTemplate(template, reason: "it is not a URL with a host")
            }
            self.host = components.port.map { "\(host):\($0)" } ?? host
        }
        self.template = template
        self.scheme = scheme
        self.subdomains = subdomains
    }

    /// Several templates serving the same tiles over `minZoom`...`maxZoom`, checked together:
    /// what an HTTP source and a folder of tiles both start from.
    ///
    /// - Throws: ``TilesetsError/invalidSource(reason:)`` for no templates or a zoom range outside
    ///   0...``MapCore/TileID/maximumZoom``, ``TilesetsError/invalidTemplate(_:reason:)`` for a bad one.
    static func parse(
        _ templates: [String], scheme: TileScheme, subdomains: [String] = ["a", "b", "c"], minZoom: Int, maxZoom: Int
    ) throws(TilesetsError) -> [TileURLTemplate] {
        guard !templates.isEmpty else { throw .invalidSource(reason: "no tile URL templates") }
        guard 0 <= minZoom, minZoom <= maxZoom, maxZoom <= TileID.maximumZoom else {
            throw .invalidSource(
                reason: "the zoom range \(minZoom)...\(maxZoom) is not within 0...\(TileID.maximumZoom)")
        }
        var parsed: [TileURLTemplate] = []
        for template in templates {
            parsed.append(try TileURLTemplate(template, scheme: scheme, subdomains: subdomains))
        }
        return parsed
    }

    /// The URL of a tile.
    ///
    /// - Parameter scale: The render scale; 2 or more makes `{r}` `@2x`. The default is 1.
    public func url(for tile: TileID, scale: Double = 1) -> String {
        let spread = tile.x + tile.y
        return Self.expand(
            template,
            with: [
                "z": String(tile.z),
                "x": String(tile.x),
                "y": String(scheme == .tms ? tile.tmsY : tile.y),
                "-y": String(tile.tmsY),
                "s": subdomains.isEmpty ? "" : subdomains[spread % subdomains.count],
                "r": scale >= 2 ? "@2x" : "",
                "quadkey": tile.quadkey,
            ])
    }

    public var description: String { template }

    // MARK: - Internals

    private static let known: Set<String> = ["z", "x", "y", "-y", "s", "r", "quadkey"]
    /// The placeholders that address a tile.
    private static let address: Set<String> = ["z", "x", "y", "-y", "quadkey"]

    /// The names between braces, in order.
    private static func placeholders(in template: String) -> [String] {
        var names: [String] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The template with every `{name}` replaced by its value; unknown names are left as they are.
    private static func expand(_ template: String, with values: [String: String]) -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            result += values[name] ?? "{\(name)}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
