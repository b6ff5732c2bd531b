public import Foundation
public import MBTiles
public import MapUtilities
public import PMTiles

/// Why a tile source could not be opened or read, or a tileset file written: the one error of
/// the Tilesets module (the file tools' own failures are TilesetTools' `TilesetToolsError`).
/// Every case names the file or the option at fault, and ``description`` is one line for a person.
public enum TilesetsError: Error, Hashable, Sendable {
    /// An MBTiles file could not be opened, read or written.
    case mbtiles(MBTilesError)
    /// A PMTiles archive could not be opened, read or written.
    case pmtiles(PMTilesError)
    /// A path whose extension names no tileset format this module writes (.mbtiles, .pmtiles).
    case unknownFormat(path: String)
    /// A file that is neither an MBTiles (SQLite) file nor a PMTiles archive.
    case notATileset(path: String, reason: String)
    /// A folder or file of tiles that cannot be read or written; `reason` says why in plain words.
    case fileSystem(path: String, reason: String)
    /// A tile server could not be reached: no network, a refused connection, an unknown host,
    /// no answer in time.
    case offline(url: String, reason: String)
    /// A tile server answered with an HTTP error other than 404 or 204 (which mean "no such tile").
    case httpStatus(url: String, status: Int)
    /// A request failed for another reason (a TLS failure, a malformed answer...).
    case requestFailed(url: String, reason: String)
    /// A server's answer is not a whole tile (an error page sent as `200 OK`, a cut-off image).
    case notATile(url: String, reason: String)
    /// A tile URL template that cannot make tile URLs.
    case invalidTemplate(String, reason: String)
    /// A tile source described in a way that names no tiles, or cannot do what was asked.
    case invalidSource(reason: String)
}

extension TilesetsError: CustomStringConvertible, LocalizedError {
    /// A one-line message for a person, naming the file or option.
    public var description: String {
        switch self {
        case .mbtiles(let error): error.description
        case .pmtiles(let error): error.description
        case .unknownFormat(let path): "\(path): a tileset's name must end in .mbtiles or .pmtiles"
        case .notATileset(let path, let reason): "\(path): not a tileset (MBTiles or PMTiles): \(reason)"
        case .fileSystem(let path, let reason): "\(path): \(reason)"
        case .offline(let url, let reason):
            "cannot reach \(Self.host(of: url)): \(reason) (offline?) while fetching \(url)"
        case .httpStatus(let url, let status):
            "\(url): the server answered HTTP \(status) (\(HTTPStatus.phrase(status)))"
        case .requestFailed(let url, let reason): "\(url): the request failed: \(reason)"
        case .notATile(let url, let reason): "\(url): the answer is not a tile: \(reason)"
        case .invalidTemplate(let template, let reason): "tile URL template '\(template)': \(reason)"
        case .invalidSource(let reason): "tile source: \(reason)"
        }
    }

    public var errorDescription: String? { description }

    /// The host (and port, when the URL gives one) for messages: `tile.example.org`, `127.0.0.1:8080`.
    static func host(of url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host else { return url }
        return components.port.map { "\(host):\($0)" } ?? host
    }
}

extension TilesetsError {
    /// Runs `body`, wrapping an MBTiles or PMTiles error (a tile source's): ``mbtiles(_:)``,
    /// ``pmtiles(_:)``, any other as ``fileSystem(path:reason:)``.
    public static func wrapping<T>(_ body: () throws -> T) throws(TilesetsError) -> T {
        do { return try body() } catch let error as TilesetsError {
            throw error
        } catch let error as MBTilesError {
            throw .mbtiles(error)
        } catch let error as PMTilesError {
            throw .pmtiles(error)
        } catch {
            throw .fileSystem(path: "?", reason: "\(error)")
        }
    }
}

/// Bad input: exit status 2.
extension TilesetsError: ExitStatusError {}
