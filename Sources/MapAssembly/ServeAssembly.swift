import Foundation
import MapComposer
import MapCore
import MapRenderer
public import MapServer
import MapStyle
import MapUtilities
import PhotoLibrary
import PhotoSources
import Tilesets

/// What a tile server serves, as values: the styles and where their data is, the photos and
/// overlays of the photo overlay, how its pins are drawn, and tileset files. Builds the
/// server's content (`ServerContent`) as `mapwright serve` does:
///
/// ```swift
/// let inputs = ServeInputs(styles: ["standard", "dark"], photos: PhotoInputs(sources: ["photos/"]))
/// let styles = try inputs.loadStyles()
/// let content = try inputs.loadContent(styles: styles.styles)
/// server.finishStarting(with: content.content)
/// ```
public struct ServeInputs: Sendable {
    /// The styles to serve, by name or path; none serves `standard`.
    public var styles: [String]
    /// Where the styles and their data are.
    public var map: MapInputs
    public var photos: PhotoInputs
    public var overlays: OverlayInputs
    public var drawing: PhotoDrawing
    /// MBTiles or PMTiles files served as they are.
    public var tilesets: [String]
    /// A folder of SDF glyph fonts served to GL clients under `/fonts` (TileServer GL's layout:
    /// `FOLDER/FONT NAME/0-255.pbf`), which the styles' style.json `glyphs` then name; nil for none.
    public var fonts: String?

    public init(
        styles: [String] = [], map: MapInputs = MapInputs(), photos: PhotoInputs = PhotoInputs(),
        overlays: OverlayInputs = OverlayInputs(),
        drawing: PhotoDrawing = PhotoDrawing(), tilesets: [String] = [], fonts: String? = nil
    ) {
        self.styles = styles
        self.map = map
        self.photos = photos
        self.overlays = overlays
        self.drawing = drawing
        self.tilesets = tilesets
        self.fonts = fonts
    }

    /// The styles' names or paths: ``styles``, or `standard`.
    public var styleNames: [String] { styles.isEmpty ? ["standard"] : styles }

    /// The name a style file is served under (`/styles/NAME/…`): its file name without the
    /// extension, and for a file named `style.json` its folder's name, as OpenMapTiles' style
    /// repositories and TileServer GL's `styles/NAME/style.json` lay them out (so that
    /// `osm-bright/style.json` and `positron/style.json` are `osm-bright` and `positron`).
    static func servedName(ofStyleFile url: URL) -> String {
        let stem = url.deletingPathExtension().lastPathComponent
        guard stem == "style" else { return stem }
        let folder = url.standardizedFileURL.deletingLastPathComponent().lastPathComponent
        return folder.isEmpty || folder == "/" ? stem : folder
    }

    /// The styles, loaded and checked (before a server listens, so a wrong name is one line),
    /// each keyed by its file's bytes and its sources; and what loading them noticed.
    ///
    /// - Throws: ``AssemblyError`` naming the style that could not be loaded, a name given
    ///   twice, or a vector source no style draws.
    public func loadStyles() throws(AssemblyError) -> (styles: [ServedStyle], warnings: [String]) {
        var servedStyles: [ServedStyle] = []
        var warnings: [String] = []
        for name in styleNames {
            let loaded = try map.load(style: name, vectorSourceOnlyIfDrawn: true)
            warnings += loaded.warnings.map(\.description)
            let bytes = (try? Data(contentsOf: map.styleFileURL(named: name))) ?? Data(name.utf8)
            let urlName = MapInputs.namesFile(name) ? Self.servedName(ofStyleFile: URL(fileURLWithPath: name)) : name
            guard !servedStyles.contains(where: { $0.name == urlName }) else {
                throw .invalid(.style, reason: "'\(urlName)' is given twice")
            }
            let style = loaded.style
            servedStyles.append(
                ServedStyle(
                    name: urlName, style: style, data: loaded.data, fileBytes: bytes,
                    extra: (map.rasterSource ?? "") + (style.drawsVectorTiles ? "|" + map.vectorSourceIdentity : "")
                        + Self.spriteHash(of: style)))
        }
        if map.vectorSource != nil, !servedStyles.contains(where: { $0.style.drawsVectorTiles }) {
            let names = servedStyles.map { "'\($0.name)'" }.joined(separator: ", ")
            throw .invalid(
                .vectorSource,
                reason:
                    "no served style draws vector tiles (\(names)); add --style streets (or streets-dark, streets-muted)"
            )
        }
        return (servedStyles, warnings)
    }

    /// `|sprites HASH`: a hash of the bytes of the style's local sprite sheets (index and image,
    /// 1x and 2x), so that tiles drawn with a sheet since replaced are drawn again; empty for a
    /// style without local sheets.
    static func spriteHash(of style: Style) -> String {
        let files = style.sprites.filter(\.url.isFileURL).flatMap(\.sheetFiles)
        guard !files.isEmpty else { return "" }
        var hash = FNV1a()
        for file in files {
            let bytes = (try? Data(contentsOf: file)) ?? Data()
            withUnsafeBytes(of: Int64(bytes.count)) { hash.combine($0) }
            hash.combine(bytes)
        }
        return "|sprites " + hash.hexDigits
    }

    /// The server's content: `styles` (from ``loadStyles()``), the photo overlay and photos
    /// (keyed by a fingerprint of what they draw, worked out once), a feed of the library's
    /// photos when there is a library, the tilesets, the local tileset files the styles draw
    /// from (served as data with the tilesets, ``styleTilesets(of:besides:)``) and the fonts; and
    /// the warnings of reading them.
    ///
    /// - Throws: ``AssemblyError`` naming what could not be loaded; a selection that matches
    ///   no photo fails here, not on a tile.
    public func loadContent(styles servedStyles: [ServedStyle]) throws(AssemblyError) -> (
        content: ServerContent, warnings: [String]
    ) {
        var overlay: ServedOverlay?
        var servedPhotos: ServedPhotos?
        var photoFeed: PhotoFeed?
        var warnings: [String] = []
        // A library is watched: read its version before its photos, so a change made meanwhile is seen.
        var library: PhotoLibrary?
        var loadedVersion: Int64?
        var libraryPhotos: [Photo] = []
        if let path = photos.library {
            let opened: PhotoLibrary
            do throws(PhotoLibraryError) {
                opened = try PhotoLibrary(file: URL(fileURLWithPath: path), create: false)
                loadedVersion = try opened.dataVersion()
            } catch {
                throw .library(error)
            }
            library = opened
            libraryPhotos = try PhotoInputs.photos(in: opened, photographer: photos.photographer)
        }
        // The sources are read once: their photos stay as loaded, the library's come from the library.
        var sourcePhotos: [Photo] = []
        if !photos.sources.isEmpty {
            let loaded = try PhotoInputs(
                sources: photos.sources, photographer: photos.photographer, strict: photos.strict
            ).load(requireLocated: false)
            sourcePhotos = loaded.photos
            warnings += loaded.warnings
        }
        let allPhotos = libraryPhotos.isEmpty ? sourcePhotos : libraryPhotos + sourcePhotos
        if !photos.sources.isEmpty, allPhotos.isEmpty { throw .photoMap(.noLocatedPhotos) }
        if !allPhotos.isEmpty || !overlays.isEmpty || library != nil, let first = servedStyles.first {
            let mapOverlays = try overlays.mapOverlays(look: first.style.mapwright.overlay)
            warnings += mapOverlays.warnings
            let request = drawing.request(
                photos: allPhotos, style: first.style, overlays: mapOverlays.overlays,
                size: ViewSize(width: 256, height: 256), scale: 1)
            let builder = PhotoMapBuilder(data: first.data)
            // Checked now, so a selection that matches nothing fails at start-up, not on a tile.
            do throws(PhotoMapError) { _ = try builder.tileContent(for: request) } catch { throw .photoMap(error) }
            let photosFingerprint = ContentFingerprint.photos(allPhotos)
            // The overlay's tiles are transparent: they do not depend on the styles' sources.
            let fingerprint = ContentFingerprint.text(
                style: styleNames[0], map: MapInputs(stylesDirectory: map.stylesDirectory, locations: map.locations),
                photosFingerprint: photosFingerprint, overlays: overlays, drawn: drawing.fingerprint)
            let contentHash = FNV1a(Array(fingerprint.utf8)).hexDigits
            let template = request
            let style = first.style
            let data = first.data
            // The served overlay and photos for a set of photos; the hash stays the start-up one,
            // so a changed library keeps its cache file and loses only the tiles that changed. The
            // file records which photos its tiles are drawn for: a later start-up with other photos
            // drops them.
            let watched = library != nil
            // `known`: the photos' fingerprint when worked out already.
            let makeContent: @Sendable ([Photo], _ known: String?) -> (overlay: ServedOverlay, photos: ServedPhotos) = {
                photos, known in
                var request = template
                request.photos = photos
                let finalRequest = request
                let drawnFor = watched ? known ?? ContentFingerprint.photos(photos) : nil
                var heatmapStyle: (@Sendable () -> Style)?
                if !photos.isEmpty { heatmapStyle = { PhotoHeatmap.overlayStyle(style, showing: photos) } }
                let overlay = ServedOverlay(
                    style: style, data: data, contentHash: contentHash, drawnFor: drawnFor, heatmapStyle: heatmapStyle
                ) { scale in
                    var scaled = finalRequest
                    scaled.scale = Double(scale)
                    return try builder.tileContent(for: scaled)
                }
                return (overlay, ServedPhotos(request: request))
            }
            (overlay, servedPhotos) = makeContent(allPhotos, photosFingerprint)
            if let library, let loadedVersion {
                let photographer = photos.photographer
                let extra = sourcePhotos
                photoFeed = PhotoFeed(
                    version: { try library.dataVersion() },
                    photos: { try library.photos(byPhotographer: photographer) + extra },
                    content: { makeContent($0, nil) }, loadedVersion: loadedVersion)
            }
        }

        var servedTilesets: [ServedTileset] = []
        for path in tilesets {
            do throws(TilesetsError) { servedTilesets.append(try ServedTileset(url: URL(fileURLWithPath: path))) } catch
            {
                throw .tileset(error)
            }
        }
        var content = ServerContent(
            styles: servedStyles, overlay: overlay, tilesets: servedTilesets, photos: servedPhotos, photoFeed: photoFeed
        )
        // What GL clients read besides: the styles' tileset files as data, the glyph fonts.
        let styleTilesets = Self.styleTilesets(of: servedStyles, besides: servedTilesets)
        content.styleTilesets = styleTilesets.tilesets
        warnings += styleTilesets.warnings
        let servedFonts = try Self.servedFonts(fonts, fontsDirectory: map.locations.existingDirectory(for: .fonts))
        content.fonts = servedFonts.fonts
        warnings += servedFonts.warning.map { [$0] } ?? []
        if let fonts {
            if content.fonts?.names.isEmpty == true {
                warnings.append(
                    "--fonts: '\(fonts)' holds no fonts (folders of glyph ranges such as 'Open Sans Regular/0-255.pbf')"
                )
            }
        }
        return (content, warnings)
    }
}
