import Foundation
import Hummingbird
import MapCore
import MapJSON
import MapRenderer

/// The web viewer and what it loads from the server besides tiles and annotations:
///
/// - `/`: the page (``ViewerPage``);
/// - `/leaflet/FILE`: Leaflet's files from ``ServerConfiguration/leafletDirectory`` (Debian's
///   libjs-leaflet), regular files only, names checked part by part: no `..`, no hidden files, no
///   listings;
/// - `/maplibre-gl/FILE`: MapLibre GL JS's files from ``ServerConfiguration/maplibreDirectory``
///   (`maplibre-gl.js`, `maplibre-gl.css`, `LICENSE.txt`), checked the same way;
/// - `/overlays/tracks.json`: the overlay's tracks and shapes as GeoJSON (lines as
///   `LineString`, areas as `Polygon`; circles are left to the overlay tiles).
struct ViewerRoutes {
    let server: MapTileServer

    func add(to router: Router<ServeRequestContext>) {
        router.get("/") { request, _ in
            HTTPCaching.response(
                Data(ViewerPage.html.utf8), contentType: "text/html; charset=utf-8", request: request,
                maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        router.get("/leaflet/**") { request, context in
            let directory = server.configuration.leafletDirectory
            return try libraryFile(
                request, context, library: "Leaflet", directory: directory, mainFile: "leaflet.js",
                missing: "Leaflet is not installed at \(directory.path): run scripts/setup.sh (Debian's libjs-leaflet)")
        }
        router.get("/maplibre-gl/**") { request, context in
            let directory = server.configuration.maplibreDirectory
            return try libraryFile(
                request, context, library: "MapLibre GL JS", directory: directory, mainFile: "maplibre-gl.js",
                missing: directory.map { "MapLibre GL JS is not installed at \($0.path): run scripts/setup.sh" }
                    ?? "MapLibre GL JS is not installed (no data folder holds Tiles/maplibre-gl/): run scripts/setup.sh"
            )
        }
    }

    static let contentTypes = [
        "js": "application/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "png": "image/png",
        "svg": "image/svg+xml", "map": "application/json", "txt": "text/plain; charset=utf-8",
    ]

    /// A file of a JavaScript library the page loads, from `directory`: regular files of a known
    /// type only, each part of the path checked (no `..`, hidden files, encoded slashes or
    /// listings); a one-line 404 saying `missing` when `directory` lacks `mainFile`.
    private func libraryFile(
        _ request: Request, _ context: ServeRequestContext, library: String, directory: URL?, mainFile: String,
        missing: String
    ) throws -> Response {
        let parts = context.parameters.getCatchAll().map(String.init)
        guard !parts.isEmpty,
            parts.allSatisfy({ part in
                !part.isEmpty && !part.hasPrefix(".") && !part.contains("/") && !part.contains("\\")
                    && !part.contains("%") && !part.contains("\0")
            })
        else { throw ServeError.notFound("no such \(library) file") }
        guard let directory, FileManager.default.fileExists(atPath: directory.appendingPathComponent(mainFile).path)
        else { throw ServeError.notFound(missing) }
        let url = parts.reduce(directory) { $0.appendingPathComponent($1) }
        guard let type = Self.contentTypes[url.pathExtension.lowercased()],
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let data = try? Data(contentsOf: url)
        else { throw ServeError.notFound("no \(library) file '\(parts.joined(separator: "/"))'") }
        return HTTPCaching.response(
            data, contentType: type, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
    }

    /// `/overlays/tracks.json`.
    func tracks(_ request: Request) async throws -> Response {
        let content = try await server.overlayContent()
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("type")
        writer.string("FeatureCollection")
        writer.key("features")
        writer.beginArray()
        func positions(_ coordinates: [Coordinate]) {
            writer.beginArray()
            for coordinate in coordinates {
                writer.beginArray()
                writer.number(coordinate.longitude, decimalPlaces: 7)
                writer.number(coordinate.latitude, decimalPlaces: 7)
                writer.endArray()
            }
            writer.endArray()
        }
        for overlay in content.overlays {
            let type: String
            switch overlay.shape {
            case .polyline, .geodesicPolyline: type = "LineString"
            case .polygon: type = "Polygon"
            case .waypoint: type = "Point"
            case .circle: continue
            }
            writer.beginObject()
            writer.key("type")
            writer.string("Feature")
            writer.key("geometry")
            writer.beginObject()
            writer.key("type")
            writer.string(type)
            writer.key("coordinates")
            switch overlay.shape {
            case .polyline(let coordinates): positions(coordinates)
            case .geodesicPolyline(let coordinates):
                // The great circle the tiles draw, not the straight line between its ends.
                positions(
                    zip(coordinates, coordinates.dropFirst()).flatMap { start, end in
                        (try? start.greatCirclePath(to: end, maximumSegmentMeters: 50_000)) ?? [start, end]
                    })
            case .polygon(let exterior, let holes):
                writer.beginArray()
                for ring in [exterior] + holes { positions(ring) }
                writer.endArray()
            case .waypoint(let coordinate, _):
                writer.beginArray()
                writer.number(coordinate.longitude, decimalPlaces: 7)
                writer.number(coordinate.latitude, decimalPlaces: 7)
                writer.endArray()
            case .circle: break
            }
            writer.endObject()
            writer.key("properties")
            writer.beginObject()
            if case .waypoint(_, let name?) = overlay.shape {
                writer.key("name")
                writer.string(name)
            }
            writer.endObject()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return HTTPCaching.response(
            Data(writer.bytes), contentType: "application/geo+json", request: request,
            maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
    }
}
