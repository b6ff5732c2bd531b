public import Foundation
import ImageCodec
import MapUtilities

#if canImport(Glibc)
    import Glibc
#endif

/// Callout thumbnails of local photos (JPEGs decoded at a reduced scale, HEIC through libheif, raw
/// files' embedded JPEG previews), kept in a cache folder.
///
/// A thumbnail is square: the centered square of the upright photo (EXIF Orientation 1–8 is
/// applied), resampled to exactly `pixelSize` pixels a side. For a callout thumbnail of 46 × 46
/// points on a screen of scale 2, ask for 92:
///
/// ```swift
/// let cache = ThumbnailCache()
/// let thumbnail = try cache.thumbnail(for: photoURL, pixelSize: 92)
/// ```
///
/// The cache key is a 64-bit FNV-1a hash of the photo's absolute path, the pixel size, and the
/// file's byte size and modification time, so touching or replacing a photo makes a new entry. An
/// entry is one file, `<key>.rgba`: the magic `MWTHUMB1`, width and height as little-endian
/// 32-bit integers, then the RGBA bytes. It is written to a temporary file in the cache folder and
/// renamed into place, so readers never see half a thumbnail. Nothing is ever written next to the photo.
///
/// A cache folder that cannot be written (a file in its place, a read-only disk) does not stop
/// a thumbnail from being made: it is handed to `onCacheUnwritable` and made again next time.
public struct ThumbnailCache: Sendable {
    /// The folder the thumbnails are kept in; it is created when the first one is stored.
    public let directory: URL

    /// Creates a cache in `directory`.
    ///
    /// The default is ``defaultDirectory(environment:)``: `$XDG_CACHE_HOME/mapwright/thumbnails`.
    public init(directory: URL = ThumbnailCache.defaultDirectory()) {
        self.directory = directory
    }

    /// The user's cache folder for thumbnails, following the XDG Base Directory specification:
    /// `$XDG_CACHE_HOME/mapwright/thumbnails` when that variable holds an absolute path,
    /// `$HOME/.cache/mapwright/thumbnails` otherwise.
    public static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        UserDirectories(environment: environment).cacheDirectory
            .appendingPathComponent("thumbnails", isDirectory: true)
    }

    /// The square thumbnail of a photo (see ``Thumbnail/init(photoData:file:pixelSize:)``), from
    /// the cache when it holds one for the file as it is now.
    ///
    /// - Parameters:
    ///   - url: A local JPEG, HEIC or TIFF-based raw file.
    ///   - pixelSize: The side of the thumbnail in pixels; at least 1.
    ///   - onCacheUnwritable: Called with ``PhotoSourceError/cacheUnwritable(directory:reason:)``
    ///     when the thumbnail could not be stored; the thumbnail is returned all the same. By
    ///     default the problem is ignored.
    /// - Returns: A `pixelSize` × `pixelSize` opaque thumbnail.
    /// - Throws: ``PhotoSourceError/unreadable(file:reason:)`` when the photo cannot be read,
    ///   ``PhotoSourceError/undecodableImage(file:reason:)`` when it cannot be decoded.
    public func thumbnail(
        for url: URL, pixelSize: Int, onCacheUnwritable: (PhotoSourceError) -> Void = { _ in }
    ) throws(PhotoSourceError) -> Thumbnail {
        precondition(pixelSize >= 1, "a thumbnail is at least 1 pixel a side")
        let entry = try cacheFileURL(for: url, pixelSize: pixelSize)
        if let cached = Self.readEntry(at: entry), cached.width == pixelSize, cached.height == pixelSize {
            return cached
        }
        let data: Data
        do { data = try Data(readingFile: url, mapped: true) } catch {
            throw .unreadable(file: url, reason: error.reason)
        }
        let thumbnail = try Thumbnail(photoData: data, file: url, pixelSize: pixelSize)
        do { try store(thumbnail, at: entry) } catch { onCacheUnwritable(error) }
        return thumbnail
    }

    /// The cache file that holds, or will hold, the thumbnail of `url` at `pixelSize` as the file is now.
    ///
    /// - Throws: ``PhotoSourceError/unreadable(file:reason:)`` when the photo does not exist.
    public func cacheFileURL(for url: URL, pixelSize: Int) throws(PhotoSourceError) -> URL {
        let path = url.standardizedFileURL.path
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .unreadable(file: url, reason: MapUtilitiesError.reason(forErrno: errno))
        }
        var hash = FNV1a()
        let key = [
            "MWTHUMB1", path, String(pixelSize), String(status.st_size),
            "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)",
        ]
        hash.combine(key.joined(separator: "\0").utf8)
        return directory.appendingPathComponent("\(hash.hexDigits).rgba", isDirectory: false)
    }

    private static let magic = Array("MWTHUMB1".utf8)

    /// The thumbnail in a cache file, or `nil` when there is none or it is not a whole entry.
    private static func readEntry(at url: URL) -> Thumbnail? {
        guard let data = try? Data(contentsOf: url), data.count >= 16, Array(data.prefix(8)) == magic else {
            return nil
        }
        let bytes = [UInt8](data)
        func uint32(at offset: Int) -> Int {
            (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        let width = uint32(at: 8)
        let height = uint32(at: 12)
        guard width <= 1 << 15, height <= 1 << 15, bytes.count == 16 + width * height * 4 else { return nil }
        return Thumbnail(width: width, height: height, rgba: Array(bytes[16...]))
    }

    /// Writes an entry: to a temporary file in the cache folder, then renamed into place.
    private func store(_ thumbnail: Thumbnail, at url: URL) throws(PhotoSourceError) {
        var bytes = Self.magic
        for value in [thumbnail.width, thumbnail.height] {
            bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        bytes += thumbnail.rgba
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            // The deepest folder that exists says why: it is a file, or it cannot be written.
            var existing = directory.standardizedFileURL
            while !FileManager.default.fileExists(atPath: existing.path), existing.pathComponents.count > 1 {
                existing.deleteLastPathComponent()
            }
            throw .cacheUnwritable(directory: directory, reason: AtomicFile.reason(writingIn: existing))
        }
        do { try AtomicFile.write(Data(bytes), to: url) } catch {
            throw .cacheUnwritable(directory: directory, reason: error.reason)
        }
    }
}
