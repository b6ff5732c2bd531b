import Foundation
import ImageCodec
import MapComposer
import MapCore
import MapRenderer
import MapStyle
import PhotoSources
import Testing

/// Fitting shows everything drawn, with a margin: checked twice, from the geometry
/// (`MapSnapshot.point(for:)` and the markers' known sizes) and from the pixels themselves (the
/// band along the edges is plain background).
struct PhotoMapBuilderFramingTests {
    private let builder = PhotoMapBuilder(
        data: RenderFixtures.data,
        thumbnails: ThumbnailCache(
            directory: FileManager.default.temporaryDirectory
                .appendingPathComponent("mapwright-thumbnails-tests")))
    private let background = RGBAPixel(red: 0xf4, green: 0xf1, blue: 0xea, alpha: 255)

    private func photo(_ id: String, _ latitude: Double, _ longitude: Double, title: String? = nil) throws -> Photo {
        Photo(
            id: id, title: title ?? id, coordinate: try RenderFixtures.coordinate(latitude, longitude),
            photographer: "Imogen Cunningham")
    }

    /// Renders the request on the plain style, without attribution, and returns the snapshot.
    private func render(_ request: PhotoMapRequest) throws -> MapSnapshot {
        var options = try builder.options(for: request)
        options.showsAttribution = false
        return try RenderFixtures.snapshotter.snapshot(options)
    }

    /// Every pixel within `bandPoints` of the image's edges is the plain background.
    private func expectPlainBorder(_ snapshot: MapSnapshot, bandPoints: Double = 10, _ what: String) {
        let image = snapshot.image
        let band = Int(bandPoints * snapshot.viewport.scale)
        var touched: [(Int, Int)] = []
        for y in 0..<image.height {
            for x in 0..<image.width where x < band || y < band || x >= image.width - band || y >= image.height - band {
                if image[x: x, y: y] != background { touched.append((x, y)) }
            }
        }
        #expect(
            touched.isEmpty,
            "\(what): \(touched.count) pixels drawn within \(bandPoints) points of the edge, first at \(touched.prefix(3))"
        )
    }

    private func expectInside(_ point: ViewPoint, _ snapshot: MapSnapshot, margin: Double, _ what: String) {
        let size = snapshot.viewport.size
        #expect(
            point.x >= margin && point.x <= size.width - margin && point.y >= margin && point.y <= size.height - margin,
            "\(what) at \(point) is not inside \(size) with a \(margin)-point margin")
    }

    @Test func theWholeGreatCircleArcShowsNotJustItsEnds() throws {
        // London to Sydney runs far north of both ends, over Russia.
        let london = try RenderFixtures.coordinate(51.47, -0.45)
        let sydney = try RenderFixtures.coordinate(-33.94, 151.18)
        let request = PhotoMapRequest(
            photos: [], style: try RenderFixtures.plainStyle(),
            overlays: [MapOverlay(shape: .geodesicPolyline([london, sydney]), lineWidthPoints: 3)],
            size: ViewSize(width: 600, height: 400))
        let snapshot = try render(request)
        for step in 0...100 {
            let point = try #require(snapshot.point(for: london.interpolated(to: sydney, fraction: Double(step) / 100)))
            expectInside(point, snapshot, margin: PhotoMapBuilder.fitMarginPoints - 1.5, "great-circle point \(step)")
        }
        expectPlainBorder(snapshot, "great circle")
    }

    @Test func pinsTheirShadowsAndTheCalloutStayInsideTheMargin() throws {
        let photos = [
            try photo("west", 37.70, -122.52, title: "A long title for a photo at the western edge of the city"),
            try photo("east", 37.71, -122.36), try photo("north", 37.81, -122.45), try photo("south", 37.70, -122.40),
        ]
        let request = PhotoMapRequest(
            photos: photos, style: try RenderFixtures.plainStyle(), selection: .first,
            size: ViewSize(width: 500, height: 360))
        let snapshot = try render(request)
        let pin = MapAnnotation.Marker.pin(Color(red: 1, green: 0, blue: 0)).frameAroundAnchor
        for photo in photos {
            let tip = try #require(snapshot.point(for: photo.coordinate))
            expectInside(
                ViewPoint(x: tip.x + pin.minX, y: tip.y + pin.minY), snapshot, margin: 11.5, "\(photo.id)'s pin head")
            expectInside(
                ViewPoint(x: tip.x + pin.maxX, y: tip.y + pin.maxY), snapshot, margin: 11.5, "\(photo.id)'s shadow")
        }
        var options = try builder.options(for: request)
        options.showsAttribution = false
        let callout = try #require(RenderFixtures.snapshotter.layout(options).calloutFrame)
        #expect(
            callout.minY >= PhotoMapBuilder.fitMarginPoints - 0.5 && callout.minX >= 0 && callout.maxX <= 500,
            "\(callout)")
        expectPlainBorder(snapshot, bandPoints: 3, "pins and callout")
    }

    @Test func aLargeMarkerImageStaysWhole() throws {
        var marker = RGBAImage(width: 160, height: 160)
        for y in 0..<160 {
            for x in 0..<160 { marker[x: x, y: y] = RGBAPixel(red: 20, green: 120, blue: 220, alpha: 255) }
        }
        let photos = [try photo("a", 48.85, 2.29), try photo("b", 48.87, 2.40), try photo("c", 48.83, 2.35)]
        let request = PhotoMapRequest(
            photos: photos, style: try RenderFixtures.plainStyle(), size: ViewSize(width: 480, height: 320),
            markerImage: marker)
        let snapshot = try render(request)
        for photo in photos {
            // 160 pixels at @2x: an 80-point square standing on its bottom centre.
            let tip = try #require(snapshot.point(for: photo.coordinate))
            expectInside(
                ViewPoint(x: tip.x - 40, y: tip.y - 80), snapshot, margin: 11.5, "\(photo.id)'s marker top left")
            expectInside(
                ViewPoint(x: tip.x + 40, y: tip.y), snapshot, margin: 11.5, "\(photo.id)'s marker bottom right")
        }
        expectPlainBorder(snapshot, "large markers")
    }

    @Test func circlesAndTracksAreFramedWhole() throws {
        let center = try RenderFixtures.coordinate(-33.9, 18.4)
        let track = [try RenderFixtures.coordinate(-34.2, 18.3), try RenderFixtures.coordinate(-34.0, 18.9)]
        let request = PhotoMapRequest(
            photos: [], style: try RenderFixtures.plainStyle(),
            overlays: [
                MapOverlay(shape: .circle(center: center, radiusMeters: 30_000), lineWidthPoints: 4),
                MapOverlay(shape: .polyline(track), lineWidthPoints: 6),
            ],
            size: ViewSize(width: 400, height: 400))
        let snapshot = try render(request)
        let ring = try GeodesicCircle(center: center, radiusMeters: 30_000).ring(pointCount: 360)
        for (index, coordinate) in (ring + track).enumerated() {
            expectInside(try #require(snapshot.point(for: coordinate)), snapshot, margin: 9, "point \(index)")
        }
        expectPlainBorder(snapshot, bandPoints: 8, "circle and track")
    }

    @Test func nothingHidesUnderTheAttribution() throws {
        // Photos along the bottom edge, on a style that credits its sources.
        let photos = try (0..<6).map { try photo("p\($0)", 10, Double($0) * 2) }
        let request = PhotoMapRequest(
            photos: photos, style: try RenderFixtures.style("standard"), size: ViewSize(width: 400, height: 240))
        let options = try builder.options(for: request)
        let layout = RenderFixtures.snapshotter.layout(options)
        let plate = try #require(layout.attributionFrame)
        for frame in layout.markerFrames {
            #expect(frame.maxY <= plate.minY, "a marker at \(frame) reaches the attribution plate at \(plate)")
        }
    }

    /// `--place` frames the whole place with the fitting margin, the short way across the
    /// antimeridian: the place's outlying towns (north, south, east and west) lie inside the image
    /// by the margin, measured with `MapSnapshot.point(for:)` on the rendered map.
    @Test(arguments: [
        (
            "Japan",
            [
                (45.42, 141.67, "Wakkanai, Hokkaido"), (31.00, 130.66, "Cape Sata, Kyushu"),
                (32.75, 129.87, "Nagasaki"), (43.33, 145.58, "Nemuro"),
            ]
        ),
        (
            "New Zealand",
            [
                (-34.43, 172.68, "Cape Reinga"), (-46.60, 168.33, "Bluff"), (-37.69, 178.55, "East Cape"),
                (-40.50, 172.70, "Farewell Spit"),
            ]
        ),
        (
            "Fiji",
            [
                (-18.14, 178.44, "Suva"), (-18.22, -178.80, "Lakeba (Lau)"), (-16.43, 179.37, "Labasa"),
                (-17.60, 177.44, "Lautoka"),
            ]
        ),
    ])
    func aPlaceIsFramedWholeWithTheMargin(place: String, towns: [(Double, Double, String)]) throws {
        let request = PhotoMapRequest(
            photos: [], style: try RenderFixtures.style("standard"), framing: .place(place),
            size: ViewSize(width: 600, height: 400))
        let snapshot = try render(request)
        for (latitude, longitude, name) in towns {
            let point = try #require(snapshot.point(for: try RenderFixtures.coordinate(latitude, longitude)))
            expectInside(point, snapshot, margin: PhotoMapBuilder.fitMarginPoints - 0.5, "\(name) (\(place))")
        }
    }

    /// Zoomed out and pitched, the world shows more than once: the selected photo's callout goes
    /// on the copy of its marker nearest the camera (the largest), not on a far copy by the horizon.
    @Test func theCalloutGoesOnTheNearestCopyOfItsMarker() throws {
        let photos = [
            try photo("bridge", 37.8199, -122.4783, title: "Golden Gate"),
            try photo("ladies", 37.7763, -122.4328, title: "Painted Ladies"),
        ]
        var request = PhotoMapRequest(
            photos: photos, style: try RenderFixtures.plainStyle(), selection: .first,
            framing: .center(try RenderFixtures.coordinate(45, -40), zoomLevel: 1.3),
            size: ViewSize(width: 600, height: 400))
        request.headingDegrees = -60
        request.pitchDegrees = 70
        var options = try builder.options(for: request)
        options.showsAttribution = false
        let layout = RenderFixtures.snapshotter.layout(options)
        #expect(layout.markerFrames.count >= 2, "one copy only: \(layout.markerFrames)")
        let nearest = try #require(layout.markerFrames.max { $0.size.height < $1.size.height })
        let callout = try #require(layout.calloutFrame)
        #expect(
            callout.minX <= nearest.midX && nearest.midX <= callout.maxX,
            "callout \(callout), nearest marker \(nearest)")
        #expect(abs(callout.maxY - nearest.minY) < 20, "callout \(callout), nearest marker \(nearest)")
    }
}
