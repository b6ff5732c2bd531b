import Foundation
import MapCore
import MapTestSupport
import MapUtilities
import PhotoSources
import Testing

/// HEIC and TIFF-based raw photos (Tests/Fixtures/photos: real files from pillow-heif's and
/// hachoir's distributions, see its README), read against outside readers: exiftool's `-n`
/// numbers for positions, altitudes and times; exiftool's own extraction of a CR2's thumbnail;
/// pillow-heif's own libheif build for a HEIC's pixels.
struct PhotoFormatsTests {
    static let fixtures = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/photos", isDirectory: true)

    /// pillow-heif, whose wheels carry a libheif of their own, and Pillow to crop and shrink.
    static let pillowHeif = PythonEnvironment(
        name: "pillow-heif-1", requirements: ["pillow-heif>=1,<2"], check: "import pillow_heif, PIL")

    /// exiftool's output for `arguments`, run in the fixtures' folder.
    static func exiftool(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["exiftool"] + arguments
        process.currentDirectoryURL = fixtures
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0, "exiftool \(arguments) (Debian's libimage-exiftool-perl; setup installs it)"
        )
        return data
    }

    /// What exiftool says of each fixture, by file name.
    static func exiftoolFacts() throws -> [String: [String: Any]] {
        let data = try exiftool([
            "-n", "-json", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-GPSHPositioningError",
            "-DateTimeOriginal", "-OffsetTimeOriginal", "-GPSDateTime", "-ext", "heic", "-ext", "dng", "-ext", "cr2",
            ".",
        ])
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: list.map {
                (($0["SourceFile"] as! String).replacingOccurrences(of: "./", with: ""), $0)
            })
    }

    /// A date as exiftool writes it, `2021:07:06 16:08:14` with a zone such as `+03:00` or `Z`.
    static func date(_ text: String, zone: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ssXXXXX"
        return formatter.date(from: text + zone)
    }

    /// A folder holding copies of `names` from the fixtures.
    static func folder(with names: [String]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        for name in names {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: folder.file(name))
        }
        return folder
    }

    @Test func heicAndRawPositionsAltitudesAndTimesAreExiftools() throws {
        let facts = try Self.exiftoolFacts()
        let names = [
            "iphone-xs.heic", "xiaomi-redmi.heic", "sony-no-gps.heic", "canon-eos-rebel-t5i-cut.cr2",
            "pidng-geotagged.dng",
        ]
        let folder = try Self.folder(with: names)
        let collection = try JPEGFolderSource(url: folder.url).load()
        // The Sony HEIC and the cut CR2 carry no position: counted, like JPEGs without GPS.
        #expect(collection.report.skippedWithoutLocation == 2)
        #expect(collection.report.skippedFiles.isEmpty, "\(collection.report.skippedFiles)")
        #expect(collection.photos.map(\.id) == ["iphone-xs.heic", "pidng-geotagged.dng", "xiaomi-redmi.heic"])
        for photo in collection.photos {
            let fact = try #require(facts[photo.id], "exiftool read \(photo.id)")
            let latitude = try #require(fact["GPSLatitude"] as? Double)
            let longitude = try #require(fact["GPSLongitude"] as? Double)
            #expect(
                abs(photo.coordinate.latitude - latitude) < 1e-9 && abs(photo.coordinate.longitude - longitude) < 1e-9,
                "\(photo.id): \(photo.coordinate) against exiftool's \(latitude), \(longitude)")
            let altitude = try #require(fact["GPSAltitude"] as? Double)
            #expect(
                abs((photo.altitudeMeters ?? .nan) - altitude) < 1e-6,
                "\(photo.id): \(String(describing: photo.altitudeMeters))")
            #expect(photo.horizontalAccuracyMeters == fact["GPSHPositioningError"] as? Double)
            // DateTimeOriginal in the zone of OffsetTimeOriginal, else exiftool's GPSDateTime (UTC).
            let expected: Date? =
                if let offset = fact["OffsetTimeOriginal"] as? String {
                    Self.date(try #require(fact["DateTimeOriginal"] as? String), zone: offset)
                } else {
                    Self.date(String(try #require(fact["GPSDateTime"] as? String).dropLast()), zone: "Z")
                }
            #expect(
                photo.dateTaken != nil && photo.dateTaken == expected,
                "\(photo.id): \(String(describing: photo.dateTaken))")
            #expect(photo.image?.url.lastPathComponent == photo.id)
        }
    }

    @Test func aNikonNEFGeotaggedByExiftoolIsReadAsExiftoolReadsIt() throws {
        // exiftool's own stripped NEF: no GPS as it comes; a copy geotagged by exiftool itself.
        let folder = try Self.folder(with: ["nikon-d70-stub.nef"])
        let plain = try JPEGFolderSource(url: folder.url).load()
        #expect(plain.photos.isEmpty && plain.report.skippedWithoutLocation == 1)
        let tagged = folder.file("nikon-d70-stub.nef")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = [
            "exiftool", "-m", "-q", "-overwrite_original", "-GPSLatitude=45.8267", "-GPSLatitudeRef=N",
            "-GPSLongitude=6.8652", "-GPSLongitudeRef=E", "-GPSAltitude=1035", tagged.path,
        ]
        try writer.run()
        writer.waitUntilExit()
        try #require(writer.terminationStatus == 0, "exiftool geotagged the NEF")
        let facts =
            try JSONSerialization.jsonObject(
                with: try Self.exiftool(["-n", "-json", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", tagged.path]))
            as? [[String: Any]]
        let fact = try #require(facts?.first)
        let photo = try #require(try JPEGFolderSource(url: folder.url).load().photos.first)
        #expect(photo.id == "nikon-d70-stub.nef")
        #expect(abs(photo.coordinate.latitude - (fact["GPSLatitude"] as? Double ?? .nan)) < 1e-9)
        #expect(abs(photo.coordinate.longitude - (fact["GPSLongitude"] as? Double ?? .nan)) < 1e-9)
        #expect(photo.altitudeMeters == fact["GPSAltitude"] as? Double)
    }

    @Test func aMixedFolderGivesEveryPhoto() throws {
        let folder = try Self.folder(with: [
            "iphone-xs.heic", "xiaomi-redmi.heic", "pidng-geotagged.dng", "sony-no-gps.heic",
        ])
        let jpegs = RepositoryFiles.samples.appendingPathComponent("photos/ansel-adams")
        let jpegNames = try FileManager.default.contentsOfDirectory(atPath: jpegs.path).filter { $0.hasSuffix(".jpg") }
            .sorted()
        let alone = try JPEGFolderSource(url: jpegs).load()
        for name in jpegNames {
            try FileManager.default.copyItem(at: jpegs.appendingPathComponent(name), to: folder.file(name))
        }
        let mixed = try JPEGFolderSource(url: folder.url).load()
        #expect(mixed.photos.count == alone.photos.count + 3)
        #expect(mixed.report.skippedWithoutLocation == alone.report.skippedWithoutLocation + 1)
        #expect(
            Set(mixed.photos.map(\.id)).isSuperset(of: ["iphone-xs.heic", "xiaomi-redmi.heic", "pidng-geotagged.dng"]))
        // An iPhone photo renamed .jpg is read as what it is.
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent("iphone-xs.heic"), to: folder.file("renamed.jpg"))
        let renamed = try #require(try JPEGFolderSource(url: folder.url).load().photos.first { $0.id == "renamed.jpg" })
        #expect(renamed.coordinate == mixed.photos.first { $0.id == "iphone-xs.heic" }?.coordinate)
    }

    @Test func filesThatAreNotWhatTheirNamesSayAreSkippedAndCounted() throws {
        let folder = try TemporaryDirectory()
        let heic = try folder.write("not a HEIC at all", to: "fake.heic")
        let raw = try folder.write("not a raw file either", to: "fake.nef")
        var cut = try Data(contentsOf: Self.fixtures.appendingPathComponent("iphone-xs.heic"))
        cut = cut.prefix(cut.count / 3)
        try cut.write(to: folder.file("cut.heic"))
        let collection = try JPEGFolderSource(url: folder.url).load()
        #expect(collection.photos.isEmpty)
        let skipped = collection.report.skippedFiles
        #expect(skipped.map(\.reason) == [.damaged, .notPhoto, .notPhoto], "\(skipped)")
        #expect(
            skipped.dropFirst().map(\.description) == [
                "\(heic): is not a HEIF image: it does not start with an 'ftyp' box of a HEIF brand",
                "\(raw): is not a TIFF-based raw file: it does not start with II or MM",
            ])
        #expect(skipped.first?.description.hasPrefix("\(folder.file("cut.heic").path): ") == true)
        #expect(
            collection.report.warningLine
                == "3 photos were skipped: 2 are not HEIC or raw photos, 1 is damaged or cut short")
    }

    /// A HEIC cut short after its metadata, as a partial copy leaves it: cut right after its
    /// primary image's Exif item, before its image data ends (the offsets from its `iloc` box:
    /// the iPhone's Exif item 3 is bytes 62,830-65,184 and its image tiles and thumbnail run to
    /// 156,055; the Xiaomi's item 10025 is bytes 112,583-304,765, its tiles running to 896,013).
    /// Placed where exiftool reads it, and reported as cut; its thumbnail cannot be made.
    @Test(arguments: [("iphone-xs.heic", 65_184, 156_055), ("xiaomi-redmi.heic", 304_765, 896_013)])
    func aHEICCutAfterItsMetadataIsPlacedWhereExiftoolReadsIt(name: String, cutAt: Int, wholeCount: Int) throws {
        let folder = try TemporaryDirectory()
        let whole = try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
        #expect(whole.count == wholeCount)
        let cut = folder.file("partial.heic")
        try whole.prefix(cutAt).write(to: cut)
        let facts = try #require(
            try JSONSerialization.jsonObject(
                with: Self.exiftool(["-n", "-json", "-GPSLatitude", "-GPSLongitude", cut.path])) as? [[String: Any]])
        let latitude = try #require(facts.first?["GPSLatitude"] as? Double, "exiftool reads the cut file's position")
        let longitude = try #require(facts.first?["GPSLongitude"] as? Double)

        let collection = try JPEGFolderSource(url: folder.url).load()
        let photo = try #require(collection.photos.first, "\(collection.report)")
        #expect(abs(photo.coordinate.latitude - latitude) < 1e-9 && abs(photo.coordinate.longitude - longitude) < 1e-9)
        #expect(collection.report.skippedFiles.isEmpty)
        #expect(
            collection.report.cutImages == [
                PhotoLoadReport.CutImage(file: cut, byteCount: cutAt, declaredByteCount: wholeCount)
            ])
        #expect(
            collection.report.warningLine
                == "1 photo is cut short after its metadata (a partial copy?): placed, without its image")
        #expect(
            collection.report.cutImages.first?.description
                == "\(cut.displayPath): is cut short (\(cutAt.groupedText) of its \(wholeCount.groupedText) bytes) after its metadata: placed, without its image"
        )

        // Its thumbnail: an error naming the cut, which a map turns into a warning.
        let cache = try TemporaryDirectory()
        let error = #expect(throws: PhotoSourceError.self) {
            try ThumbnailCache(directory: cache.url).thumbnail(for: cut, pixelSize: 46)
        }
        #expect(
            error?.description
                == "\(cut.displayPath): cannot be decoded as a photo: is cut short (\(cutAt.groupedText) of its \(wholeCount.groupedText) bytes): its image cannot be decoded"
        )

        // Cut one byte into its Exif item, it is damaged, as before.
        try whole.prefix(cutAt - 1).write(to: cut)
        let damaged = try JPEGFolderSource(url: folder.url).load()
        #expect(damaged.photos.isEmpty && damaged.report.cutImages.isEmpty)
        #expect(damaged.report.skippedFiles.map(\.reason) == [.damaged])
        #expect(
            damaged.report.skippedFiles.first?.description
                == "\(cut.displayPath): is cut short (\((cutAt - 1).groupedText) of its \(wholeCount.groupedText) bytes) before its Exif metadata ends"
        )
    }

    @Test func aCR2sThumbnailIsTheJPEGExiftoolExtracts() throws {
        let cache = try TemporaryDirectory()
        let cr2 = Self.fixtures.appendingPathComponent("canon-eos-rebel-t5i-cut.cr2")
        // The CR2's IFD0 preview starts past the cut; its IFD1 thumbnail is whole.
        let extracted = try Self.exiftool(["-b", "-ThumbnailImage", cr2.lastPathComponent])
        #expect(extracted.count == 17_867)
        let expected = try Thumbnail(jpegData: extracted, file: cr2, pixelSize: 46)
        let thumbnail = try ThumbnailCache(directory: cache.url).thumbnail(for: cr2, pixelSize: 46)
        #expect(thumbnail == expected)
    }

    @Test func aRawFileWithoutAPreviewSaysSo() throws {
        let cache = try TemporaryDirectory()
        let dng = Self.fixtures.appendingPathComponent("pidng-geotagged.dng")
        let error = #expect(throws: PhotoSourceError.self) {
            try ThumbnailCache(directory: cache.url).thumbnail(for: dng, pixelSize: 46)
        }
        #expect(
            error?.description
                == "\(dng.displayPath): cannot be decoded as a photo: the raw file holds no embedded JPEG preview")
    }

    /// The HEIC thumbnails against pillow-heif's decoding of the same file, cropped to its
    /// centre square and shrunk by Pillow's box filter: the same pixels within what two YCbCr
    /// conversions and libheif's stored thumbnail (which Mapwright decodes when it is large
    /// enough) differ by.
    @Test(arguments: ["iphone-xs.heic", "xiaomi-redmi.heic"])
    func heicThumbnailsArePillowHeifs(name: String) throws {
        let cache = try TemporaryDirectory()
        let file = Self.fixtures.appendingPathComponent(name)
        let thumbnail = try ThumbnailCache(directory: cache.url).thumbnail(for: file, pixelSize: 46)
        let script = """
            import sys, pillow_heif
            from PIL import Image
            pillow_heif.register_heif_opener()
            image = Image.open(sys.argv[1]).convert("RGB")
            side = min(image.size)
            left, top = (image.width - side) // 2, (image.height - side) // 2
            square = image.crop((left, top, left + side, top + side)).resize((46, 46), Image.BOX)
            sys.stdout.write(square.tobytes().hex())
            """
        let hex = try Self.pillowHeif.run(script, arguments: [file.path], in: cache.url)
        var reference: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            reference.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        #expect(reference.count == 46 * 46 * 3)
        var difference = 0
        for pixel in 0..<(46 * 46) {
            for channel in 0..<3 {
                difference += abs(Int(thumbnail.rgba[pixel * 4 + channel]) - Int(reference[pixel * 3 + channel]))
            }
        }
        let mean = Double(difference) / Double(46 * 46 * 3)
        #expect(mean < 6, "\(name): mean difference \(mean) from pillow-heif's")
        #expect(thumbnail.width == 46 && thumbnail.height == 46)
    }
}
