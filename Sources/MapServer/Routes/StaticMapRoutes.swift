import Foundation
import Hummingbird
import ImageCodec
import MapComposer
import MapCore
import MapData
import MapRenderer
import PhotoSources

/// Static maps and the photos behind them:
///
/// - `/styles/NAME/static/…`: a map of the style, in TileServer GL's and Mapbox's forms (see
///   ``StaticMapAddress``), with the served photos (filtered by `photographer=`), the overlays,
///   and the `marker=` and `path=` of the query;
/// - `/maps/photos.png?size=1200x800&scale=1&style=NAME&photographer=NAME&select=first&padding=0&heatmap=false`:
///   `mapwright render`'s map over HTTP, framed to fit, with `render`'s defaults (1200 × 800
///   points, scale 1, the first style served): the same request gives the same PNG bytes;
/// - `/photos/ID/thumbnail.jpg?size=92`: a photo's square thumbnail (JPEG, `size` 16 to 512
///   pixels, default 92, the callout's 46 points at @2x); `/photos/ID/image`: the photo itself
///   (a local file's bytes, or a redirect to its URL).
///
/// The maps render on the server's render pool, single flight per canonical request, within the
/// render time limit. Bad parameters get one-line 400s.
struct StaticMapRoutes {
    let server: MapTileServer

    func add(to router: Router<ServeRequestContext>) {
        router.get("/maps/photos.png") { request, context in try await photoMap(request, context) }
        router.get("/photos/**") { request, context in try await photoFile(request, context) }
    }

    /// `/styles/NAME/static/FRAMING/SIZE.png`, from the style routes.
    func staticMap(_ style: ServedStyle, parts: [Substring], request: Request, context: ServeRequestContext)
        async throws -> Response
    {
        guard parts.count == 2 else {
            throw ServeError.notFound(
                "static maps are /styles/NAME/static/LON,LAT,ZOOM/WxH.png, …/MINX,MINY,MAXX,MAXY/WxH.png or …/auto/WxH.png"
            )
        }
        let query = try StaticMapQuery.parse { Self.values(request, $0) }
        let address = try StaticMapAddress.parse(framing: String(parts[0]), size: String(parts[1]), query: query)
        return try await render(address, style: style, request: request, context: context)
    }

    private func photoMap(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let content = try server.servedContent()
        let style: ServedStyle
        if let name = Self.values(request, "style").last {
            guard let named = content.style(named: name) else {
                throw ServeError.badRequest("style: no style named '\(name)' is served")
            }
            style = named
        } else {
            guard let first = content.styles.first else { throw ServeError.notFound("no style is served") }
            style = first
        }
        var scale = 1
        if let text = Self.values(request, "scale").last {
            guard let value = Int(text), (1...3).contains(value) else {
                throw ServeError.badRequest("scale: '\(text)' is not 1, 2 or 3")
            }
            scale = value
        }
        var size = ViewSize(width: 1_200, height: 800)
        if let text = Self.values(request, "size").last {
            (size, _) = try StaticMapAddress.parseSize(text + ".png")
        }
        let query = try StaticMapQuery.parse { Self.values(request, $0) }
        let address = StaticMapAddress(framing: .auto, size: size, scale: scale, query: query)
        return try await render(address, style: style, request: request, context: context)
    }

    private func render(_ address: StaticMapAddress, style: ServedStyle, request: Request, context: ServeRequestContext)
        async throws -> Response
    {
        let content = try server.servedContent()
        let photos = content.photos
        let mapRequest = try address.photoMapRequest(style: style.style, photos: photos)
        let thumbnails = photos?.thumbnails ?? ThumbnailCache()
        let key = "static|\(style.name)|\(style.contentHash)|\(address.canonicalText)"
        let output = try await server.render(.image(key), disconnected: context.onClose) {
            let builder = PhotoMapBuilder(data: style.data, thumbnails: thumbnails)
            let options: MapSnapshotOptions
            do throws(PhotoMapError) { options = try builder.options(for: mapRequest) } catch {
                // The builder names `render`'s flags; here they are query parameters.
                var reason = error.description
                if case .nothingToShow = error {
                    reason = "nothing to show: give marker= or path=, a centre or a box, or serve photos"
                }
                if reason.hasPrefix("--select:") { reason = "select:" + reason.dropFirst(9) }
                throw ServeError.badRequest(reason)
            }
            let snapshot = try MapSnapshotter(data: style.data).snapshot(options)
            server.logSkippedData(of: style.data)
            return .image(try snapshot.pngData(palette: false))
        }
        guard case .image(let data) = output else {
            throw ServeError(.internalServerError, "the map could not be rendered")
        }
        server.metrics.increment("mapwright_static_maps_total")
        return HTTPCaching.response(
            data, contentType: "image/png", request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
    }

    /// `/photos/ID/thumbnail.jpg` and `/photos/ID/image`; ids may hold `/` (written `%2F` or not).
    private func photoFile(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let parts = context.parameters.getCatchAll().map { String($0).removingPercentEncoding ?? String($0) }
        guard parts.count >= 2, let action = parts.last else {
            throw ServeError.notFound("photos are /photos/ID/thumbnail.jpg or /photos/ID/image")
        }
        let id = parts.dropLast().joined(separator: "/")
        let content = try server.servedContent()
        guard let photos = content.photos else {
            throw ServeError.notFound("no photos are served (start with --photos)")
        }
        guard let photo = photos.photo(id: id) else { throw ServeError.notFound("no photo with id '\(id)'") }
        switch action {
        case "thumbnail.jpg":
            var pixels = 92
            if let text = Self.values(request, "size").last {
                guard let value = Int(text), (16...512).contains(value) else {
                    throw ServeError.badRequest("size: '\(text)' is not a thumbnail side from 16 to 512 pixels")
                }
                pixels = value
            }
            let local = [photo.thumbnail, photo.image].compactMap { $0 }.first {
                if case .file = $0 { return true }
                return false
            }
            guard case .file(let url)? = local else {
                if case .remote(let url)? = photo.thumbnail ?? photo.image { return Self.redirect(to: url) }
                throw ServeError.notFound("photo '\(id)' has no image")
            }
            let thumbnails = photos.thumbnails
            let side = pixels
            let output = try await server.render(
                .image("thumbnail|\(url.path)|\(pixels)"), disconnected: context.onClose
            ) {
                let thumbnail: Thumbnail
                do throws(PhotoSourceError) { thumbnail = try thumbnails.thumbnail(for: url, pixelSize: side) } catch {
                    throw ServeError.notFound("photo '\(id)': \(error.description)")
                }
                let image = RGBAImage(width: thumbnail.width, height: thumbnail.height, pixels: thumbnail.rgba)
                return .image(try image.jpegData(quality: 85))
            }
            guard case .image(let data) = output else {
                throw ServeError(.internalServerError, "the thumbnail could not be made")
            }
            return HTTPCaching.response(
                data, contentType: "image/jpeg", request: request,
                maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        case "image":
            switch photo.image ?? photo.thumbnail {
            case .remote(let url)?:
                return Self.redirect(to: url)
            case .file(let url)?:
                let data: Data
                do { data = try Data(contentsOf: url, options: .mappedIfSafe) } catch {
                    throw ServeError.notFound("photo '\(id)': its file cannot be read")
                }
                let type =
                    [
                        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "heic": "image/heic",
                        "webp": "image/webp",
                    ][
                        url.pathExtension.lowercased()] ?? "application/octet-stream"
                return HTTPCaching.response(
                    data, contentType: type, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
            case nil:
                throw ServeError.notFound("photo '\(id)' has no image")
            }
        default:
            throw ServeError.notFound("photos are /photos/ID/thumbnail.jpg or /photos/ID/image")
        }
    }

    static func redirect(to url: URL) -> Response {
        Response(status: .found, headers: [.location: url.absoluteString])
    }

    /// A query parameter's values, in order.
    static func values(_ request: Request, _ name: String) -> [String] {
        request.uri.queryParameters.getAll(name).map { String($0) }
    }
}
