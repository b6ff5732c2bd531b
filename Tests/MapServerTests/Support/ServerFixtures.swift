import Foundation
import Hummingbird
import HummingbirdTesting
import ImageCodec
import Logging
import MapComposer
import MapCore
import MapData
import MapRenderer
import MapStyle
import MapTestSupport
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import MapServer

/// Servers made for the tests: a one-colour style (fast to render) or the real standard style,
/// a cache in a temporary folder, small metatiles.
enum ServerFixtures {
    /// A style whose background is one colour, as a style file's bytes.
    static func colourStyleJSON(_ hex: String) -> Data {
        Data(
            """
            {"version": 8, "name": "plain \(hex)", "sources": {},
             "layers": [{"id": "background", "type": "background", "paint": {"background-color": "\(hex)"}}]}
            """.utf8)
    }

    static func colourStyle(_ hex: String, name: String = "plain") throws -> ServedStyle {
        let bytes = colourStyleJSON(hex)
        let style = try Style.parse(bytes, file: "\(name).json").style
        return ServedStyle(
            name: name, style: style, data: MapData(basemapDirectory: RepositoryFiles.basemap), fileBytes: bytes)
    }

    /// The standard style, served as `name`.
    static func standardStyle(name: String = "standard") throws -> ServedStyle {
        let url = RepositoryFiles.styles.appendingPathComponent("standard.json")
        let style = try Style.named("standard", in: RepositoryFiles.styles).style
        return ServedStyle(
            name: name, style: style, data: MapData(basemapDirectory: RepositoryFiles.basemap),
            fileBytes: try Data(contentsOf: url))
    }

    /// Three pins: Madrid, Paris, Rome.
    static func overlay(style: Style) throws -> ServedOverlay {
        let places: [(String, Double, Double)] = [("madrid", 40.4, -3.7), ("paris", 48.85, 2.35), ("rome", 41.9, 12.5)]
        let annotations = try places.map { id, latitude, longitude in
            MapAnnotation(
                id: id, coordinate: try Coordinate(latitude: latitude, longitude: longitude), title: id,
                marker: .pin(style.mapwright.pins.color(forKey: id)))
        }
        return ServedOverlay(
            style: style, data: MapData(basemapDirectory: RepositoryFiles.basemap), contentHash: "three-pins"
        ) { _ in
            MapTileContent(annotations: annotations)
        }
    }

    /// A server configuration for tests. The render time limit is 600 s by default: with the whole
    /// suite running on two cores a render has waited over 60 s, and a test that is not about the
    /// limit must not see its 503 (the test about it sets its own).
    static func configuration(
        threads: Int = 2, queueLimit: Int = 64, timeoutSeconds: Double = 600, metatileSize: Int = 2,
        corsOrigins: [String] = ["*"]
    ) -> ServerConfiguration {
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, cacheMaxAgeSeconds: 600, corsOrigins: corsOrigins, renderThreads: threads,
            renderQueueLimit: queueLimit, renderTimeoutSeconds: timeoutSeconds, metatileSize: metatileSize,
            maximumZoom: 20)
        // A changed library is looked at soon (the tests wait for it).
        configuration.photoCheckIntervalSeconds = 0.02
        // Requests wait for their renders, however busy the machine is; the tests of stand-ins set their own.
        configuration.tileWaitSeconds = 3_600
        configuration.tileAnswerSeconds = 3_600
        return configuration
    }

    /// The servers' logger in the tests: warnings and errors only, so that a failing test's lines
    /// are not lost among a line per request in the suite's output.
    static var logger: Logger {
        var logger = Logger(label: "mapwright.serve")
        logger.logLevel = .warning
        return logger
    }

    /// A ready server with `content`, its cache in `folder`.
    /// `server`'s application as `serve` builds it, answering on NIO's event loops as in production.
    /// - Parameter keptTiles: Whether kept tiles are answered from the request's bytes before the
    ///   router (as `serve` runs); false passes every request to the router. The default is true.
    static func application(_ server: MapTileServer, keptTiles: Bool = true) -> some ApplicationProtocol {
        buildApplication(
            server: server, responder: OnEventLoops(next: buildResponder(server: server)), keptTiles: keptTiles)
    }

    static func server(
        _ content: ServerContent, folder: TemporaryDirectory, configuration: ServerConfiguration = configuration(),
        beforeRender: @escaping @Sendable (MetatileID) -> Void = { _ in }
    ) -> MapTileServer {
        let server = MapTileServer(
            configuration: configuration, cache: TileCache(file: folder.url.appendingPathComponent("cache.mbtiles")),
            logger: logger, beforeRender: beforeRender)
        server.finishStarting(with: content)
        return server
    }

    /// Runs `body` with the test client (the router by default; `.live` over connections as `serve` sets them up,
    /// kept tiles answered in the pipeline), then shuts the server down. The application has
    /// the server's photo library watch, as `serve`'s has, and answers on NIO's event loops, as
    /// in production (``OnEventLoops``); `body` runs on the default executor.
    static func test<Value>(
        _ server: MapTileServer, _ setup: TestingSetup = .router,
        _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        defer { server.shutdown() }
        var application = Application(
            responder: OnEventLoops(next: buildResponder(server: server)),
            server: .mapwright(server: server, serverName: "mapwright"),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0), serverName: "mapwright"))
        application.addServices(PhotoLibraryWatchService(server: server))
        return try await application.test(setup, body)
    }
}

extension TestResponse {
    var data: Data { Data(body.readableBytesView) }
    var text: String { String(decoding: data, as: UTF8.self) }
    func json() throws -> [String: Any] { try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]) }
    func image() throws -> RGBAImage { try RGBAImage(pngData: data) }
}

/// Counts calls from any thread.
final class CallCounter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Records values from any thread, in the order they come.
final class Recorder<Value: Sendable>: Sendable {
    private let recorded = Mutex<[Value]>([])
    /// Records `value`; returns how many values are recorded now.
    @discardableResult
    func append(_ value: Value) -> Int {
        recorded.withLock {
            $0.append(value)
            return $0.count
        }
    }
    var values: [Value] { recorded.withLock { $0 } }
}
