import Foundation
import MapTestSupport
import Testing

@testable import PhotoSources

struct ThumbnailCacheTests {
    /// A cache in a fresh folder, and a photo folder beside it; both removed by the caller.
    private func makeFolders() throws -> (photos: URL, cache: ThumbnailCache, root: URL) {
        let root = try makeTemporaryDirectory()
        let photos = root.appendingPathComponent("photos", isDirectory: true)
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        return (photos, ThumbnailCache(directory: root.appendingPathComponent("cache", isDirectory: true)), root)
    }

    /// Every file under `folder` with its size and modification date.
    private func snapshot(of folder: URL) throws -> [String: [FileAttributeKey: String]] {
        var listing: [String: [FileAttributeKey: String]] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)
            listing[path] = [.size: "\(attributes[.size]!)", .modificationDate: "\(attributes[.modificationDate]!)"]
        }
        return listing
    }

    @Test func thumbnailIsTheExactSquareSize() throws {
        let (photos, cache, root) = try makeFolders()
        defer { try? FileManager.default.removeItem(at: root) }
        for (width, height, size) in [(800, 600, 92), (600, 800, 138), (64, 48, 92), (97, 31, 46)] {
            let url = try JPEGFixture.write(
                "p-\(width)x\(height).jpg", in: photos, exif: nil, width: width, height: height)
            let thumbnail = try cache.thumbnail(for: url, pixelSize: size)
            #expect(thumbnail.width == size && thumbnail.height == size)
            #expect(thumbnail.rgba.count == size * size * 4)
            #expect(stride(from: 3, to: thumbnail.rgba.count, by: 4).allSatisfy { thumbnail.rgba[$0] == 255 })
        }
    }

    @Test func thumbnailIsTheCenteredSquare() throws {
        let (photos, cache, root) = try makeFolders()
        defer { try? FileManager.default.removeItem(at: root) }
        // 300 × 100: a red band, a green centre, a blue band; the square is the green centre.
        let url = photos.appendingPathComponent("bands.jpg")
        try JPEGFixture.jpeg(width: 300, height: 100) { x, _ in
            x < 100 ? (255, 0, 0) : x < 200 ? (0, 255, 0) : (0, 0, 255)
        }
        .write(to: url)
        let thumbnail = try cache.thumbnail(for: url, pixelSize: 40)
        for x in [2, 20, 37] {
            let pixel = thumbnail.pixel(x: x, y: 20)
            #expect(pixel.green > 200 && pixel.red < 60 && pixel.blue < 60, "pixel \(x) is \(pixel)")
        }
    }

    @Test func exifOrientationTurnsTheThumbnailUpright() throws {
        let (photos, cache, root) = try makeFolders()
        defer { try? FileManager.default.removeItem(at: root) }
        // Stored 160 × 80: red on top, blue below.
        func write(orientation: UInt16) throws -> URL {
            var exif = ExifFixture()
            exif.ifd0[0x0112] = .short(orientation)
            let url = photos.appendingPathComponent("o\(orientation).jpg")
            try JPEGFixture.jpeg(width: 160, height: 80, exif: exif) { _, y in y < 40 ? (255, 0, 0) : (0, 0, 255) }
                .write(to: url)
            return url
        }
        func sides(_ orientation: UInt16) throws -> (left: UInt8, right: UInt8, top: UInt8, bottom: UInt8) {
            let thumbnail = try cache.thumbnail(for: write(orientation: orientation), pixelSize: 32)
            return (
                thumbnail.pixel(x: 2, y: 16).red, thumbnail.pixel(x: 29, y: 16).red,
                thumbnail.pixel(x: 16, y: 2).red, thumbnail.pixel(x: 16, y: 29).red
            )
        }
        // 1: red on top. 3: turned 180°, red at the bottom.
        let upright = try sides(1)
        let halfTurn = try sides(3)
        #expect(upright.top > 200 && upright.bottom < 60)
        #expect(halfTurn.top < 60 && halfTurn.bottom > 200)
        // 6: a quarter turn clockwise puts the stored top on the right; 8, counterclockwise, on the left.
        let clockwise = try sides(6)
        let counterclockwise = try sides(8)
        #expect(clockwise.right > 200 && clockwise.left < 60)
        #expect(counterclockwise.left > 200 && counterclockwise.right < 60)
    }

    @Test func secondCallIsACacheHitAndTouchingThePhotoMakesANewEntry() throws {
        let (photos, cache, root) = try makeFolders()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = try JPEGFixture.write("a.jpg", in: photos, exif: nil, width: 320, height: 240)
        let first = try cache.thumbnail(for: url, pixelSize: 92)
        let entry = try cache.cacheFileURL(for: url, pixelSize: 92)
        #expect(FileManager.default.fileExists(atPath: entry.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path) == [entry.lastPathComponent])

        // Overwrite the entry with a different, valid thumbnail: a hit returns what the cache holds.
        let marked = Thumbnail(width: 92, height: 92, rgba: [UInt8](repeating: 7, count: 92 * 92 * 4))
        var bytes = Array("MWTHUMB1".utf8) + [92, 0, 0, 0, 92, 0, 0, 0]
        bytes += marked.rgba
        try Data(bytes).write(to: entry)
        #expect(try cache.thumbnail(for: url, pixelSize: 92) == marked)

        // Another size is another entry; touching the photo changes the key.
        #expect(try cache.cacheFileURL(for: url, pixelSize: 46) != entry)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: url.path)
        let touched = try cache.cacheFileURL(for: url, pixelSize: 92)
        #expect(touched != entry)
        #expect(try cache.thumbnail(for: url, pixelSize: 92) == first)
        #expect(FileManager.default.fileExists(atPath: touched.path))
    }

    @Test func aDamagedCacheEntryIsMadeAgain() throws {
        let (photos, cache, root) = try makeFolders()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = try JPEGFixture.write("a.jpg", in: photos, exif: nil)
        let first = try cache.thumbnail(for: url, pixelSize: 30)
        try Data("MWTHUMB1 cut short".utf8).write(to: cache.cacheFileURL(for: url, pixelSize: 30))
        #expect(try cache.thumbnail(for: url, pixelSize: 30) == first)
    }

    @Test func thePhotoFolderIsNeverWritten() throws {
        let (photos, cache, root) = try makeFolders()
        defer { try? FileManager.default.removeItem(at: root) }
        var exif = ExifFixture.located(latitude: 37.7, longitude: -119.6)
        exif.ifd0[0x0112] = .short(6)
        let url = try JPEGFixture.write("sub/a.jpg", in: photos, exif: exif, width: 200, height: 100)
        let before = try snapshot(of: photos)
        _ = try PhotoCollection.load(from: photos)
        _ = try cache.thumbnail(for: url, pixelSize: 92)
        _ = try cache.thumbnail(for: url, pixelSize: 92)
        #expect(try snapshot(of: photos) == before)
    }

    @Test func aCorruptJPEGNamesTheFile() throws {
        let (photos, cache, root) = try makeFolders()
        defer { try? FileManager.default.removeItem(at: root) }
        let garbage = try writeFile("garbage.jpg", in: photos, "this is not a JPEG at all")
        let error = #expect(throws: PhotoSourceError.self) { try cache.thumbnail(for: garbage, pixelSize: 92) }
        #expect(error?.description.hasPrefix("\(garbage.path): cannot be decoded as a photo: ") == true)

        // A JPEG whose header is intact but whose data is cut off in the middle of its frame header.
        let cut = photos.appendingPathComponent("cut.jpg")
        try JPEGFixture.jpeg(width: 64, height: 48).prefix(40).write(to: cut)
        #expect(throws: PhotoSourceError.self) { try cache.thumbnail(for: cut, pixelSize: 92) }

        let missing = photos.appendingPathComponent("missing.jpg")
        #expect(throws: PhotoSourceError.unreadable(file: missing, reason: "there is no such file")) {
            try cache.thumbnail(for: missing, pixelSize: 92)
        }
    }

    @Test func defaultDirectoryFollowsXDG() {
        #expect(
            ThumbnailCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/var/cache/me", "HOME": "/home/me"]).path
                == "/var/cache/me/mapwright/thumbnails")
        #expect(
            ThumbnailCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/me"]).path
                == "/home/me/.cache/mapwright/thumbnails")
        #expect(
            ThumbnailCache.defaultDirectory(environment: ["HOME": "/home/me"]).path
                == "/home/me/.cache/mapwright/thumbnails")
    }
}
