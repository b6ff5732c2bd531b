import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Data {
    /// The bytes of the file at `url`, or why they cannot be read, in plain words.
    ///
    /// Foundation's own errors read "The operation could not be completed. (NSCocoaErrorDomain
    /// error 256.)" for a folder on Linux; ``MapUtilitiesError/reason`` says "it is a folder, not a
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
    /// - Throws: ``MapUtilitiesError`` with the path as given and the reason.
    public init(readingFile url: URL, mapped: Bool = false) throws(MapUtilitiesError) {
        do {
            self = try Data(contentsOf: url, options: mapped ? .alwaysMapped : [])
        } catch {
            throw MapUtilitiesError.unreadableFile(path: url.path, reason: MapUtilitiesError.reason(readingAt: url.path))
        }
    }
}
