import Foundation
import ImageCodec
import ImageCompare
import MapTestSupport
import Testing

/// Each shipped style as `mapwright serve` gives it to GL clients (`/styles/NAME/style.json`),
/// with no option but the styles and their data (glyphs from the installed fonts), drawn by
/// both GL clients, each compared with `mapwright render` of the same view: central Helsinki
/// (the sample's centre, 60.171634 N 24.944295 E), 512 × 512 pixels, MapLibre zooms 12, 14 and
/// 16, which are `render --zoom` 13, 15 and 17 (render counts 256-point tiles, MapLibre 512).
/// The clients: MapLibre GL JS 5.3 in the viewer's GL mode in Debian's headless chromium (WebGL
/// on SwiftShader, `scripts/tools/gl-capture.py`), and MapLibre Native (PyPI's mapli on Mesa's
/// CPU renderer under Xvfb, `scripts/tools/native-capture.py`) reading the style.json's URL.
///
/// `standard`, `muted` and `dark` reach GL clients as one raster source of the server's own
/// tiles; `streets`, `streets-muted` and `streets-dark` as vector tiles of the Helsinki sample
/// (`--vector-source Samples/helsinki/helsinki.mbtiles`); `satellite` and `hybrid` over imagery
/// that `mapwright tiles export` makes of the `standard` style (no imagery can be downloaded),
/// given as `--raster-source`.
///
/// Pixels are compared as pixelmatch does (``ImageCompare/compare(_:_:options:makeDiffImage:)``,
/// threshold 0.13, anti-aliased pixels not counted); a view passes when the client drew it with
/// no error and at most 5% of pixels differ. The table of every view's share, the clients'
/// drawings, the renders and the diff images are kept in `.build/gl-compare/` for people to look
/// at. One browser and one MapLibre Native draw every view; the whole takes a minute or two
/// (debug build, two cores).
@Suite(.serialized) struct GLStyleComparisonTests {
    /// The shipped styles, in groups served together with the sources they need (serve gives
    /// `--vector-source` and `--raster-source` to every style it serves): the raster ones, the
    /// streets ones over the Helsinki sample, satellite and hybrid over the exported imagery.
    static let groups: [(styles: [String], source: Source)] = [
        (["standard", "muted", "dark"], .none), (["streets", "streets-muted", "streets-dark"], .vector),
        (["satellite", "hybrid"], .imagery),
    ]
    static var styles: [String] { groups.flatMap(\.styles) }

    /// What a group of styles draws besides the basemap.
    enum Source {
        case none, vector, imagery

        /// The options that give it to serve and render.
        func arguments(imagery: URL) -> [String] {
            switch self {
            case .none: return []
            case .vector:
                return [
                    "--vector-source",
                    MapwrightProcess.repository.appendingPathComponent("Samples/helsinki/helsinki.mbtiles").path,
                ]
            case .imagery: return ["--raster-source", imagery.path]
            }
        }
    }
    /// MapLibre zooms.
    static let zooms = [12, 14, 16]
    static let center = (latitude: 60.171634, longitude: 24.944295)
    static let side = 512
    static let threshold = 0.13
    static let allowedShare = 0.05

    /// One view compared.
    struct Row {
        var client: Client
        var style: String
        var zoom: Int
        /// The share of pixels that differ, or nil when the client drew nothing to compare.
        var share: Double?
        var note: String
    }

    /// The GL clients that draw the served styles.
    enum Client: String, CaseIterable {
        /// MapLibre GL JS 5.3 in the viewer's GL mode, in headless chromium (gl-capture.py).
        case glJS = "gl"
        /// MapLibre Native (PyPI's mapli) reading the style.json URLs (native-capture.py).
        case native

        var name: String { self == .glJS ? "GL JS" : "MapLibre Native" }

        /// The client's drawing of the views in `views` into `folder`: its script's report.
        func capture(views: URL, into folder: URL) throws -> Data {
            let scripts = MapwrightProcess.repository.appendingPathComponent("scripts/tools")
            let process = Process()
            switch self {
            case .glJS:
                process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
                process.arguments = [scripts.appendingPathComponent("gl-capture.py").path, views.path, folder.path]
            case .native:
                process.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
                process.arguments = [
                    "-a", try PythonEnvironment.mapLibreNative.python().path,
                    scripts.appendingPathComponent("native-capture.py").path, views.path, folder.path,
                ]
            }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
    }

    /// GL JS's error messages in short: each once, with how many layers or tiles it was said
    /// of (`layers[19].paint.line-dasharray: …` is `line-dasharray: … (1 layer)`).
    static func summary(of errors: [String]) -> String {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for error in errors {
            var message = error.replacingOccurrences(
                of: #"^layers\[\d+\]\.(paint|layout)\."#, with: "", options: .regularExpression)
            message = message.replacingOccurrences(
                of: #"https?://\S+/\d+/\d+/\d+\.\w+"#, with: "TILE", options: .regularExpression)
            if counts[message] == nil { order.append(message) }
            counts[message, default: 0] += 1
        }
        return order.map { "\($0) (\(counts[$0]!)×)" }.joined(separator: "; ")
    }

    @Test(.timeLimit(.minutes(10))) func glClientsDrawEachServedStyleAsRenderDoes() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            Issue.record("Debian's chromium is missing: run scripts/setup.sh")
            return
        }
        let repository = MapwrightProcess.repository
        try #require(
            FileManager.default.fileExists(
                atPath: repository.appendingPathComponent("Tiles/maplibre-gl/maplibre-gl.js").path),
            "MapLibre GL JS is missing: run scripts/setup.sh")
        let folder = try TemporaryDirectory()
        let kept = repository.appendingPathComponent(".build/gl-compare", isDirectory: true)
        try? FileManager.default.removeItem(at: kept)
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)

        // Imagery for satellite and hybrid: the standard style's tiles of the widest view (zoom
        // 12), to zoom 15 (deeper views enlarge them, in both). Where imagery has no tile, render
        // fills in from a shallower one and the server's tiles stay dark: the imagery covers the views.
        let imagery = folder.url.appendingPathComponent("imagery.mbtiles")
        let exported = try MapwrightProcess.run(
            [
                "tiles", "export", "--style", "standard", "--bbox", "24.895,60.147,24.994,60.196", "--zoom", "10-15",
                "-o", imagery.path,
            ], in: folder.url)
        try #require(exported.status == 0, "tiles export: \(exported.standardError)")
        // A server per group, every view in one browser, a page load per style.
        var servers: [ServeCommandTests.RunningServer] = []
        defer { for server in servers { _ = server.stop() } }
        var views: [[String: Any]] = []
        var sources: [String: [String]] = [:]
        for group in Self.groups {
            let arguments = group.source.arguments(imagery: imagery)
            // Metatiles of 2 × 2 tiles: the views need a few tiles of each zoom, not 64.
            let server = try ServeCommandTests.RunningServer(
                group.styles.flatMap { ["--style", $0] } + arguments + ["--metatile", "2"], in: folder.url)
            servers.append(server)
            try await server.waitUntilReady()
            for style in group.styles {
                sources[style] = arguments
                for zoom in Self.zooms {
                    views.append([
                        "url": "http://127.0.0.1:\(server.port)/", "style": style, "zoom": zoom,
                        "center": [Self.center.longitude, Self.center.latitude], "size": [Self.side, Self.side],
                    ])
                }
            }
        }
        // Each client draws every view; render draws each once.
        var drawings: [Client: [String: Any]] = [:]
        for client in Client.allCases {
            let clientViews = views.map { view -> [String: Any] in
                var view = view
                view["file"] = "\(view["style"]!)-\(view["zoom"]!).\(client.rawValue).png"
                return view
            }
            let viewsFile = folder.url.appendingPathComponent("views-\(client.rawValue).json")
            try JSONSerialization.data(withJSONObject: clientViews).write(to: viewsFile)
            let started = Date()
            // Xvfb under `xvfb-run -a` beside other tests' now and then gives no EGL display at
            // first: a client that cannot start is started again, up to three times.
            var data = try client.capture(views: viewsFile, into: kept)
            for _ in 0..<2 where String(decoding: data, as: UTF8.self).contains("cannot start") {
                try await Task.sleep(for: .seconds(2))
                data = try client.capture(views: viewsFile, into: kept)
            }
            var report = try #require(
                try JSONSerialization.jsonObject(with: data) as? [String: Any],
                "\(client.rawValue): \(String(decoding: data, as: UTF8.self))")
            try #require(report["error"] == nil, "\(client.name): \(report["error"] ?? "")")
            report["seconds"] = Date().timeIntervalSince(started)
            drawings[client] = report
        }
        let rendersStarted = Date()
        var rendered: [String: RGBAImage] = [:]
        for view in views {
            let style = try #require(view["style"] as? String)
            let zoom = try #require(view["zoom"] as? Int)
            let file = kept.appendingPathComponent("\(style)-\(zoom).render.png")
            let render = try MapwrightProcess.run(
                [
                    "render", "--style", style, "--center", "\(Self.center.latitude),\(Self.center.longitude)",
                    "--zoom", "\(zoom + 1)", "--size", "\(Self.side)x\(Self.side)", "-o", file.path,
                ] + (sources[style] ?? []), in: folder.url)
            try #require(render.status == 0, "render \(style) \(zoom + 1): \(render.standardError)")
            rendered["\(style)-\(zoom)"] = try RGBAImage(pngData: Data(contentsOf: file))
        }
        let renderSeconds = Date().timeIntervalSince(rendersStarted)

        var rows: [Row] = []
        for client in Client.allCases {
            for view in try #require(drawings[client]?["views"] as? [[String: Any]]) {
                let style = try #require(view["style"] as? String)
                let zoom = try #require(view["zoom"] as? Int)
                let errors = Self.summary(of: view["errors"] as? [String] ?? [])
                guard let file = view["file"] as? String, let expected = rendered["\(style)-\(zoom)"] else {
                    rows.append(
                        Row(
                            client: client, style: style, zoom: zoom, share: nil,
                            note: "\(view["error"] ?? "not drawn"): \(errors)"))
                    continue
                }
                let actual = try RGBAImage(pngData: Data(contentsOf: URL(fileURLWithPath: file)))
                let result = try compare(
                    expected, actual, options: DiffOptions(threshold: Self.threshold), makeDiffImage: true)
                if let diff = result.diffImage {
                    try diff.pngData().write(
                        to: kept.appendingPathComponent("\(style)-\(zoom).\(client.rawValue).diff.png"))
                }
                rows.append(
                    Row(
                        client: client, style: style, zoom: zoom, share: result.ratio,
                        note: errors.isEmpty ? "" : "errors: \(errors)"))
            }
        }

        var table =
            "| client | style | MapLibre zoom | render --zoom | pixels differing | note |\n|---|---|---|---|---|---|\n"
        for row in rows {
            let share = row.share.map { String(format: "%.2f%%", $0 * 100) } ?? "—"
            table += "| \(row.client.name) | \(row.style) | \(row.zoom) | \(row.zoom + 1) | \(share) | \(row.note) |\n"
        }
        try Data(table.utf8).write(to: kept.appendingPathComponent("table.md"))
        let timings = Client.allCases.map { client in
            "\(drawings[client]?["renderer"] ?? client.name) drew in \(Int(drawings[client]?["seconds"] as? Double ?? 0)) s"
        }
        print(
            "\(timings.joined(separator: ", ")), render in \(Int(renderSeconds)) s; threshold \(Self.threshold):\n\(table)"
        )
        #expect(rows.count == Client.allCases.count * Self.styles.count * Self.zooms.count)
        for row in rows {
            #expect(row.share != nil, "\(row.client.name): \(row.style) at zoom \(row.zoom): \(row.note)")
            #expect(
                row.share == nil || row.note.isEmpty,
                "\(row.client.name): \(row.style) at zoom \(row.zoom): \(row.note)")
            if let share = row.share {
                #expect(
                    share <= Self.allowedShare,
                    "\(row.client.name): \(row.style) at zoom \(row.zoom): \(String(format: "%.2f%%", share * 100)) of pixels differ \(row.note)"
                )
            }
        }
    }
}
