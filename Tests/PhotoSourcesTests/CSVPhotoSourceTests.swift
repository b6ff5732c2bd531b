import Foundation
import MapCore
import MapTestSupport
import PhotoSources
import Testing

struct CSVPhotoSourceTests {
    private func load(_ text: String) throws -> PhotoCollection {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try CSVPhotoSource(url: writeFile("photos.csv", in: folder, text)).load()
    }

    private func message(loading text: String) throws -> String? {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try writeFile("photos.csv", in: folder, text)
        let error = #expect(throws: PhotoSourceError.self) { try CSVPhotoSource(url: file).load() }
        return error?.description.replacingOccurrences(of: folder.path + "/", with: "")
    }

    @Test func readsRowsByHeaderName() throws {
        let collection = try load(
            """
            latitude,longitude,title,subtitle,photographer,image
            37.7459,-119.5332,Half Dome,From Glacier Point,Ansel Adams,photos/half-dome.jpg
            -33.8568,151.2153,悉尼歌剧院,,李明,https://example.org/opera.jpg

            """)
        #expect(collection.photos.count == 2)
        let dome = collection.photos[0]
        #expect(dome.id == "photos.csv:2")
        #expect(dome.coordinate == (try Coordinate(latitude: 37.7459, longitude: -119.5332)))
        #expect(dome.title == "Half Dome")
        #expect(dome.subtitle == "From Glacier Point")
        #expect(dome.photographer == "Ansel Adams")
        #expect(dome.image?.url.path.hasSuffix("/photos/half-dome.jpg") == true)
        let opera = collection.photos[1]
        #expect(opera.title == "悉尼歌剧院")
        #expect(opera.subtitle == nil)
        #expect(opera.image == .remote(URL(string: "https://example.org/opera.jpg")!))
    }

    @Test func columnsMayComeInAnyOrderAndCase() throws {
        let collection = try load("\u{FEFF}Title,Extra,LONGITUDE,Latitude\r\nParis,x,2.3522,48.8566\r\n")
        #expect(collection.photos.map(\.title) == ["Paris"])
        #expect(collection.photos.first?.coordinate.longitude == 2.3522)
    }

    @Test func quotedFieldsHoldCommasQuotesAndLineBreaks() throws {
        let collection = try load(
            #"""
            latitude,longitude,title,subtitle
            37.7459,-119.5332,"Moonrise, Hernandez","He said ""wait"""
            37.7,-119.6,"Two
            lines",
            38.0,-119.0,"",Fallback
            38.1,-119.1,,
            """#)
        #expect(collection.photos.map(\.calloutTitle) == ["Moonrise, Hernandez", "Two\nlines", "Fallback", "Untitled"])
        #expect(collection.photos[0].subtitle == #"He said "wait""#)
        // The record after the two-line field starts on line 5.
        #expect(collection.photos[2].id == "photos.csv:5")
    }

    @Test func rowsWithoutCoordinatesAreSkippedAndCounted() throws {
        let collection = try load("latitude,longitude,title\n,,Nowhere\n0,0,Null Island\n1,1,Somewhere\n")
        #expect(collection.photos.map(\.title) == ["Somewhere"])
        #expect(collection.report.skippedWithoutLocation == 2)
    }

    @Test func malformedLinesNameTheLine() throws {
        let header = "latitude,longitude,title\n1,1,fine\n"
        #expect(try message(loading: header + "abc,1,bad\n") == "photos.csv:3: latitude 'abc' is not a number")
        #expect(try message(loading: header + "1,1\n") == "photos.csv:3: has 2 fields, the header has 3")
        #expect(try message(loading: header + "1,,x\n") == "photos.csv:3: has a latitude but no longitude")
        #expect(try message(loading: header + "-91,1,x\n") == "photos.csv:3: latitude -91.0 is outside [-90, 90]")
        #expect(
            try message(loading: header + "1,1,a\"b\n")
                == "photos.csv:3: field 3 has a quote inside an unquoted field; quote the whole field and write the quote twice"
        )
        #expect(
            try message(loading: header + "1,1,\"a\"b\n") == "photos.csv:3: field 3 has text after its closing quote")
        #expect(
            try message(loading: header + "1,1,\"open\n2,2,x\n")
                == "photos.csv:3: field 3 opens a quote that is never closed")
    }

    @Test func theHeaderIsRequired() throws {
        #expect(
            try message(loading: "37.7,-119.5,Half Dome\n")
                == "photos.csv:1: the header has no 'latitude' column; expected a header such as "
                + "latitude,longitude,title,subtitle,photographer,image")
        #expect(
            try message(loading: "\n\n")
                == "photos.csv: is empty: expected a header line such as latitude,longitude,title,subtitle,photographer,image"
        )
    }

    @Test func invalidUTF8NamesTheLine() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("photos.csv")
        try Data("latitude,longitude,title\n1,1,".utf8 + [0xFF, 0xFE] + Data("\n".utf8)).write(to: file)
        #expect(throws: PhotoSourceError.invalidLine(file: file, line: 2, problem: "field 3 is not valid UTF-8")) {
            try CSVPhotoSource(url: file).load()
        }
    }
}
