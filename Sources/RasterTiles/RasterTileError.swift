public import Foundation
public import MapCore
public import MapUtilities
public import TileStore
public import Tilesets
/// Why raster tiles could not be had.
///
/// Every case names the URL or file, so the message can be shown to a person as is:
///
/// ```swift
/// do { _ = try source.images(for: tiles) }
/// catch { print(error) }
/// // cannot reach tile.example.org: connection refused (offline?) while fetching https://tile.example.org/3/4/2.png
/// ```
public enum RasterTileError: Error, Hashable, Sendable {
    /// The server could not be reached: no network, a refused connection, an unknown host, no
    /// answer in time.
    case offline(url: String, reason: String)
    /// The server answered with an HTTP error other than 404 (which means "no such tile").
    case httpStatus(url: String, status: Int)
    /// The request failed for another reason (a TLS failure, a malformed answer…).
    case requestFailed(url: String, reason: String)
    /// A tile's bytes are not an image this package decodes (PNG or JPEG). `source` is the URL
    /// or file it came from.
    case undecodableTile(tile: TileID, source: String, reason: String)
    /// The tiles of a tileset are not raster images: vector tiles, say.
    case unsupportedFormat(path: String, format: String)
    /// A tile URL template that cannot make tile URLs.
    case invalidTemplate(String, reason: String)
    /// A source description that names no tiles, or tiles in a way not supported.
    case invalidDescription(reason: String)
    /// The MBTiles file (a source, or the cache of fetched tiles) failed.
    case store(TileStoreError)
    /// A tileset file (MBTiles or PMTiles) could not be opened or read.
    case tileset(TilesetsError)
}

extension RasterTileError: CustomStringConvertible, LocalizedError {
    /// A one-line message for a person, naming the URL or file.
    public var description: String {
        switch self {
        case .offline(let url, let reason):
            "cannot reach \(Self.host(of: url)): \(reason) (offline?) while fetching \(url)"
        case .httpStatus(let url, let status):
            "\(url): the server answered HTTP \(status) (\(HTTPStatus.phrase(status)))"
        case .requestFailed(let url, let reason):
            "\(url): the request failed: \(reason)"
        case .undecodableTile(let tile, let source, let reason):
            "tile \(tile) from \(source): not a PNG or JPEG image: \(reason)"
        case .unsupportedFormat(let path, let format):
            "\(path): the tiles are '\(format)', not raster images (PNG or JPEG)"
        case .invalidTemplate(let template, let reason):
            "tile URL template '\(template)': \(reason)"
        case .invalidDescription(let reason):
            "raster source: \(reason)"
        case .store(let error):
            error.description
        case .tileset(let error):
            error.description
        }
    }

    public var errorDescription: String? { description }

    /// The host (and port, when the URL gives one) for messages: `tile.example.org`, `127.0.0.1:8080`.
    static func host(of url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host else { return url }
        return components.port.map { "\(host):\($0)" } ?? host
    }
}

/// Reason phrases of the HTTP status codes tile servers answer with (RFC 9110 §15).
enum HTTPStatus {
    static func phrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: status >= 500 ? "server error" : status >= 400 ? "client error" : "unexpected status"
        }
    }
}

/// Bad input: exit status 2.
extension RasterTileError: ExitStatusError {}
