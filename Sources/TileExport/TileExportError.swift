public import Foundation
public import MapUtilities
public import TilesetTools

/// Why a tile export could not start, go on or finish: the one error of TileExport. Each case
/// names the file, option or tile at fault, and ``description`` is one line for a person.
public enum TileExportError: Error, Hashable, Sendable {
    /// The output tileset could not be written or resumed (TilesetTools' error, as it is).
    case tileset(TilesetToolsError)
    /// The export cannot start as asked; `reason` says why.
    case invalidExport(reason: String)
    /// Rendering a tile failed.
    case render(tile: String, reason: String)
    /// The export was cancelled (Ctrl-C); what was committed is kept for `--resume`.
    case cancelled(path: String, committedTileCount: Int)
}

extension TileExportError: CustomStringConvertible, LocalizedError {
    /// A one-line message for a person, naming the file, option or tile.
    public var description: String {
        switch self {
        case .tileset(let error): error.description
        case .invalidExport(let reason): reason
        case .render(let tile, let reason): "cannot render tile \(tile): \(reason)"
        case .cancelled(let path, let count):
            "interrupted: \(count) tiles are safe in \(path); run the same command with --resume to finish"
        }
    }

    public var errorDescription: String? { description }
}

extension TileExportError: ExitStatusError {
    /// 130 when interrupted (the shell's status for SIGINT), the tileset's status for its own
    /// errors, else 2: bad input.
    public var exitStatus: Int32 {
        switch self {
        case .cancelled: 130
        case .tileset(let error): error.exitStatus
        default: 2
        }
    }
}
