import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Data {
    /// The bytes of the file at `url`, or why they cannot be read, in plain words.
    ///
    /// Foundation's own errors read "The operation could not be completed. (NSCocoaErrorDomain
    /// error 256.)" for a folder on Linux; ``FileReadError/reason`` says "it is a folder, not a
    /// file" instead. For example:
    ///
    /// ```swift
    /// do { let bytes = try Data(readingFile: URL(fileURLWithPath: "walk.gpx")) }
    /// catch { print(error) } // walk.gpx: cannot read the file: there is no such file
    /// ```
    ///
    /// - Parameters:
    ///   - url: A `file:` URL.
    ///   - mapped: Map the file into memory rather than copy it (large files read in part). The
    ///     default is `false`.
    /// - Throws: ``FileReadError`` with the path as given and the reason.
    public init(readingFile url: URL, mapped: Bool = false) throws(FileReadError) {
        do {
            self = try Data(contentsOf: url, options: mapped ? .alwaysMapped : [])
        } catch {
            throw FileReadError(path: url.path, reason: FileReadError.reason(readingAt: url.path))
        }
    }
}

/// A file that could not be read, with the reason in plain words.
public struct FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's path, as given.
    public var path: String
    /// Why, in plain words: "there is no such file", "it is a folder, not a file", "permission denied".
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `PATH: cannot read the file: REASON`.
    public var description: String { "\(path): cannot read the file: \(reason)" }

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
    /// file", "permission denied", else the system's message.
    public static func reason(forErrno code: Int32) -> String {
        switch code {
        case ENOENT: return "there is no such file"
        case ENOTDIR: return "a part of its path is not a folder"
        case EACCES, EPERM: return "permission denied"
        case ELOOP: return "its symbolic links go round in a loop"
        default:
            let message = String(cString: strerror(code))
            return message.prefix(1).lowercased() + message.dropFirst()
        }
    }
}
