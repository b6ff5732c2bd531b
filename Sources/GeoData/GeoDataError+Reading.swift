import Foundation
import MapUtilities

extension GeoDataError {
    /// The largest GeoJSON or GPX file read: 1 GiB (its parsed features take several times that
    /// in memory).
    public static let maximumFileBytes = 1 << 30

    /// The bytes of the file at `path`, for the readers that take a path.
    ///
    /// - Throws: ``GeoDataError/unreadableFile(path:reason:)`` naming the path as given, with the
    ///   reason in plain words ("there is no such file", "it is a folder, not a file", "it is
    ///   1.5 GiB, over the 1 GiB limit for this kind of file").
    static func contents(ofFile path: String) throws(GeoDataError) -> Data {
        do {
            return try Data(readingFile: URL(fileURLWithPath: path), maximumBytes: maximumFileBytes)
        } catch {
            throw .unreadableFile(path: path, reason: error.reason)
        }
    }
}
