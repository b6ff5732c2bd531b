import Foundation
import MapCore
import MapTestSupport
import PhotoSources
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One bad file does not sink a folder: files that cannot be read as photos are skipped and
/// counted by reason, as photos without GPS are; links are followed once; the folder is read on
/// every core in path order.
struct JPEGFolderSourceBadFilesTests {
    private static let located = ExifFixture.located(latitude: 48.8566, longitude: 2.3522)

    /// A JPEG cut inside its EXIF segment: it starts as a JPEG and ends before its image data.
    private static let cutShort = JPEGFixture.jpeg(exif: located).prefix(40)

    @Test func badFilesAreSkippedAndCountedByReason() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try JPEGFixture.write("a-located.jpg", in: folder, exif: Self.located)
        try JPEGFixture.write("b-no-gps.jpg", in: folder, exif: nil)
        let notJPEG = try writeFile("c-not-a-jpeg.jpg", in: folder, "GIF89a, not a JPEG")
        let cut = folder.appendingPathComponent("d-cut.jpg")
        try Self.cutShort.write(to: cut)
        let dangling = folder.appendingPathComponent("e-dangling.jpg")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "/nonexistent/photo.jpg")

        let collection = try JPEGFolderSource(url: folder).load()
        #expect(collection.photos.map(\.id) == ["a-located.jpg"])
        #expect(collection.report.skippedWithoutLocation == 1)
        #expect(collection.report.skippedFiles.map(\.reason) == [.notJPEG, .damaged, .unreadable])
        #expect(
            collection.report.skippedFiles.map(\.description) == [
                "\(notJPEG.path): is not a JPEG: it does not start with the FF D8 marker",
                "\(cut.path): is cut short: a segment at byte 2 runs past the end of the file",
                "\(dangling.path): cannot be read: it is a symbolic link to a missing file",
            ])
        #expect(
            collection.report.warningLine
                == "4 photos were skipped: 1 has no GPS location, 1 is not a JPEG, 1 is damaged or cut short, 1 cannot be read"
        )
    }

    @Test func oneReasonKeepsTheShortSentence() {
        let error = PhotoSourceError.malformed(file: URL(fileURLWithPath: "/p/x.jpg"), reason: "is not a JPEG")
        let two = PhotoLoadReport(skippedFiles: Array(repeating: .init(reason: .notJPEG, error: error), count: 2))
        #expect(two.warningLine == "2 photos are not JPEGs and were skipped")
        let one = PhotoLoadReport(skippedFiles: [.init(reason: .unreadable, error: error)])
        #expect(one.warningLine == "1 photo cannot be read and was skipped")
        #expect(PhotoLoadReport(skippedWithoutLocation: 1).warningLine == "1 photo has no GPS location and was skipped")
    }

    @Test func aMalformedGPSTagSkipsThePhotoNamingTheTag() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var exif = Self.located
        exif.gps[0x0001] = nil
        let file = try JPEGFixture.write("bad-ref.jpg", in: folder, exif: exif)
        try JPEGFixture.write("good.jpg", in: folder, exif: Self.located)
        let collection = try JPEGFolderSource(url: folder).load()
        #expect(collection.photos.map(\.id) == ["good.jpg"])
        #expect(
            collection.report.skippedFiles == [
                .init(
                    reason: .badMetadata,
                    error: .invalidEntry(
                        file: file.standardizedFileURL, entry: "GPSLatitudeRef",
                        problem: "is missing; it must be N or S"))
            ])
        #expect(collection.report.warningLine == "1 photo has malformed GPS or EXIF tags and was skipped")
    }

    @Test(.enabled(if: geteuid() != 0, "root reads files whatever their permissions"))
    func aFileWithoutReadPermissionIsSkipped() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let locked = try JPEGFixture.write("locked.jpg", in: folder, exif: Self.located)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        try JPEGFixture.write("open.jpg", in: folder, exif: Self.located)
        let collection = try JPEGFolderSource(url: folder).load()
        #expect(collection.photos.map(\.id) == ["open.jpg"])
        #expect(
            collection.report.skippedFiles.map(\.description) == ["\(locked.path): cannot be read: permission denied"])
    }

    @Test func aFIFONamedLikeAJPEGIsSkippedWithoutOpeningIt() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.jpg")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        try JPEGFixture.write("open.jpg", in: folder, exif: Self.located)
        let collection = try JPEGFolderSource(url: folder).load()
        #expect(collection.photos.map(\.id) == ["open.jpg"])
        #expect(
            collection.report.skippedFiles.map(\.description) == [
                "\(fifo.path): cannot be read: it is not a regular file"
            ])
    }

    @Test func linksToFoldersAndJPEGsAreFollowedOnceLoopsIncluded() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("photos")
        let elsewhere = root.appendingPathComponent("elsewhere")
        try JPEGFixture.write("a/1.jpg", in: folder, exif: Self.located)
        try JPEGFixture.write("b/2.jpg", in: folder, exif: Self.located)
        try JPEGFixture.write("trip/3.jpg", in: elsewhere, exif: Self.located)
        try JPEGFixture.write("single.jpg", in: elsewhere, exif: Self.located)
        let links = [
            ("a/up", ".."),  // a loop: back to the photo folder
            ("a/self", "."),  // a loop: the folder itself
            ("0-also-b", "b"),  // a second way to a folder, sorted before it
            ("0-also-1.jpg", "a/1.jpg"),  // a second way to a file, sorted before it
            ("trip", elsewhere.appendingPathComponent("trip").path),  // a folder outside
            ("single.jpg", elsewhere.appendingPathComponent("single.jpg").path),  // a file outside
        ]
        for (name, destination) in links {
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent(name).path, withDestinationPath: destination)
        }
        let collection = try JPEGFolderSource(url: folder).load()
        #expect(collection.photos.map(\.id) == ["a/1.jpg", "b/2.jpg", "single.jpg", "trip/3.jpg"])
        #expect(collection.report == PhotoLoadReport())
    }

    @Test func aFolderWithoutJPEGsSaysSo() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: PhotoSourceError.noJPEGFiles(folder: folder)) { try JPEGFolderSource(url: folder).load() }
        try writeFile("notes.txt", in: folder, "not a photo")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let error = #expect(throws: PhotoSourceError.self) { try PhotoCollection.load(from: folder) }
        #expect(error?.description == "no photo files (JPEG, HEIC or raw) in \(folder.path)")
    }

    @Test func manyFilesAreReadInPathOrderEveryTime() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var located: [String] = []
        for index in 0..<120 {
            let name = "\(index % 7)/photo-\(index).jpg"
            if index % 10 == 3 {
                // Every tenth file is empty: not a JPEG, skipped among photos read on other threads.
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent("\(index % 7)"), withIntermediateDirectories: true)
                try writeFile(name, in: folder, "")
            } else {
                try JPEGFixture.write(
                    name, in: folder, exif: .located(latitude: Double(index) / 4, longitude: 10), width: 16, height: 16)
                located.append(name)
            }
        }
        let first = try JPEGFolderSource(url: folder).load()
        #expect(first.photos.map(\.id) == located.sorted())
        let latitudes = located.sorted().map { Double($0.split(separator: "-")[1].dropLast(4))! / 4 }
        #expect(zip(first.photos.map(\.coordinate.latitude), latitudes).allSatisfy { abs($0 - $1) < 1e-6 })
        #expect(first.report.skippedFiles.map(\.reason) == Array(repeating: .notJPEG, count: 12))
        for _ in 0..<3 { #expect(try JPEGFolderSource(url: folder).load() == first) }
    }

    @Test func theReportRoundTripsThroughJSONAndReadsOldReports() throws {
        let error = PhotoSourceError.invalidEntry(
            file: URL(fileURLWithPath: "/p/x.jpg"), entry: "GPSLatitude", problem: "is SHORT")
        let report = PhotoLoadReport(
            skippedWithoutLocation: 2, skippedFiles: [.init(reason: .badMetadata, error: error)])
        #expect(try JSONDecoder().decode(PhotoLoadReport.self, from: JSONEncoder().encode(report)) == report)
        let old = try JSONDecoder().decode(PhotoLoadReport.self, from: Data(#"{"skippedWithoutLocation": 3}"#.utf8))
        #expect(old == PhotoLoadReport(skippedWithoutLocation: 3))
    }
}
