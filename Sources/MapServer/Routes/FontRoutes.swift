import Foundation
import Hummingbird
import Logging
import MapUtilities
import VectorTiles

/// TileServer GL's font endpoints, for the `glyphs` of the styles GL clients read
/// (`/styles/NAME/style.json`), from the `serve --fonts` folder and the installed fonts
/// (``ServedFonts``):
///
/// - `/fonts/{fontstack}/{range}.pbf`: a font stack's SDF glyphs for 256 code points. The stack is
///   font names joined by commas, percent-encoded as GL clients write it
///   (`/fonts/Open%20Sans%20Regular,Noto%20Sans%20Regular/0-255.pbf`), or a font whose folder is
///   named as the whole stack (`Open Sans Semibold,Arial Unicode MS Bold/`); a range is `START-END` with
///   START a multiple of 256 and END = START + 255 (else 400). Each name is the folder's font of
///   that name when the folder has one (its file for the range, when it has one), else the
///   installed face of that `"Family Style"` name, whose range is generated as the GL suite's were made
///   it on NIO's blocking thread pool, once however many ask at the same time, and kept (in
///   memory, 16 MiB, and in the `--cache` folder, `<cache>.glyphs/`, when serve keeps one).
///   A stack of one font with the range is that range's bytes as they are; several are combined
///   as TileServer GL combines them (glyph-pbf-composite): each code point's glyph from the first
///   font of the stack that has it (``VectorTiles/GlyphRange/combining(_:name:range:)``). Names
///   neither in the folder nor installed are passed over (OpenMapTiles' `Metropolis Light,Noto
///   Sans Regular` is drawn by Noto Sans Regular); a stack naming none of them is drawn by a
///   fallback face, Noto Sans (else DejaVu Sans) of the weight and slant its first name's last
///   words say (`Metropolis Light` by Noto Sans Light), and is 404 only when neither is
///   installed; a stack whose fonts have no glyphs for the range is 404. `application/x-protobuf`.
/// - `/fonts.json`: the fonts' names, the folder's and the installed faces', sorted, each once,
///   as a JSON array.
///
/// Without a fonts folder or installed fonts both answer 404.
struct FontRoutes {
    let server: MapTileServer

    /// The most fonts read for one stack: styles name two or three.
    static let maximumStackFonts = 16

    func add(to router: Router<ServeRequestContext>) {
        router.get("/fonts.json") { request, _ in
            let fonts = try server.servedContent().fonts
            return try HTTPCaching.json(
                fonts?.allNames ?? [], request: request, maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
        }
        router.get("/fonts/**") { request, context in try await glyphs(request, context) }
    }

    private func glyphs(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let parts = context.parameters.getCatchAll()
        guard let fonts = try server.servedContent().fonts else {
            throw ServeError.notFound("no fonts are served: start the server with --fonts")
        }
        guard parts.count == 2, parts[1].hasSuffix(".pbf") else {
            throw ServeError.notFound("glyphs are /fonts/{fontstack}/{range}.pbf")
        }
        guard let range = GlyphRangeName(parts[1].dropLast(4)) else {
            throw ServeError.badRequest(
                "the glyph range '\(parts[1].dropLast(4))' is not START-END, with START a multiple of 256 and END = START + 255"
            )
        }
        guard let stackText = String(parts[0]).removingPercentEncoding else {
            throw ServeError.badRequest("the font stack '\(parts[0])' is not percent-encoded UTF-8")
        }
        // A folder named as the whole stack (a stack combined beforehand, as GL's render tests keep
        // them) comes first, and answers alone when it has the range.
        var names: [String] = fonts.names.contains(stackText) ? [stackText] : []
        for name in stackText.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
        where !name.isEmpty && !names.contains(name) {
            names.append(name)
        }
        let stack = names
        guard !stack.isEmpty, stack.count <= Self.maximumStackFonts else {
            throw ServeError.badRequest("a font stack names 1 to \(Self.maximumStackFonts) fonts, separated by commas")
        }
        guard fonts.draws(stack) else {
            throw ServeError.notFound("no font named \(stack.map { "'\($0)'" }.joined(separator: " or ")) is served")
        }
        var files: [(font: String, bytes: Data)]
        do {
            files = try await server.blockingIO { [generated = server.generatedGlyphs] in
                try fonts.rangeFiles(of: stack, range: range, generated: generated)
            }
        } catch {
            server.logger.error("fonts: \(error)")
            throw ServeError(.internalServerError, "the glyphs could not be read")
        }
        if files.first?.font == stackText { files = [files[0]] }
        let bytes: Data
        switch files.count {
        case 0:
            throw ServeError.notFound("no font of the stack '\(stackText)' has the glyphs \(range.text)")
        case 1:
            bytes = files[0].bytes
        default:
            do {
                bytes = Data(
                    try GlyphRange.combining(
                        files.map { [UInt8]($0.bytes) }, name: files.map(\.font).joined(separator: ","),
                        range: range.text))
            } catch {
                server.logger.error(
                    "fonts: the glyphs \(range.text) of \(files.map(\.font).joined(separator: ", ")) cannot be read: \(error)"
                )
                throw ServeError(.internalServerError, "the glyphs could not be read")
            }
        }
        return HTTPCaching.response(
            bytes, contentType: "application/x-protobuf", request: request,
            maxAgeSeconds: server.configuration.cacheMaxAgeSeconds)
    }
}
