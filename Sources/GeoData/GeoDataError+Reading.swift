import Foundation

extension GeoDataError {
    /// The bytes of the file at `path`, for the readers that take a path.
    ///
    /// - Throws: ``GeoDataError/unreadableFile(path:reason:)`` naming the path as given.
    static func contents(ofFile path: String) throws(GeoDataError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadableFile(path: path, reason: (error as NSError).localizedDescription)
        }
    }
}
