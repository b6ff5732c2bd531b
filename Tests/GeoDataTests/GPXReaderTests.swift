import Foundation
import GeoData
import MapCore
import MapJSON
import MapTestSupport
import Testing

struct GPXReaderTests {
    private static let walk = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <metadata><name>Sunday</name></metadata>
          <wpt lat="48.8584" lon="2.2945"><name>Eiffel Tower</name></wpt>
          <rte>
            <name>Plan</name>
            <rtept lat="48.8530" lon="2.3499"/>
            <rtept lat="48.8606" lon="2.3376"/>
          </rte>
          <trk>
            <name>Walk</name>
            <trkseg>
              <trkpt lat="48.8530" lon="2.3499"><ele>35.5</ele><time>2024-05-01T09:30:00Z</time></trkpt>
              <trkpt lat="48.8540" lon="2.3480"><ele>36</ele><time>2024-05-01T09:31:00.500Z</time></trkpt>
            </trkseg>
            <trkseg>
              <trkpt lat="48.8600" lon="2.3400"><time>2024-05-01T10:00:00</time></trkpt>
              <trkpt lat="48.8606" lon="2.3376"/>
              <trkpt lat="48.8610" lon="2.3350"/>
            </trkseg>
          </trk>
        </gpx>
        """

    private func read(_ text: String) throws -> GPXDocument {
        let directory = try TemporaryDirectory()
        return try GPXReader.read(path: directory.write(text, to: "walk.gpx"))
    }

    private func failure(_ text: String) throws -> (GeoDataError, String) {
        let directory = try TemporaryDirectory()
        let path = try directory.write(text, to: "broken.gpx")
        let error = try #require(throws: GeoDataError.self) { try GPXReader.read(path: path) }
        return (error, path)
    }

    @Test func trackKeepsItsTwoSegments() throws {
        let document = try read(Self.walk)
        let track = try #require(document.tracks.first)
        #expect(track.name == "Walk")
        #expect(track.segments.map(\.count) == [2, 3])
        let first = track.segments[0][0]
        #expect(first.coordinate.latitude == 48.8530)
        #expect(first.coordinate.longitude == 2.3499)
        #expect(first.elevationMeters == 35.5)
        #expect(first.time == Date(timeIntervalSince1970: 1_714_555_800))
        #expect(track.segments[0][1].time == Date(timeIntervalSince1970: 1_714_555_860.5))
        #expect(track.segments[1][0].time == Date(timeIntervalSince1970: 1_714_557_600), "no zone means UTC")
        #expect(track.segments[1][1].elevationMeters == nil)
    }

    @Test func routeAndWaypointAreRead() throws {
        let document = try read(Self.walk)
        #expect(document.routes.map(\.name) == ["Plan"])
        #expect(document.routes.first?.points.count == 2)
        #expect(document.waypoints.map(\.name) == ["Eiffel Tower"])
    }

    @Test func documentBecomesTrackRouteAndWaypointFeatures() throws {
        let features = try read(Self.walk).featureCollection.features
        #expect(features.map { $0.properties["kind"] } == [.string("track"), .string("route"), .string("waypoint")])
        guard case .multiLineString(let lines)? = features[0].geometry else {
            Issue.record("the track is not a MultiLineString")
            return
        }
        #expect(lines.map(\.count) == [2, 3])
        #expect(features[1].geometry == .lineString([Position((2.3499, 48.8530)), Position((2.3376, 48.8606))]))
        #expect(features[2].properties["name"] == .string("Eiffel Tower"))
    }

    @Test func malformedXMLNamesTheLine() throws {
        let (error, path) = try failure(
            """
            <?xml version="1.0"?>
            <gpx version="1.1">
              <trk><trkseg>
                <trkpt lat="1" lon="2"></trkseg>
              </trk>
            </gpx>
            """)
        guard case .invalidGPX(let errorPath, let line, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(errorPath == path)
        #expect(line == 4)
        #expect(
            error.description
                == "\(path): line 4: the XML is not well-formed: a closing tag does not match the open element")
    }

    @Test func badLatitudeNamesTheLine() throws {
        let (error, path) = try failure(
            """
            <gpx version="1.1">
              <trk><trkseg>
                <trkpt lat="48.85" lon="2.35"/>
                <trkpt lat="91" lon="2.35"/>
              </trkseg></trk>
            </gpx>
            """)
        #expect(error == .invalidGPX(path: path, line: 4, reason: #"<trkpt> lat "91" is not a latitude in [-90, 90]"#))
    }

    @Test func badTimeNamesTheLine() throws {
        let (error, path) = try failure(
            """
            <gpx version="1.1"><trk><trkseg>
              <trkpt lat="48.85" lon="2.35"><time>yesterday</time></trkpt>
            </trkseg></trk></gpx>
            """)
        #expect(
            error
                == .invalidGPX(
                    path: path,
                    line: 2,
                    reason: #"<time> "yesterday" is not an xsd:dateTime such as 2024-05-01T09:30:00Z"#
                ))
    }

    @Test func otherRootElementIsRejected() throws {
        let (error, path) = try failure("<kml><Document/></kml>")
        #expect(error == .invalidGPX(path: path, line: 1, reason: "the root element is <kml>, not <gpx>"))
    }
}
