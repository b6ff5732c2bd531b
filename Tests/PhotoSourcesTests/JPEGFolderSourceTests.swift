import Foundation
import MapCore
import MapTestSupport
import PhotoSources
import Testing

struct JPEGFolderSourceTests {
    /// Loads a folder holding one JPEG with `exif`, and returns its only photo.
    private func loadOne(_ exif: ExifFixture, name: String = "photo.jpg") throws -> Photo {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try JPEGFixture.write(name, in: folder, exif: exif)
        let collection = try JPEGFolderSource(url: folder).load()
        #expect(collection.photos.count == 1)
        return try #require(collection.photos.first)
    }

    @Test func northAndEastReferencesArePositive() throws {
        let photo = try loadOne(.located(latitude: 37.7459, longitude: 119.5332))
        #expect(abs(photo.coordinate.latitude - 37.7459) < 1e-6)
        #expect(abs(photo.coordinate.longitude - 119.5332) < 1e-6)
    }

    @Test func southAndWestReferencesAreNegative() throws {
        let photo = try loadOne(.located(latitude: -34.6037, longitude: -58.3816))
        #expect(abs(photo.coordinate.latitude - -34.6037) < 1e-6)
        #expect(abs(photo.coordinate.longitude - -58.3816) < 1e-6)
    }

    @Test func bigEndianEXIFReadsTheSame() throws {
        var exif = ExifFixture.located(latitude: -33.8568, longitude: 151.2153)
        exif.bigEndian = true
        exif.ifd0[0x013B] = .ascii("Li Ming")
        exif.gps[0x0006] = .rationals([(12, 1)])
        let photo = try loadOne(exif)
        #expect(abs(photo.coordinate.latitude - -33.8568) < 1e-6)
        #expect(abs(photo.coordinate.longitude - 151.2153) < 1e-6)
        #expect(photo.photographer == "Li Ming")
        #expect(photo.altitudeMeters == 12)
    }

    @Test func altitudeBelowSeaLevelIsNegativeAndAccuracyIsRead() throws {
        var exif = ExifFixture.located(latitude: 31.5, longitude: 35.5)  // the Dead Sea
        exif.gps[0x0005] = .bytes([1])
        exif.gps[0x0006] = .rationals([(4305, 10)])
        exif.gps[0x001F] = .rationals([(65, 10)])
        let photo = try loadOne(exif)
        #expect(photo.altitudeMeters == -430.5)
        #expect(photo.horizontalAccuracyMeters == 6.5)
    }

    @Test func altitudeAboveSeaLevelIsPositive() throws {
        var exif = ExifFixture.located(latitude: 37.7459, longitude: -119.5332)
        exif.gps[0x0005] = .bytes([0])
        exif.gps[0x0006] = .rationals([(2693, 1)])
        let photo = try loadOne(exif)
        #expect(photo.altitudeMeters == 2693)
        #expect(photo.horizontalAccuracyMeters == nil)
    }

    @Test func photosWithoutGPSAreSkippedAndCountedNeverPlacedAtZero() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try JPEGFixture.write("located.jpg", in: folder, exif: .located(latitude: 48.8566, longitude: 2.3522))
        try JPEGFixture.write("no-exif.jpg", in: folder, exif: nil)
        var noGPS = ExifFixture()
        noGPS.ifd0[0x010E] = .ascii("Indoors")
        try JPEGFixture.write("no-gps.jpg", in: folder, exif: noGPS)
        try JPEGFixture.write("zero.jpg", in: folder, exif: .located(latitude: 0, longitude: 0))
        var noFix = ExifFixture.located(latitude: 1, longitude: 1)
        noFix.gps[0x0002] = .rationals([(0, 0), (0, 0), (0, 0)])
        try JPEGFixture.write("no-fix.jpg", in: folder, exif: noFix)

        let collection = try JPEGFolderSource(url: folder).load()
        #expect(collection.photos.map(\.id) == ["located.jpg"])
        #expect(collection.report.skippedWithoutLocation == 4)
        #expect(collection.report.warningLine == "4 photos have no GPS location and were skipped")
    }

    @Test func titleIsImageDescriptionElseXPTitleElseFileName() throws {
        var described = ExifFixture.located(latitude: 1, longitude: 1)
        described.ifd0[0x010E] = .ascii("Half Dome")
        described.ifd0[0x9C9B] = ExifFixture.utf16LE("Ignored title")
        #expect(try loadOne(described).title == "Half Dome")

        var xpTitled = ExifFixture.located(latitude: 1, longitude: 1)
        xpTitled.ifd0[0x010E] = .ascii("   ")
        xpTitled.ifd0[0x9C9B] = ExifFixture.utf16LE("悉尼歌剧院 🎭")
        #expect(try loadOne(xpTitled).title == "悉尼歌剧院 🎭")

        let untitled = try loadOne(.located(latitude: 1, longitude: 1), name: "Mono Lake.JPEG")
        #expect(untitled.title == "Mono Lake")
        #expect(untitled.calloutTitle == "Mono Lake")
    }

    @Test func utf8TitlesAndArtistsRoundTripInEveryScript() throws {
        let titlesAndArtists = [
            ("长城日落", "李明"), ("Ακρόπολη την αυγή", "Ελένη Παπαδοπούλου"), ("مكتبة الإسكندرية", "ليلى"),
        ]
        for (title, artist) in titlesAndArtists {
            var exif = ExifFixture.located(latitude: 37.97, longitude: 23.72)
            exif.ifd0[0x010E] = .ascii(title)
            exif.ifd0[0x013B] = .ascii(artist)
            let photo = try loadOne(exif)
            #expect(photo.title == title)
            #expect(photo.photographer == artist)
        }
    }

    @Test func latin1ImageDescriptionIsReadAsLatin1() throws {
        var exif = ExifFixture.located(latitude: 1, longitude: 1)
        exif.ifd0[0x010E] = .bytes([0x43, 0x61, 0x66, 0xE9, 0])  // "Café" in ISO 8859-1, BYTE format
        #expect(try loadOne(exif).title == "Café")
    }

    @Test func dateTakenUsesOffsetTimeOriginal() throws {
        var exif = ExifFixture.located(latitude: 1, longitude: 1)
        exif.exif[0x9003] = .ascii("2024:05:01 18:02:11")
        exif.exif[0x9011] = .ascii("+02:00")
        let photo = try loadOne(exif)
        #expect(photo.dateTaken == ISO8601DateFormatter().date(from: "2024-05-01T16:02:11Z"))
    }

    @Test func dateTakenFallsBackToGPSTimeInUTC() throws {
        var exif = ExifFixture.located(latitude: 1, longitude: 1)
        exif.exif[0x9003] = .ascii("2024:05:01 18:02:11")
        exif.gps[0x001D] = .ascii("2024:05:01")
        exif.gps[0x0007] = .rationals([(9, 1), (2, 1), (1150, 100)])
        let photo = try loadOne(exif)
        #expect(photo.dateTaken == ISO8601DateFormatter().date(from: "2024-05-01T09:02:11Z")?.addingTimeInterval(0.5))
    }

    @Test func blankDateIsUnknown() throws {
        var exif = ExifFixture.located(latitude: 1, longitude: 1)
        exif.exif[0x9003] = .ascii("    :  :     :  :  ")
        #expect(try loadOne(exif).dateTaken == nil)
    }

    @Test func folderIsReadRecursivelyInPathOrderSkippingHiddenAndOtherFiles() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["b/2.JPG", "a.jpeg", "b/1.jpg", "c/d/3.Jpeg", ".hidden/4.jpg", "._5.jpg"] {
            try JPEGFixture.write(name, in: folder, exif: .located(latitude: 10, longitude: 10))
        }
        try writeFile("notes.txt", in: folder, "not a photo")
        let collection = try JPEGFolderSource(url: folder).load()
        #expect(collection.photos.map(\.id) == ["a.jpeg", "b/1.jpg", "b/2.JPG", "c/d/3.Jpeg"])
        let first = try #require(collection.photos.first)
        #expect(first.image == .file(folder.appendingPathComponent("a.jpeg").standardizedFileURL))
        #expect(first.thumbnail == first.image)
    }

    @Test func missingLatitudeReferenceNamesFileAndTag() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var exif = ExifFixture.located(latitude: 10, longitude: 10)
        exif.gps[0x0001] = nil
        let file = try JPEGFixture.write("bad-ref.jpg", in: folder, exif: exif)
        // A bad file is skipped, not fatal; its error names the file and the tag.
        #expect(
            try JPEGFolderSource(url: folder).load().report.skippedFiles.map(\.error) == [
                .invalidEntry(
                    file: file.standardizedFileURL, entry: "GPSLatitudeRef", problem: "is missing; it must be N or S")
            ])
    }

    @Test func malformedGPSTagsAreErrorsNamingTheTag() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var wrongCount = ExifFixture.located(latitude: 10, longitude: 10)
        wrongCount.gps[0x0004] = .rationals([(1, 1), (2, 1), (3, 1), (4, 1)])
        var wrongFormat = ExifFixture.located(latitude: 10, longitude: 10)
        wrongFormat.gps[0x0002] = .short(10)
        var unknownRef = ExifFixture.located(latitude: 10, longitude: 10)
        unknownRef.gps[0x0003] = .ascii("X")
        var outOfRange = ExifFixture.located(latitude: 10, longitude: 10)
        outOfRange.gps[0x0002] = .rationals([(95, 1), (0, 1), (0, 1)])
        for (exif, expected) in [
            (wrongCount, "GPSLongitude: has 4 components, expected 3 (degrees, minutes, seconds)"),
            (wrongFormat, "GPSLatitude: is SHORT, expected RATIONAL"),
            (unknownRef, "GPSLongitudeRef: is 'X'; it must be E or W"),
            (outOfRange, "GPSLatitude: latitude 95.0 is outside [-90, 90]"),
        ] {
            let file = try JPEGFixture.write("bad.jpg", in: folder, exif: exif)
            let skipped = try JPEGFolderSource(url: folder).load().report.skippedFiles
            #expect(skipped.map(\.description) == ["\(file.path): \(expected)"])
            #expect(skipped.map(\.reason) == [.badMetadata])
        }
    }

    @Test func aFileThatIsNotAJPEGNamesTheFile() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try writeFile("fake.jpg", in: folder, "GIF89a, not a JPEG")
        let skipped = try JPEGFolderSource(url: folder).load().report.skippedFiles
        #expect(skipped.map(\.description) == ["\(file.path): is not a JPEG: it does not start with the FF D8 marker"])
    }

    @Test func aMissingFolderIsAnError() {
        let missing = URL(fileURLWithPath: "/nonexistent/photos")
        #expect(throws: PhotoSourceError.unreadable(file: missing, reason: "no such folder")) {
            try JPEGFolderSource(url: missing).load()
        }
    }
}
