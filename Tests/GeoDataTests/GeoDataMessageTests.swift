import Foundation
import GeoData
import MapTestSupport
import Testing

/// Errors reading GPX and GeoJSON files say what is wrong in plain words: no Foundation error
/// domains, no libxml2 error numbers, no word said twice.
struct GeoDataMessageTests {
    private static let track = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <trk>
            <trkseg>
              <trkpt lat="48.8530" lon="2.3499"/>
              <trkpt lat="48.8540" lon="2.3480"/>
            </trkseg>
          </trk>
        </gpx>

        """

    private func gpxError(_ text: String) throws -> (GeoDataError, String) {
        let directory = try TemporaryDirectory()
        let path = try directory.write(text, to: "cut.gpx")
        return (try #require(throws: GeoDataError.self) { try GPXReader.read(path: path) }, path)
    }

    @Test func aGPXCutInsideAnAttributeEndsEarlyOnItsLastLine() throws {
        let cut = String(Self.track.prefix(through: Self.track.range(of: "lon=\"2.34")!.upperBound))
        let (error, path) = try gpxError(cut)
        #expect(error.description == "\(path): line 5: the file ends early, before <trkseg> is closed")
    }

    @Test func aGPXWithoutItsClosingTagsEndsEarly() throws {
        let cut = String(Self.track[..<Self.track.range(of: "  </trk>")!.lowerBound])
        let (error, path) = try gpxError(cut)
        #expect(error.description == "\(path): line 7: the file ends early, before <trk> is closed")
    }

    @Test func aOneLineGPXCutShortEndsEarlyButAnErrorInsideItDoesNot() throws {
        let cut = #"<gpx><trk><name>长城日落</name><trkseg><trkpt lat="40.4" lon="116.5"/><trkpt lat="40."#
        #expect(try gpxError(cut).0.description.hasSuffix("line 1: the file ends early, before <trkseg> is closed"))
        let unquoted = "<gpx><trk a=></trk></gpx>\n"
        #expect(
            try gpxError(unquoted).0.description.hasSuffix(
                "line 1: the XML is not well-formed: an attribute value is not quoted"))
    }

    @Test func contentAfterTheRootIsStillSaidAsSuch() throws {
        let (error, _) = try gpxError(Self.track + "<gpx></gpx>\n")
        #expect(error.description.hasSuffix("the XML is not well-formed: there is content after the root element ends"))
    }

    @Test func noMessageNamesALibraryErrorNumber() throws {
        for broken in [
            "<gpx><trk a=></trk></gpx>", "<gpx><trk a=\"1\" a=\"2\"/></gpx>", "<gpx>&nbsp;</gpx>",
            "<gpx><trk <//></gpx>",
        ] {
            let (error, _) = try gpxError(broken)
            #expect(!error.description.contains("error "), "\(broken): \(error)")
        }
    }

    @Test func aFolderGivenAsAFileSaysSo() throws {
        let directory = try TemporaryDirectory()
        for name in ["walk.gpx", "shapes.geojson"] {
            let folder = directory.file(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let read: () throws(GeoDataError) -> Void =
                name.hasSuffix(".gpx")
                ? { () throws(GeoDataError) in _ = try GPXReader.read(path: folder.path) }
                : { () throws(GeoDataError) in _ = try GeoJSONReader.read(path: folder.path) }
            #expect(throws: GeoDataError.unreadableFile(path: folder.path, reason: "it is a folder, not a file")) {
                try read()
            }
        }
    }

    @Test func aMissingFileSaysThereIsNone() {
        #expect(throws: GeoDataError.unreadableFile(path: "/nonexistent/walk.gpx", reason: "there is no such file")) {
            try GPXReader.read(path: "/nonexistent/walk.gpx")
        }
    }

    @Test func invalidJSONSaysSoOnce() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("{\"type\": \"FeatureCollection\",\n", to: "plain.geojson")
        let error = try #require(throws: GeoDataError.self) { try GeoJSONReader.read(path: path) }
        #expect(error.description == "\(path): is not valid JSON: it ends early, at line 1")
    }
}
