import Foundation
import MapCore
import MapTestSupport
import MapUtilities
import Testing

@testable import PhotoSources

/// Image references are stored as the sources' text and resolved when asked for, to the same
/// references that reading them at once gave.
struct LazyImageReferenceTests {
    private let texts = [
        "photos/a.jpg", "../b.jpg", "./c d.jpg", "~/e.jpg", "/abs/f.jpg", "file:///g.jpg",
        "https://example.org/h.jpg?s=1",
        "HTTP://Example.org/i.jpg", "  spaced.jpg  ", "中文/照片.jpg", "2024/06/deep/j.jpg", "2024/06/deep/k.jpg",
    ]

    @Test func storedTextResolvesAsTheSourceTextDid() throws {
        let directory = URL(fileURLWithPath: "/data/photos", isDirectory: true)
        for text in texts {
            let stored = try #require(try ImageText(directoryPath: directory.path).stored(text, name: "image"))
            var bytes = text
            var folders = ImageText.Folders()
            let fromBytes = try bytes.withUTF8 { utf8 in
                try ImageText(directoryPath: directory.path).stored(
                    bytes: utf8, isASCII: text.utf8.allSatisfy { $0 < 0x80 }, name: "image", folders: &folders)
            }
            #expect(fromBytes == stored, "\(text)")
            #expect(fromBytes?.text == stored.text, "\(text)")
            #expect(ImageReference(resolving: stored.text) == ImageReference(text, relativeTo: directory), "\(text)")
        }
        #expect(try ImageText(directoryPath: "/data").stored(" \t", name: "image") == nil)
    }

    @Test func otherSchemesAndHostlessURLsAreStillErrors() {
        for text in ["ftp://example.org/a.jpg", "http://", "https:///a.jpg", "s3://bucket/a.jpg"] {
            #expect(throws: EntryProblem.self, "\(text)") {
                try ImageText(directoryPath: "/data").stored(text, name: "image")
            }
        }
    }

    @Test func csvRowsKeepTextUntilAskedAndCompareResolved() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = texts.map { "1,1,\"\($0)\"" }.joined(separator: "\n")
        let file = try writeFile("photos.csv", in: folder, "latitude,longitude,image\n" + rows + "\n")
        let photos = try CSVPhotoSource(url: file).load().photos
        #expect(photos.count == texts.count)
        for (photo, text) in zip(photos, texts) {
            #expect(photo.image == ImageReference(text, relativeTo: folder), "\(text)")
            var copy = photo
            copy.image = photo.image
            #expect(copy == photo)
        }
        let error = #expect(throws: PhotoSourceError.self) {
            try CSVPhotoSource(
                url: writeFile("bad.csv", in: folder, "latitude,longitude,thumbnail\n1,1,ftp://x/y.jpg\n")
            ).load()
        }
        #expect(
            error?.description.hasSuffix("bad.csv:2: thumbnail 'ftp://x/y.jpg' is neither a path nor an http(s) URL")
                == true)
    }

    @Test func photosAreEqualWhenTheirReferencesResolveAlike() throws {
        let where_ = try Coordinate(latitude: 1, longitude: 2)
        let given = Photo(id: "1", title: "a", coordinate: where_, image: .file(URL(fileURLWithPath: "/data/b.jpg")))
        let read = Photo(
            id: PhotoText("1"), title: "a", coordinate: where_, imageText: PhotoText("/data/photos/../b.jpg"),
            thumbnailText: nil)
        #expect(given == read)
        #expect(given.hashValue == read.hashValue)
        #expect(Photo.nonEmpty("  x \n") == "x" && Photo.nonEmpty("x") == "x" && Photo.nonEmpty(" \u{A0}") == nil)
        #expect(Photo.nonEmpty("\u{A0}y\u{2003}") == "y")
    }
}

/// Flickr dates read without a calendar agree with Foundation's Gregorian calendar.
struct FlickrDateTests {
    @Test func randomDatesAgreeWithTheCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        var random = SeededGenerator(seed: 15)
        for _ in 0..<5_000 {
            let year = 1583 + Int(random.next() % 8417)
            let month = 1 + Int(random.next() % 12)
            let day = 1 + Int(random.next() % 31)
            let hour = Int(random.next() % 24)
            let minute = Int(random.next() % 60)
            let second = Int(random.next() % 60)
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let text = "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)):\(two(second))"
            let components = DateComponents(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            let expected = calendar.date(from: components).flatMap {
                calendar.component(.day, from: $0) == day ? $0 : nil
            }
            #expect(DateText.date(fromFlickr: text) == expected, "\(text)")
        }
        #expect(DateText.date(fromFlickr: "2016-05-01 18:02:11") == Date(timeIntervalSince1970: 1_462_125_731))
        #expect(DateText.date(fromFlickr: "2016-02-30 00:00:00") == nil)
        #expect(DateText.date(fromFlickr: " 2016-5-1 18:02:11") == Date(timeIntervalSince1970: 1_462_125_731))
    }
}
