import Foundation
import MapCore
import MapTestSupport
import PhotoSources
import Testing

/// Photo lists as exporters write them, read against an outside reader: exiftool's own CSV of the
/// sample camera JPEGs (its degrees, minutes and seconds, and its `-n` numbers), and GeoJSON with
/// the property names other tools use for titles.
struct ExporterHeadersTests {
    private static let photos = RepositoryFiles.samples.appendingPathComponent("photos")

    /// exiftool's output for `arguments`, run in the repository.
    private func exiftool(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["exiftool"] + arguments
        process.currentDirectoryURL = RepositoryFiles.root
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0, "exiftool \(arguments) (Debian's libimage-exiftool-perl; setup installs it)"
        )
        return String(decoding: data, as: UTF8.self)
    }

    @Test func exiftoolsCSVIsReadAsItWritesIt() throws {
        let folder = try TemporaryDirectory()
        let tags = ["-csv", "-GPSLatitude", "-GPSLongitude", "-Artist", "-ImageDescription", "-r", "Samples/photos"]
        // Degrees, minutes and seconds with hemispheres (exiftool's default), and plain numbers (-n).
        let text = try exiftool(tags)
        let numbers = try exiftool(["-n"] + tags)
        #expect(text.hasPrefix("SourceFile,") && text.contains(" deg "), "\(text.prefix(200))")
        let fromText = try CSVPhotoSource(url: URL(fileURLWithPath: folder.write(text, to: "exif.csv"))).load()
        let fromNumbers = try CSVPhotoSource(url: URL(fileURLWithPath: folder.write(numbers, to: "exif-n.csv"))).load()

        // exiftool's -n positions, by file, are what both read, and what Mapwright's own EXIF
        // reader finds in the JPEGs.
        var expected: [String: Coordinate] = [:]
        for line in numbers.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, let latitude = Double(fields[1]), let longitude = Double(fields[2]) else {
                continue
            }
            expected[String(fields[0])] = try Coordinate(latitude: latitude, longitude: longitude)
        }
        #expect(expected.count >= 15, "\(expected.count) geotagged photos")
        for collection in [fromText, fromNumbers] {
            #expect(collection.photos.count == expected.count)
            for photo in collection.photos {
                // The image is exiftool's SourceFile, relative to the CSV's folder.
                let source = try #require(
                    photo.image?.url.path.components(separatedBy: "/Samples/photos/").last.map {
                        "Samples/photos/" + $0
                    })
                let position = try #require(expected[source], "\(source)")
                #expect(
                    abs(photo.coordinate.latitude - position.latitude) < 1e-6
                        && abs(photo.coordinate.longitude - position.longitude) < 1e-6,
                    "\(source): \(photo.coordinate) against exiftool's \(position)")
            }
        }
        let jpegs = try JPEGFolderSource(url: Self.photos).load()
        for photo in jpegs.photos {
            let source = try #require(
                photo.image?.url.path.components(separatedBy: "/Samples/photos/").last.map { "Samples/photos/" + $0 })
            let position = try #require(expected[source], "\(source)")
            #expect(
                abs(photo.coordinate.latitude - position.latitude) < 1e-6
                    && abs(photo.coordinate.longitude - position.longitude) < 1e-6)
        }
    }

    @Test(arguments: [
        ("lat,lng,name\n60.1699,24.9384,Helsinki\n", "Helsinki"),
        ("Lat,Lon,Title\n60.1699,24.9384,Helsinki\n", "Helsinki"),
        ("latitude,long,headline\n\"60° 10' 11.64\"\" N\",\"24°56'18.24\"\"E\",Helsinki\n", "Helsinki"),
        ("GPSLatitude,GPSLongitude,Description\n60.1699,24.9384,By the station\n", nil),
    ])
    func headersAsPeopleAndExportersWriteThem(csv: String, title: String?) throws {
        let folder = try TemporaryDirectory()
        let collection = try CSVPhotoSource(url: URL(fileURLWithPath: folder.write(csv, to: "list.csv"))).load()
        let photo = try #require(collection.photos.first)
        #expect(
            abs(photo.coordinate.latitude - 60.1699) < 1e-4 && abs(photo.coordinate.longitude - 24.9384) < 1e-4,
            "\(photo.coordinate)")
        #expect(photo.title == title)
        if title == nil { #expect(photo.subtitle == "By the station") }
    }

    @Test func degreesWithTheWrongHemisphereOrNoNumberAreNamed() throws {
        let folder = try TemporaryDirectory()
        let file = URL(fileURLWithPath: try folder.write("lat,lon\n\"24 deg 56' E\",60.17\n", to: "wrong.csv"))
        #expect { try CSVPhotoSource(url: file).load() } throws: { error in
            "\(error)".contains("latitude '24 deg 56' E' is not a number")
        }
    }

    @Test func geoJSONTitlesFromTheNamesOtherFilesUse() throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.9384, 60.1699]},
               "properties": {"NAME": "Helsinki", "description": "Capital of Finland", "author": "Natural Earth"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [23.7275, 37.9838]},
               "properties": {"name": "Athens", "title": "Αθήνα", "description": {"html": "<b>not text</b>"}}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [31.2357, 30.0444]}, "properties": {"label": "القاهرة"}}
            ]}
            """, to: "places.geojson")
        let photos = try GeoJSONPhotoSource(url: URL(fileURLWithPath: file)).load().photos
        #expect(photos.map(\.title) == ["Helsinki", "Αθήνα", "القاهرة"])
        #expect(photos.map(\.subtitle) == ["Capital of Finland", nil, nil])
        #expect(photos.first?.photographer == "Natural Earth")
    }
}
