import Foundation
import MapTestSupport
import PhotoSources
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A thumbnail cache that cannot be written still gives the thumbnail, and says why it kept none.
struct ThumbnailCacheUnwritableTests {
    @Test func aCacheFolderThatIsAFileGivesTheThumbnailAndTheProblem() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let photo = try JPEGFixture.write("a.jpg", in: root, exif: nil, width: 120, height: 90)
        let blocker = try writeFile("cache", in: root, "a file where the cache folder should be")
        let reference = try ThumbnailCache(directory: root.appendingPathComponent("good-cache")).thumbnail(
            for: photo, pixelSize: 46)
        for directory in [blocker, blocker.appendingPathComponent("thumbnails")] {
            var problems: [PhotoSourceError] = []
            let thumbnail = try ThumbnailCache(directory: directory).thumbnail(for: photo, pixelSize: 46) {
                problems.append($0)
            }
            #expect(thumbnail == reference)
            #expect(problems == [.cacheUnwritable(directory: directory, reason: "\(blocker.path) is not a directory")])
            #expect(
                problems.first?.description
                    == "thumbnail cache \(directory.path): cannot be written: \(blocker.path) is not a directory")
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root writes into read-only folders"))
    func aReadOnlyCacheFolderGivesTheThumbnailAndTheProblem() throws {
        let root = try makeTemporaryDirectory()
        defer {
            try? FileManager.default.setAttributes(
                [.posixPermissions: 0o755], ofItemAtPath: root.appendingPathComponent("cache").path)
            try? FileManager.default.removeItem(at: root)
        }
        let photo = try JPEGFixture.write("a.jpg", in: root, exif: nil)
        let cache = root.appendingPathComponent("cache")
        try FileManager.default.createDirectory(
            at: cache, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o555])
        var problems: [PhotoSourceError] = []
        let thumbnail = try ThumbnailCache(directory: cache).thumbnail(for: photo, pixelSize: 20) {
            problems.append($0)
        }
        #expect(thumbnail.width == 20)
        #expect(problems.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).isEmpty)
    }
}
