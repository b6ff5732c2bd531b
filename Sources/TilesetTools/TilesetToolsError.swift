public import Foundation
public import MapUtilities
public import Tilesets

/// Why a tileset could not be written, converted, merged, extracted, imported, compared or
/// inspected: the one error of the TilesetTools module. A tileset that cannot be opened, read or
/// written as a file is Tilesets' error, passed on as it is (``tileset(_:)``); the other cases
/// are the tools' own. Every case names the file or the option at fault, and ``description`` is
/// one line for a person.
public enum TilesetToolsError: Error, Hashable, Sendable {
    /// A tileset (a file of either format, a folder of tiles, a remote source) could not be
    /// opened, read or written: Tilesets' error, as it is.
    case tileset(TilesetsError)
    /// An export, conversion, extraction or merge that cannot start or go on as asked; `reason`
    /// says why, naming the option or file.
    case invalidExport(reason: String)
    /// An unfinished export was found where a new one would start (or none where `--resume` asked for one).
    case unfinishedExport(path: String, reason: String)
    /// A tile could not be decoded as an image for comparison.
    case undecodableTile(path: String, tile: String, reason: String)
    /// Two tilesets compared have tiles of different pixel sizes (another tile size or scale),
    /// so their pixels cannot be compared.
    case tileSizesDiffer(first: String, firstSize: String, second: String, secondSize: String)
}

extension TilesetToolsError: CustomStringConvertible, LocalizedError {
    /// A one-line message for a person, naming the file or option.
    public var description: String {
        switch self {
        case .tileset(let error): error.description
        case .invalidExport(let reason): reason
        case .unfinishedExport(let path, let reason): "\(path): \(reason)"
        case .undecodableTile(let path, let tile, let reason):
            "\(path): tile \(tile) cannot be decoded as an image: \(reason)"
        case .tileSizesDiffer(let first, let firstSize, let second, let secondSize):
            "\(second): its tiles are \(secondSize) pixels, those of \(first) \(firstSize); compare tilesets of one tile size and scale"
        }
    }

    public var errorDescription: String? { description }
}

extension TilesetToolsError {
    /// Runs `body`, passing this module's error on and wrapping any other as ``tileset(_:)``
    /// (see `TilesetsError.wrapping`: an MBTiles or PMTiles error, Tilesets' own, any other as
    /// `fileSystem`).
    public static func wrapping<T>(_ body: () throws -> T) throws(TilesetToolsError) -> T {
        do { return try body() } catch let error as TilesetToolsError {
            throw error
        } catch {
            do throws(TilesetsError) { return try TilesetsError.wrapping { throw error } } catch {
                throw .tileset(error)
            }
        }
    }
}

/// Bad input: exit status 2.
extension TilesetToolsError: ExitStatusError {}
