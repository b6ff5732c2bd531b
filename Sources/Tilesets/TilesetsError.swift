public import Foundation
public import MapUtilities
public import PMTiles
public import TileStore

/// Why a tileset could not be read, written or compared: the one error of the
/// Tilesets module. Every case names the file or the option at fault, and ``description`` is
/// one line for a person.
public enum TilesetsError: Error, Hashable, Sendable {
    /// An MBTiles file could not be opened, read or written.
    case mbtiles(TileStoreError)
    /// A PMTiles archive could not be opened, read or written.
    case pmtiles(PMTilesError)
    /// A path whose extension names no tileset format this module writes (.mbtiles, .pmtiles).
    case unknownFormat(path: String)
    /// A file that is neither an MBTiles (SQLite) file nor a PMTiles archive.
    case notATileset(path: String, reason: String)
    /// A folder or file of tiles that cannot be read or written; `reason` says why in plain words.
    case fileSystem(path: String, reason: String)
    /// An export that cannot start or go on as asked; `reason` says why, naming the option.
    case invalidExport(reason: String)
    /// An unfinished export was found where a new one would start (or none where `--resume` asked for one).
    case unfinishedExport(path: String, reason: String)
    /// A tile could not be decoded as an image for comparison.
    case undecodableTile(path: String, tile: String, reason: String)
    /// Two tilesets compared have tiles of different pixel sizes (another tile size or scale),
    /// so their pixels cannot be compared.
    case tileSizesDiffer(first: String, firstSize: String, second: String, secondSize: String)
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
        case .invalidExport(let reason): reason
        case .unfinishedExport(let path, let reason): "\(path): \(reason)"
        case .undecodableTile(let path, let tile, let reason): "\(path): tile \(tile) cannot be decoded as an image: \(reason)"
        case .tileSizesDiffer(let first, let firstSize, let second, let secondSize):
            "\(second): its tiles are \(secondSize) pixels, those of \(first) \(firstSize); compare tilesets of one tile size and scale"
        }
    }

    public var errorDescription: String? { description }
}

extension TilesetsError {
    /// Runs `body`, wrapping a TileStore or PMTiles error (a tile source's): ``mbtiles(_:)``,
    /// ``pmtiles(_:)``, any other as ``fileSystem(path:reason:)``.
    public static func wrapping<T>(_ body: () throws -> T) throws(TilesetsError) -> T {
        do { return try body() } catch let error as TilesetsError {
            throw error
        } catch let error as TileStoreError {
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
