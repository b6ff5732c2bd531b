import Foundation
import MapCore
import MapTestSupport
import PhotoSources
import Testing

/// GPX waypoints as points (`--photos trip.gpx`), read against gpxpy: the file is gpxpy's own
/// writing, and every waypoint's position, name, description, elevation and time is what
/// gpxpy parses back.
struct GPXWaypointSourceTests {
    static let gpxpy = PythonEnvironment(name: "gpxpy-1", requirements: ["gpxpy>=1.6,<2"], check: "import gpxpy")

    /// gpxpy writes a trip (a track and four waypoints, one without a name, one with a comment
    /// only) to `trip.gpx` in `folder`, then prints its waypoints as it parses them back, as JSON.
    static let script = """
        import datetime, json, sys, gpxpy, gpxpy.gpx
        gpx = gpxpy.gpx.GPX()
        track = gpxpy.gpx.GPXTrack(name="Harbour walk")
        segment = gpxpy.gpx.GPXTrackSegment()
        for lat, lon in [(60.1675, 24.9520), (60.1681, 24.9555), (60.1690, 24.9580)]:
            segment.points.append(gpxpy.gpx.GPXTrackPoint(lat, lon))
        track.segments.append(segment)
        gpx.tracks.append(track)
        utc = datetime.timezone.utc
        gpx.waypoints.append(gpxpy.gpx.GPXWaypoint(60.16752, 24.95207, elevation=4.5, name="Kauppatori",
            description="Market square", time=datetime.datetime(2024, 6, 21, 9, 30, 5, tzinfo=utc)))
        gpx.waypoints.append(gpxpy.gpx.GPXWaypoint(60.17032, 24.95236, name="Tuomiokirkko", comment="Steps"))
        gpx.waypoints.append(gpxpy.gpx.GPXWaypoint(60.14523, 24.98781, name="Suomenlinna – Kustaanmiekka"))
        gpx.waypoints.append(gpxpy.gpx.GPXWaypoint(-33.85678, 151.21529))
        with open("trip.gpx", "w", encoding="utf-8") as out:
            out.write(gpx.to_xml())
        parsed = gpxpy.parse(open("trip.gpx", encoding="utf-8"))
        json.dump([{"lat": w.latitude, "lon": w.longitude, "name": w.name, "desc": w.description, "cmt": w.comment,
                    "ele": w.elevation, "time": w.time.timestamp() if w.time else None} for w in parsed.waypoints], sys.stdout)
        """

    @Test func waypointsAreGpxpys() throws {
        let folder = try TemporaryDirectory()
        let output = try Self.gpxpy.run(Self.script, in: folder.url)
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(expected.count == 4)
        let collection = try PhotoCollection.load(from: folder.file("trip.gpx"))
        #expect(collection.photos.count == expected.count)
        for (photo, waypoint) in zip(collection.photos, expected) {
            let latitude = try #require(waypoint["lat"] as? Double)
            let longitude = try #require(waypoint["lon"] as? Double)
            #expect(
                abs(photo.coordinate.latitude - latitude) < 1e-12 && abs(photo.coordinate.longitude - longitude) < 1e-12
            )
            #expect(photo.title == waypoint["name"] as? String)
            #expect(photo.subtitle == (waypoint["desc"] as? String ?? waypoint["cmt"] as? String))
            #expect(photo.altitudeMeters == waypoint["ele"] as? Double)
            #expect(photo.dateTaken?.timeIntervalSince1970 == waypoint["time"] as? Double)
            #expect(photo.image == nil)
        }
        // Named waypoints are known by their names, the unnamed one by its place.
        #expect(collection.photos.map(\.id) == ["Kauppatori", "Tuomiokirkko", "Suomenlinna – Kustaanmiekka", "wpt 4"])
        // Told by content: the same file named .gpx.xml.
        try FileManager.default.copyItem(at: folder.file("trip.gpx"), to: folder.file("trip.gpx.xml"))
        #expect(try PhotoCollection.load(from: folder.file("trip.gpx.xml")).photos == collection.photos)
    }

    @Test func aGPXWithoutWaypointsSaysWhereItsTracksGo() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write(
            """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test"><trk><trkseg><trkpt lat="60.1" lon="24.9"/><trkpt lat="60.2" lon="24.9"/></trkseg></trk></gpx>
            """, to: "walk.gpx")
        let error = #expect(throws: PhotoSourceError.self) {
            try PhotoCollection.load(from: URL(fileURLWithPath: path))
        }
        #expect(
            error?.description
                == "\(path): has no waypoints (<wpt>) to show as points; its tracks and routes are drawn with --track")
        let broken = try folder.write("<gpx version=\"1.1\"><wpt lat=\"91\" lon=\"0\"/></gpx>", to: "broken.gpx")
        let brokenError = #expect(throws: PhotoSourceError.self) {
            try PhotoCollection.load(from: URL(fileURLWithPath: broken))
        }
        #expect(brokenError?.description == "\(broken):1: <wpt> lat \"91\" is not a latitude in [-90, 90]")
    }
}
