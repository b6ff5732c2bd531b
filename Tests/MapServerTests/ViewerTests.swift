import Foundation
import HTTPTypes
import HummingbirdTesting
import ImageCodec
import MapComposer
import MapCore
import MapRenderer
import MapServer
import MapStyle
import MapTestSupport
import PhotoSources
import Testing

/// The web viewer: its page and Leaflet's and MapLibre GL JS's files through the router, the
/// tracks GeoJSON, and the page driven in Debian's headless chromium over real HTTP on loopback in
/// both modes (one browser at a time).
@Suite(.serialized) struct ViewerTests {
    static let leaflet = URL(fileURLWithPath: "/usr/share/javascript/leaflet")
    /// The checkout's MapLibre GL JS, which scripts/setup.sh downloads.
    static let maplibre = RepositoryFiles.root.appendingPathComponent("Tiles/maplibre-gl", isDirectory: true)

    /// ``ServerFixtures/configuration(threads:queueLimit:timeoutSeconds:metatileSize:corsOrigins:)``
    /// serving the checkout's MapLibre GL JS.
    static func configuration() -> ServerConfiguration {
        var configuration = ServerFixtures.configuration()
        configuration.maplibreDirectory = maplibre
        return configuration
    }

    /// The sample photos served as `mapwright serve --photos Samples/photos --track Samples/track.gpx`
    /// serves them: overlay content from the same builder, photos for thumbnails.
    static func server(
        folder: TemporaryDirectory, configuration: ServerConfiguration = ViewerTests.configuration(),
        photos: [Photo]? = nil,
        styleName: String = "standard"
    ) throws -> MapTileServer {
        let style = try ServerFixtures.standardStyle(name: styleName)
        let photos =
            try photos ?? PhotoCollection.load(from: RepositoryFiles.samples.appendingPathComponent("photos")).photos
        let track = try OverlayFile.read(
            RepositoryFiles.samples.appendingPathComponent("track.gpx"), look: style.style.mapwright.overlay
        ).overlays
        let request = PhotoMapRequest(photos: photos, style: style.style, overlays: track)
        let thumbnails = ThumbnailCache(directory: folder.url.appendingPathComponent("thumbnails"))
        let builder = PhotoMapBuilder(data: style.data, thumbnails: thumbnails)
        let overlay = ServedOverlay(style: style.style, data: style.data, contentHash: "samples") { scale in
            var scaled = request
            scaled.scale = Double(scale)
            return try builder.tileContent(for: scaled)
        }
        return ServerFixtures.server(
            ServerContent(
                styles: [style], overlay: overlay, photos: ServedPhotos(request: request, thumbnails: thumbnails)),
            folder: folder, configuration: configuration)
    }

    @Test func thePageLoadsLeafletFromTheServerAndLeafletsFilesAreServed() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.server(folder: folder)
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.text.contains(#"<script src="leaflet/leaflet.js"></script>"#))
                #expect(response.text.contains(#"<link rel="stylesheet" href="leaflet/leaflet.css">"#))
                #expect(response.text.contains(#"script.src = "maplibre-gl/maplibre-gl.js";"#))
                #expect(!response.text.contains("http://") && !response.text.contains("https://"), "no CDN")
                // Relative URLs only, so the page works behind a path prefix.
                for path in [
                    "leaflet", "maplibre-gl", "index.json", "annotations.json", "overlays", "photos", "styles",
                ] {
                    #expect(!response.text.contains("\"/\(path)"), "no URL /\(path)")
                }
            }
            for (file, type) in [
                ("leaflet.js", "application/javascript; charset=utf-8"), ("leaflet.css", "text/css; charset=utf-8"),
                ("images/marker-icon.png", "image/png"),
            ] {
                try await client.execute(uri: "/leaflet/\(file)", method: .get) { response in
                    #expect(response.status == .ok, "\(file)")
                    #expect(response.headers[.contentType] == type)
                    let bytes = try Data(contentsOf: Self.leaflet.appendingPathComponent(file))
                    #expect(response.data == bytes, "\(file) is Debian's file")
                }
            }
            for uri in [
                "/leaflet/", "/leaflet/images", "/leaflet/%2e%2e/%2e%2e/etc/passwd", "/leaflet/..%2F..%2Fetc%2Fpasswd",
                "/leaflet/.hidden", "/leaflet/leaflet.js.gz",
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(!response.text.contains("root:"), "\(uri)")
                }
            }
        }
    }

    @Test func maplibreGLJSsFilesAreServedBesideItsLicence() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.server(folder: folder)
        try #require(
            FileManager.default.fileExists(atPath: Self.maplibre.appendingPathComponent("maplibre-gl.js").path),
            "MapLibre GL JS is missing: run scripts/setup.sh")
        try await ServerFixtures.test(server) { client in
            for (file, type) in [
                ("maplibre-gl.js", "application/javascript; charset=utf-8"),
                ("maplibre-gl.css", "text/css; charset=utf-8"), ("LICENSE.txt", "text/plain; charset=utf-8"),
            ] {
                try await client.execute(uri: "/maplibre-gl/\(file)", method: .get) { response in
                    #expect(response.status == .ok, "\(file)")
                    #expect(response.headers[.contentType] == type)
                    let bytes = try Data(contentsOf: Self.maplibre.appendingPathComponent(file))
                    #expect(response.data == bytes, "\(file) is the checkout's file")
                }
            }
            try await client.execute(uri: "/maplibre-gl/LICENSE.txt", method: .get) { response in
                #expect(response.text.contains("Copyright (c) 2020, MapLibre"))
            }
            for uri in [
                "/maplibre-gl/", "/maplibre-gl/%2e%2e/%2e%2e/etc/passwd", "/maplibre-gl/..%2F..%2Fetc%2Fpasswd",
                "/maplibre-gl/.hidden", "/maplibre-gl/maplibre-gl.js.gz", "/maplibre-gl/../leaflet/leaflet.js",
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(!response.text.contains("root:"), "\(uri)")
                }
            }
        }
    }

    @Test func withoutMapLibreGLJSTheFilesAreAOneLine404() async throws {
        let folder = try TemporaryDirectory()
        var configuration = Self.configuration()
        configuration.maplibreDirectory = nil
        let unfound = try Self.server(folder: folder, configuration: configuration)
        try await ServerFixtures.test(unfound) { client in
            try await client.execute(uri: "/maplibre-gl/maplibre-gl.js", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(
                    response.text
                        == "MapLibre GL JS is not installed (no data folder holds Tiles/maplibre-gl/): run scripts/setup.sh\n"
                )
            }
        }
        configuration.maplibreDirectory = folder.url.appendingPathComponent("no-maplibre")
        let missing = try Self.server(folder: folder, configuration: configuration)
        try await ServerFixtures.test(missing) { client in
            try await client.execute(uri: "/maplibre-gl/maplibre-gl.js", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(
                    response.text
                        == "MapLibre GL JS is not installed at \(folder.url.path)/no-maplibre: run scripts/setup.sh\n")
            }
        }
    }

    @Test func withoutLeafletInstalledTheFilesAreAOneLine404() async throws {
        let folder = try TemporaryDirectory()
        var configuration = ServerFixtures.configuration()
        configuration.leafletDirectory = folder.url.appendingPathComponent("no-leaflet")
        let server = try Self.server(folder: folder, configuration: configuration)
        let missing = configuration.leafletDirectory.path
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/leaflet/leaflet.js", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(
                    response.text
                        == "Leaflet is not installed at \(missing): run scripts/setup.sh (Debian's libjs-leaflet)\n")
            }
        }
    }

    @Test func tracksAreGeoJSONLinesThroughTheGPXPoints() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.server(folder: folder)
        // The GPX's own points, read here with a regular expression rather than Mapwright's reader.
        let text = try String(contentsOf: RepositoryFiles.samples.appendingPathComponent("track.gpx"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"<trkpt\s+lat="([-0-9.]+)"\s+lon="([-0-9.]+)""#)
        let points = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            let number = { (group: Int) in Double(text[Range(match.range(at: group), in: text)!])! }
            return [number(2), number(1)]
        }
        #expect(points.count > 10)
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/overlays/tracks.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/geo+json")
                let json = try response.json()
                let features = try #require(json["features"] as? [[String: Any]])
                #expect(features.count == 1)
                let geometry = try #require(features.first?["geometry"] as? [String: Any])
                #expect(geometry["type"] as? String == "LineString")
                let coordinates = try #require(geometry["coordinates"] as? [[Double]])
                #expect(coordinates.count == points.count)
                for (served, point) in zip(coordinates, points) {
                    #expect(abs(served[0] - point[0]) < 1e-6 && abs(served[1] - point[1]) < 1e-6)
                }
            }
        }
    }

    /// The viewer in a real browser: tiles load, clusters and photos show, a click on a cluster
    /// zooms to its expansion zoom, a click on a photo opens its callout with the thumbnail.
    @Test(.timeLimit(.minutes(6))) func theViewerWorksInHeadlessChromium() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            Issue.record("Debian's chromium is missing: run scripts/setup.sh")
            return
        }
        let folder = try TemporaryDirectory()
        let server = try Self.server(folder: folder)
        let photos = try PhotoCollection.load(from: RepositoryFiles.samples.appendingPathComponent("photos")).photos
        let screenshot = folder.url.appendingPathComponent("viewer.png")
        let report = try await Self.viewerCheck(server, screenshot: screenshot)
        #expect(report["error"] == nil, "\(report["error"] ?? "")")
        #expect((report["tilesLoaded"] as? Int ?? 0) > 0, "map tiles loaded")
        #expect((report["clusters"] as? Int ?? 0) > 0, "cluster bubbles shown")
        #expect((report["layers"] as? [String] ?? []).contains("Photos"))
        #expect(
            report["links"] as? [String] == ["/styles/standard/style.json"], "the page links the style's style.json")
        #expect((report["attribution"] as? String ?? "").contains("Natural Earth"))
        #expect(report["modeLinks"] as? [String] == ["?gl"], "the page links its GL mode")
        let cluster = try #require(report["clickedCluster"] as? [String: Any])
        let expansionZoom = try #require(cluster["expansionZoom"] as? Int)
        #expect(report["zoomAfterClusterClick"] as? Int == expansionZoom)
        #expect(expansionZoom > (report["zoomBefore"] as? Int ?? 99))
        try Self.expectPhotoPopup(report, photos: photos)
        let kept = try Self.keep(screenshot, as: "viewer-screenshot.png")
        print("viewer screenshot: \(kept.path)")
    }

    /// The report's popup is a photo's: its title, subtitle, relative thumbnail and image links,
    /// the thumbnail loaded.
    static func expectPhotoPopup(_ report: [String: Any], photos: [Photo]) throws {
        let popup = try #require(report["popup"] as? [String: Any])
        let title = try #require(popup["title"] as? String)
        let photo = try #require(photos.first { $0.calloutTitle == title }, "the popup's title '\(title)' is a photo's")
        let id = try #require(
            photo.id.addingPercentEncoding(
                withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_.!~*'()"))))
        #expect(popup["thumbnail"] as? String == "photos/\(id)/thumbnail.jpg")
        #expect(popup["link"] as? String == "photos/\(id)/image")
        #expect(popup["thumbnailLoaded"] as? Bool == true)
        if let photographer = photo.photographer {
            #expect((popup["subtitle"] as? String ?? "").contains(photographer))
        }
    }

    /// A 1000 × 700 screenshot copied to `.build/NAME` for people to look at; its new path.
    static func keep(_ screenshot: URL, as name: String) throws -> URL {
        let image = try RGBAImage(pngData: try Data(contentsOf: screenshot))
        #expect(image.width == 1000 && image.height == 700)
        let kept = RepositoryFiles.root.appendingPathComponent(".build/\(name)")
        try? FileManager.default.removeItem(at: kept)
        try? FileManager.default.copyItem(at: screenshot, to: kept)
        return kept
    }

    /// The GL mode (`?gl`) in a real browser, WebGL drawn by SwiftShader: MapLibre GL JS draws
    /// the style's style.json (raster tiles of the server for `standard`) until `idle` with no
    /// `error` event, the server's clusters show, a click on a cluster eases to its expansion
    /// zoom (MapLibre's zoom, one less), a click on a photo opens its callout with the thumbnail.
    @Test(.timeLimit(.minutes(6))) func theGLViewerWorksInHeadlessChromium() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            Issue.record("Debian's chromium is missing: run scripts/setup.sh")
            return
        }
        try #require(
            FileManager.default.fileExists(atPath: Self.maplibre.appendingPathComponent("maplibre-gl.js").path),
            "MapLibre GL JS is missing: run scripts/setup.sh")
        let folder = try TemporaryDirectory()
        let server = try Self.server(folder: folder)
        let photos = try PhotoCollection.load(from: RepositoryFiles.samples.appendingPathComponent("photos")).photos
        let screenshot = folder.url.appendingPathComponent("viewer-gl.png")
        let report = try await Self.viewerCheck(server, screenshot: screenshot, gl: true)
        #expect(report["error"] == nil, "\(report["error"] ?? "")")
        #expect(report["mode"] as? String == "gl")
        #expect(report["style"] as? String == "standard")
        #expect(report["errors"] as? [String] == [], "GL JS's error events: \(report["errors"] ?? "")")
        #expect(report["navigation"] as? Bool == true, "the navigation control with its compass")
        // A drag with the right button turned and tilted the map.
        let turned = try #require(report["afterRightDrag"] as? [String: Double])
        #expect(abs(turned["bearing"] ?? 0) > 5 && (turned["pitch"] ?? 0) > 10, "\(turned)")
        #expect(report["canvas"] as? [Int] == [1000, 700])
        #expect(report["modeLinks"] as? [String] == ["/"], "the page links its Leaflet mode")
        #expect((report["clusters"] as? Int ?? 0) > 0, "cluster bubbles shown")
        let cluster = try #require(report["clickedCluster"] as? [String: Any])
        let expansionZoom = try #require(cluster["expansionZoom"] as? Int)
        #expect(report["zoomAfterClusterClick"] as? Double == Double(expansionZoom - 1))
        #expect(Double(expansionZoom - 1) > (report["zoomBefore"] as? Double ?? 99))
        try Self.expectPhotoPopup(report, photos: photos)
        let kept = try Self.keep(screenshot, as: "viewer-gl-screenshot.png")
        print("GL viewer screenshot: \(kept.path) (\(report["renderer"] ?? "?"))")
    }

    /// A style whose name holds a space and a `%` is a base layer whose tiles load: the page
    /// builds its layers from the TileJSON's percent-encoded URLs.
    @Test(.timeLimit(.minutes(6))) func theViewerLoadsTilesOfAStyleWhoseNameNeedsEncoding() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            Issue.record("Debian's chromium is missing: run scripts/setup.sh")
            return
        }
        let folder = try TemporaryDirectory()
        let server = try Self.server(folder: folder, styleName: "my 100% style")
        let report = try await Self.viewerCheck(server, screenshot: folder.url.appendingPathComponent("viewer.png"))
        #expect(report["error"] == nil, "\(report["error"] ?? "")")
        #expect((report["tilesLoaded"] as? Int ?? 0) > 0, "map tiles loaded")
        #expect(
            (report["layers"] as? [String] ?? []).contains("Standard"), "the layer is titled with the style's own name")
        #expect(report["links"] as? [String] == ["/styles/my%20100%25%20style/style.json"], "\(report["links"] ?? "")")
        #expect(
            server.metrics.count("mapwright_http_requests_total", [("route", "/styles/**"), ("status", "404")]) == 0)
    }

    /// Runs scripts/tools/viewer-check.py against `server` over real HTTP on loopback (`gl`: the
    /// page's GL mode, `?gl`; the default is false); its report.
    static func viewerCheck(_ server: MapTileServer, screenshot: URL, gl: Bool = false) async throws -> [String: Any] {
        try await ServerFixtures.test(server, .live) { client in
            let port = try #require(client.port)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments =
                [
                    RepositoryFiles.root.appendingPathComponent("scripts/tools/viewer-check.py").path
                ] + (gl ? ["--gl", "http://127.0.0.1:\(port)/?gl"] : ["http://127.0.0.1:\(port)/"]) + [screenshot.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return try #require(
                try JSONSerialization.jsonObject(with: data) as? [String: Any],
                "\(String(decoding: data, as: UTF8.self))")
        }
    }

    /// Photo titles and subtitles are text, never HTML: hostile ones show literally in the popup
    /// and run nothing (the page puts server text in with `textContent`).
    @Test(.timeLimit(.minutes(6))) func hostilePhotoTitlesShowAsTextInTheBrowser() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            Issue.record("Debian's chromium is missing: run scripts/setup.sh")
            return
        }
        let titles = [
            #"<script>window.__mapwrightInjected = "script"</script>"#,
            #"<img src=x onerror="window.__mapwrightInjected = 'img'">"#,
            #"Tom & Jerry's "<b>bold</b>" trip"#,
        ]
        var photos = try PhotoCollection.load(from: RepositoryFiles.samples.appendingPathComponent("photos")).photos
        for index in photos.indices {
            photos[index].title = titles[index % titles.count]
            photos[index].subtitle = #"<svg onload="window.__mapwrightInjected = 'svg'"></svg>"#
        }
        let folder = try TemporaryDirectory()
        let report = try await Self.viewerCheck(
            try Self.server(folder: folder, photos: photos), screenshot: folder.url.appendingPathComponent("viewer.png")
        )
        #expect(report["error"] == nil, "\(report["error"] ?? "")")
        let popup = try #require(report["popup"] as? [String: Any])
        let title = try #require(popup["title"] as? String)
        #expect(titles.contains(title), "the popup shows the title as it is written: \(title)")
        #expect((popup["subtitle"] as? String ?? "").contains("<svg onload="), "and the subtitle")
        #expect(report["injected"] is NSNull, "nothing ran: \(report["injected"] ?? "")")
        let elements = try #require(report["elementsInPopup"] as? [String])
        #expect(
            !elements.contains { ["script", "b", "svg"].contains($0) }, "no element came from a title: \(elements)")
        #expect(elements.filter { $0 == "img" }.count == 1, "the thumbnail is the popup's one image: \(elements)")
    }
}
