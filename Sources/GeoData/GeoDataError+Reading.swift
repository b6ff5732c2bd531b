import Foundation
import MapUtilities

extension GeoDataError {
    /// The bytes of the file at `path`, for the readers that take a path.
    ///
    /// - Throws: ``GeoDataError/unreadableFile(path:reason:)`` naming the path as given, with the
    ///   reason in plain words ("there is no such file", "it is a folder, not a file").
    static func contents(ofFile path: String) throws(GeoDataError) -> Data {
        do {
            return try Data(readingFile: URL(fileURLWithPath: path))
        } catch {
            throw .unreadableFile(path: path, reason: error.reason)
        }
    }
}
