import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a file could not be read or written, or bytes did not decompress: the one error of MapUtilities, each case one line for a person.
public enum MapUtilitiesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file at `path` cannot be read; `reason` says why in plain words ("there is no such
    /// file", "it is a folder, not a file", "permission denied").
    case unreadableFile(path: String, reason: String)
    /// The file at `path` cannot be written or moved into place (``AtomicFile``).
    case unwritableFile(path: String, reason: String)
    /// Bytes are not a whole gzip or zlib stream, or make more than the limit asked
    /// (``Gzip/decompress(_:limitBytes:)``); `reason` says which in plain words ("its gzip stream
    /// is cut short", "it decompresses to more than 256 MiB").
    case invalidGzip(reason: String)
    /// The program at `path` could not be started (``ExternalProgram``); `reason` is the system's.
    case unstartableProgram(path: String, reason: String)

    /// The file concerned, else "".
    public var path: String {
        switch self {
        case .unreadableFile(let path, _), .unwritableFile(let path, _), .unstartableProgram(let path, _): return path
        case .invalidGzip: return ""
        }
    }

    /// Why, in plain words, without the path.
    public var reason: String {
        switch self {
        case .unreadableFile(_, let reason), .unwritableFile(_, let reason), .invalidGzip(let reason),
            .unstartableProgram(_, let reason):
            return reason
        }
    }

    /// `PATH: cannot read the file: REASON`, `PATH: cannot write the file: REASON`,
    /// `cannot decompress the data: REASON`, or `PATH: cannot start the program: REASON`.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            return "\(path): cannot read the file: \(reason)"
        case .unwritableFile(let path, let reason):
            return "\(path): cannot write the file: \(reason)"
        case .invalidGzip(let reason):
            return "cannot decompress the data: \(reason)"
        case .unstartableProgram(let path, let reason):
            return "\(path): cannot start the program: \(reason)"
        }
    }

    /// Why the file at `path` cannot be read, in plain words, found by looking at it again:
    /// "there is no such file", "it is a symbolic link to a missing file", "it is a folder, not a
    /// file", "it is not a regular file", "permission denied", else the system's message.
    public static func reason(readingAt path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            var linkStatus = stat()
            if code == ENOENT, lstat(path, &linkStatus) == 0 { return "it is a symbolic link to a missing file" }
            return reason(forErrno: code)
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return "it is a folder, not a file"
        case S_IFREG: break
        default: return "it is not a regular file"
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return reason(forErrno: errno) }
        close(descriptor)
        return "reading it failed"
    }

    /// A system error number (`errno`) in plain words, starting in lower case: "there is no such
    /// file", "permission denied", "the disk is full", else the system's message.
    public static func reason(forErrno code: Int32) -> String {
        switch code {
        case ENOENT: return "there is no such file"
        case ENOTDIR: return "a part of its path is not a folder"
        case EACCES, EPERM: return "permission denied"
        case ELOOP: return "its symbolic links go round in a loop"
        case ENOSPC: return "the disk is full"
        default:
            let message = String(cString: strerror(code))
            return message.prefix(1).lowercased() + message.dropFirst()
        }
    }
}
