import Foundation
import Hummingbird
import MapJSON
import MapStyle
import MapUtilities

/// TileServer GL's style endpoints, for GL clients:
///
/// - `/styles/NAME/style.json`: the style as GL clients read it (``ClientStyle``): its sources,
///   sprite and glyphs pointed at this server;
/// - `/styles/NAME/sprite[@2x].{json,png}`: the files of the style's sprite (the string form of
///   `sprite`, id `default`), and `/styles/NAME/sprite/ID[@2x].{json,png}` those of each sprite of
///   the array form, read from the style's local sprite files (404 for a style without local
///   sprite files, or without the `@2x` files);
/// - `/styles.json`: each style's `{"version", "name", "id", "url"}`, `url` its style.json.
///
/// The `/styles/NAME/…` paths reach ``resource(_:request:content:)`` through the styles route
/// (``TileRoutes``), which hands over every path whose second part ``isResource(_:)``.
struct StyleResourceRoutes {
    let server: MapTileServer

    /// The largest sprite file read: 64 MiB.
    static let maximumSpriteFileBytes = 64 << 20

    func add(to router: Router<ServeRequestContext>) {
        router.get("/styles.json") { request, _ in
            let base = TileJSON.baseURL(request, server.configuration)
            let list = try server.servedContent().styles.map { style -> [String: Any] in
                [
                    "version": 8, "name": style.style.name ?? style.name, "id": style.name,
                    "url": "\(base)/styles/\(URLPathComponent.encoded(style.name))/style.json",
                ]
            }
            return try HTTPCaching.json(list, request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
    }

    /// Whether the part after a style's name names one of these resources: `style.json`, or a
    /// sprite's (`sprite…`), never a tile's zoom or `static`.
    static func isResource(_ part: Substring) -> Bool {
        part == "style.json" || part.hasPrefix("sprite")
    }

    /// `/styles/NAME/style.json` and the sprite files; `parts` are the path's parts after `/styles/`.
    ///
    /// - Throws: 404 for a style not served, a sprite it has no local files for, any other path.
    func resource(_ parts: [Substring], request: Request, content: ServerContent) async throws -> Response {
        let style = try content.style(inPath: parts[0])
        if parts.count == 2, parts[1] == "style.json" {
            var writer = JSONWriter()
            writer.value(
                ClientStyle.document(of: style, content: content, base: TileJSON.baseURL(request, server.configuration))
            )
            return HTTPCaching.response(
                Data(writer.bytes), contentType: "application/json", request: request,
                maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        // sprite[@2x].EXT, or sprite/ID[@2x].EXT.
        let spriteID: String
        let file: SpriteFileName
        switch parts.count {
        case 2:
            guard let name = SpriteFileName(parts[1]), name.base == "sprite" else { throw Self.noSuchSpriteFile }
            (spriteID, file) = ("default", name)
        case 3 where parts[1] == "sprite":
            guard let name = SpriteFileName(parts[2]), let id = URLPathComponent.decodedName(name.base) else {
                throw Self.noSuchSpriteFile
            }
            (spriteID, file) = (id, name)
        default:
            throw Self.noSuchSpriteFile
        }
        guard let sprite = style.style.sprites.first(where: { $0.id == spriteID }), sprite.url.isFileURL else {
            throw ServeError.notFound(
                "style '\(style.name)' has no local sprite\(spriteID == "default" ? "" : " '\(spriteID)'")")
        }
        let url =
            file.isIndex ? sprite.indexURL(pixelRatio: file.pixelRatio) : sprite.imageURL(pixelRatio: file.pixelRatio)
        let data: Data
        do {
            data = try await server.blockingIO { try Data(readingFile: url, maximumBytes: Self.maximumSpriteFileBytes) }
        } catch {
            throw ServeError.notFound(
                "style '\(style.name)' has no \(url.lastPathComponent): \((error as? MapUtilitiesError)?.reason ?? "\(error)")"
            )
        }
        return HTTPCaching.response(
            data, contentType: file.isIndex ? "application/json" : "image/png", request: request,
            maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
    }

    private static let noSuchSpriteFile = ServeError.notFound(
        "sprite files are /styles/NAME/sprite[@2x].json or .png, or /styles/NAME/sprite/ID[@2x].json or .png")
}

/// A sprite file's name in a URL, `BASE[@2x].json` or `BASE[@2x].png`.
struct SpriteFileName: Hashable, Sendable {
    /// What comes before `@2x` and the extension: `sprite`, or a sprite's id.
    var base: Substring
    /// 2 for `@2x`, else 1.
    var pixelRatio: Double
    /// Whether it is the index (`.json`) rather than the image (`.png`).
    var isIndex: Bool

    /// Reads a file name; nil for another extension.
    init?(_ name: Substring) {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...] {
        case "json": isIndex = true
        case "png": isIndex = false
        default: return nil
        }
        base = name[..<dot]
        pixelRatio = base.hasSuffix("@2x") ? 2 : 1
        if pixelRatio == 2 { base = base.dropLast(3) }
    }
}
