public import Foundation
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

    /// The bytes of the file at `path`, decompressed when it is gzip'd (`walk.gpx.gz`, told by
    /// its first bytes, not its name), for readers that tell formats by content.
    ///
    /// - Throws: ``GeoDataError/unreadableFile(path:reason:)``, as ``contents(ofFile:)`` does, or
    ///   for a gzip stream that cannot be decompressed.
    public static func decompressedContents(ofFile path: String) throws(GeoDataError) -> Data {
        let data = try contents(ofFile: path)
        guard data.count >= 2, data[data.startIndex] == 0x1F, data[data.startIndex + 1] == 0x8B else { return data }
        do {
            return Data(try Gzip.decompress([UInt8](data), limitBytes: maximumFileBytes))
        } catch {
            throw .unreadableFile(
                path: path, reason: "it is gzip-compressed but cannot be decompressed (\(error.reason))")
        }
    }
}
