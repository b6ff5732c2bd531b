public import Foundation
public import MapUtilities

/// Why a PMTiles archive could not be read or written: the one error of the PMTiles module.
///
/// Every case names the file, and ``description`` is one line for a person:
///
/// ```swift
/// do { _ = try PMTilesReader(url: URL(fileURLWithPath: "Tiles/world.mbtiles")) }
/// catch { print(error) }
/// // Tiles/world.mbtiles: not a PMTiles file: it does not start with "PMTiles"
/// ```
///
/// A reader never crashes on a damaged file: truncation, offsets out of range, varints that
/// overflow and directories that do not decode are all ``corruptHeader(path:reason:)`` or
/// ``corruptDirectory(path:reason:)``.
public enum PMTilesError: Error, Hashable, Sendable {
    /// The file cannot be opened or read; `reason` says why in plain words ("there is no such
    /// file", "permission denied").
    case unreadableFile(path: String, reason: String)
    /// The file does not start with the magic bytes `PMTiles`.
    case notPMTiles(path: String)
    /// The file is a PMTiles archive of a version other than 3 (version 1 and 2 archives start
    /// with `PM` and a 16-bit version).
    case unsupportedVersion(path: String, version: Int)
    /// The 127-byte header is cut short or names sections outside the file.
    case corruptHeader(path: String, reason: String)
    /// A directory (root or leaf) does not decode, or an entry points outside its section.
    case corruptDirectory(path: String, reason: String)
    /// The JSON metadata does not decompress, is not JSON, or is not a JSON object.
    case corruptMetadata(path: String, reason: String)
    /// The directories and metadata use a compression this module does not read (brotli, zstd);
    /// it reads none and gzip.
    case unsupportedCompression(path: String, compression: String)
    /// The archive, or the temporary files beside it, cannot be written.
    case unwritableFile(path: String, reason: String)
    /// ``PMTilesWriter/finish(metadata:)`` was called before any tile was added: the specification
    /// requires a directory to have at least one entry.
    case noTiles(path: String)
    /// A tile was added after the writer finished or was cancelled, or finished twice.
    case writerClosed(path: String)
    /// A tile's bytes are empty or longer than 4 GiB − 1, which a directory entry cannot hold.
    case invalidTileSize(path: String, tile: String, byteCount: Int)
    /// An archive on a web server cannot be read: the server cannot be reached, answers with an
    /// error, or ignores Range requests; `reason` says which in plain words.
    case requestFailed(url: String, reason: String)
    /// The archive was replaced while it was read (its server's `ETag` changed): what was read
    /// of it no longer holds. ``PMTilesReader`` reads the new one from its header when a lookup
    /// meets this; a walk over every tile stops with it.
    case archiveChanged(path: String)

    /// The file concerned.
    public var path: String {
        switch self {
        case .unreadableFile(let path, _), .notPMTiles(let path), .unsupportedVersion(let path, _),
            .corruptHeader(let path, _), .corruptDirectory(let path, _), .corruptMetadata(let path, _),
            .unsupportedCompression(let path, _), .unwritableFile(let path, _), .noTiles(let path),
            .writerClosed(let path), .invalidTileSize(let path, _, _), .requestFailed(let path, _),
            .archiveChanged(let path):
            return path
        }
    }
}

extension PMTilesError: CustomStringConvertible, LocalizedError {
    /// A one-line message for a person, starting with the file's path.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "\(path): cannot read the file: \(reason)"
        case .notPMTiles(let path):
            "\(path): not a PMTiles file: it does not start with \"PMTiles\""
        case .unsupportedVersion(let path, let version):
            "\(path): PMTiles version \(version) is not supported; only version 3 is"
        case .corruptHeader(let path, let reason):
            "\(path): the PMTiles header is damaged: \(reason)"
        case .corruptDirectory(let path, let reason):
            "\(path): a PMTiles directory is damaged: \(reason)"
        case .corruptMetadata(let path, let reason):
            "\(path): the PMTiles metadata is damaged: \(reason)"
        case .unsupportedCompression(let path, let compression):
            "\(path): the PMTiles directories are compressed with \(compression), which Mapwright cannot read (it reads gzip and uncompressed)"
        case .unwritableFile(let path, let reason):
            "\(path): cannot write the PMTiles file: \(reason)"
        case .noTiles(let path):
            "\(path): no tiles were added, and a PMTiles file needs at least one"
        case .writerClosed(let path):
            "\(path): the PMTiles writer has already finished or been cancelled"
        case .invalidTileSize(let path, let tile, let byteCount):
            "\(path): tile \(tile) has \(byteCount) bytes; a PMTiles tile needs 1 to 4,294,967,295"
        case .requestFailed(let url, let reason):
            "\(url): cannot read the PMTiles archive: \(reason)"
        case .archiveChanged(let path):
            "\(path): the archive was replaced while it was read (its ETag changed); read it again"
        }
    }

    public var errorDescription: String? { description }
}

/// Bad input: exit status 2.
extension PMTilesError: ExitStatusError {}
