import ArgumentParser
import Foundation
import ImageCodec
import MapComposer
import MapCore
import MapRenderer
import MapStyle
import MapUtilities
import PhotoSources

/// `mapwright render`: draws photos as pins (one with its callout), tracks and shapes over an
/// offline basemap, into a PNG, PDF or SVG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render photos, tracks and shapes over an offline basemap into a PNG, PDF or SVG.",
        discussion: """
            Photo sources: a folder of geotagged JPEGs (searched recursively), Flickr-style JSON, \
            GeoJSON points or CSV. Without a region option the map fits everything it shows.
            """
    )

    @OptionGroup var photoSources: PhotoSourceOptions

    @Option(parsing: .unconditional, help: "The photo whose callout is shown: first, or a photo's id, title, or the start or a part of one title (case ignored).")
    var select: String?

    @Option(name: .customLong("track"), parsing: .unconditionalSingleValue, help: "A GPX 1.1 file whose tracks and routes are drawn as lines.")
    var tracks: [String] = []

    @Option(name: .customLong("overlay"), parsing: .unconditionalSingleValue, help: "A GeoJSON file whose lines and polygons are drawn over the map.")
    var overlays: [String] = []

    @Option(name: .customLong("circle"), parsing: .unconditionalSingleValue, help: "A circle drawn geodesically, as LAT,LON,METERS.")
    var circles: [String] = []

    @Option(name: .customLong("great-circle"), parsing: .unconditionalSingleValue, help: "A great-circle line, as LAT,LON,LAT,LON.")
    var greatCircles: [String] = []

    @Option(parsing: .unconditional, help: "Where overlays sit: above-roads (under labels) or above-labels.")
    var overlayLevel: OverlayLevelArgument = .aboveRoads

    @Flag(help: "Draw each photo's accuracy circle when it is known.")
    var showAccuracy = false

    @Flag(inversion: .prefixedNo, help: "Cluster pins always, or never; by default pins cluster whenever two would overlap.")
    var cluster: Bool?

    @Option(parsing: .unconditional, help: "Which photos may share a cluster: photographer, all or none.")
    var clusterBy: PhotoMapRequest.ClusterGrouping = .photographer

    @OptionGroup var region: RegionOptions

    @Option(parsing: .unconditional, help: "The image size in points, as WIDTHxHEIGHT.", transform: ArgumentValues.size)
    var size: ViewSize = ViewSize(width: 1200, height: 800)

    @Option(parsing: .unconditional, help: "Pixels per point: 1, 2 or 3.")
    var scale: Double = 1

    @Option(parsing: .unconditional, help: "A style name from the styles folder (standard, muted, dark, satellite, hybrid) or a style JSON file.")
    var style: String = "standard"

    @Option(parsing: .unconditional, help: "Imagery for the satellite and hybrid styles: a tile URL template with {z}, {x} and {y} (also {s}, {r}) or an .mbtiles file.")
    var rasterSource: String?

    @Option(parsing: .unconditional, help: "The folder of named styles; by default $MAPWRIGHT_DATA/Styles, then the installed, user and checkout data (README: Data and caches).")
    var stylesDirectory: String?

    @Option(parsing: .unconditional, help: "The folder holding the bundled basemap; by default $MAPWRIGHT_DATA/Tiles/basemap, then the installed, user and checkout data.")
    var basemapDirectory: String?

    @Option(parsing: .unconditional, help: "The colour of every pin: red, green, purple or a hex colour; by default each photographer gets one.")
    var pinColor: String?

    @Option(parsing: .unconditional, help: "A PNG drawn as every marker instead of a pin (@2x: 64x64 pixels is 32x32 points), anchored at its bottom centre.")
    var markerImage: String?

    @Option(name: [.short, .long], parsing: .unconditional, help: "The output file: .png, .pdf or .svg.")
    var output: String = "map.png"

    @Option(parsing: .unconditional, help: "PNG compression level, 0 (fastest) to 9 (smallest).")
    var compression: Int = 6

    @Flag(help: "Write an 8-bit palette PNG: smaller, with at most 256 colours.")
    var palette = false

    func validate() throws {
        guard [1.0, 2, 3].contains(scale) else { throw ValidationError("--scale: \(scale) is not 1, 2 or 3") }
        let pixels = (width: Int((size.width * scale).rounded()), height: Int((size.height * scale).rounded()))
        guard pixels.width > 0, pixels.height > 0 else {
            throw ValidationError("--size: \(pixels.width)x\(pixels.height) pixels is empty: each side needs at least one pixel")
        }
        let limit = Double(MapSnapshotter.maximumPixelsPerSide)
        guard size.width * scale <= limit, size.height * scale <= limit else {
            throw ValidationError(
                "--size: \(Int(size.width * scale))x\(Int(size.height * scale)) pixels is larger than \(Int(limit)) per side")
        }
        guard (0...9).contains(compression) else { throw ValidationError("--compression: \(compression) is not in 0...9") }
        let format = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard ["png", "pdf", "svg"].contains(format) else {
            throw ValidationError("--output: '\(output)' must end in .png, .pdf or .svg")
        }
        _ = try region.choice()
        for circle in circles { _ = try ArgumentValues.circle(circle) }
        for line in greatCircles { _ = try ArgumentValues.greatCircle(line) }
        if let pinColor { _ = try RenderCommand.pinColor(pinColor) }
    }

    func run() throws {
        let style = try loadStyle()
        let look = style.mapwright.overlay
        let level = overlayLevel.level

        let photos = try photoSources.load()
        if !photoSources.sources.isEmpty, photos.isEmpty { throw CommandFailure(PhotoMapError.noLocatedPhotos.description, status: 1) }

        var mapOverlays: [MapOverlay] = []
        for path in tracks + overlays {
            let contents = try failure { () throws(PhotoMapError) in
                try OverlayFile.read(URL(fileURLWithPath: path), look: look, level: level)
            }
            if contents.skippedPoints > 0 { Mapwright.warn("\(path): \(contents.skippedPoints) point features are not drawn as overlays") }
            switch contents.skippedSinglePointLines {
            case 0: break
            case 1: Mapwright.warn("\(path): 1 line has a single point and is not drawn")
            case let count: Mapwright.warn("\(path): \(count) lines have a single point and are not drawn")
            }
            mapOverlays += contents.overlays
        }
        for text in circles {
            let circle = try ArgumentValues.circle(text)
            mapOverlays.append(MapOverlay(
                shape: .circle(center: circle.center, radiusMeters: circle.radiusMeters), strokeColor: look.lineColor,
                lineWidthPoints: max(1, look.lineWidth / 2), fillColor: look.fillColor, level: level))
        }
        for text in greatCircles {
            mapOverlays.append(MapOverlay(
                shape: .geodesicPolyline(try ArgumentValues.greatCircle(text)), strokeColor: look.lineColor,
                lineWidthPoints: look.lineWidth, lineDashPattern: [look.lineWidth * 2, look.lineWidth * 1.5], level: level))
        }

        var request = PhotoMapRequest(
            photos: photos, style: style, overlays: mapOverlays, size: size, scale: scale, showsAccuracy: showAccuracy)
        request.selection = select.map { $0 == "first" ? .first : .photo($0) } ?? .none
        request.pinColor = try pinColor.map(RenderCommand.pinColor)
        request.clustering = cluster.map { $0 ? .always : .never } ?? .automatic
        request.clusterGrouping = clusterBy
        if let markerImage {
            request.markerImage = try failure { () throws(ImageCodecError) in try RGBAImage(contentsOf: URL(fileURLWithPath: markerImage)) }
        }
        switch try region.choice() {
        case .fitContent: request.framing = .fitContent
        case .region(let value): request.framing = .region(value)
        case .centerZoom(let center, let zoom): request.framing = .center(center, zoomLevel: zoom)
        case .place(let name): request.framing = .place(name)
        }

        let basemap = try DataLocations.commands.basemapDirectory(
            option: basemapDirectory, needed: style.usesBundledBasemap || { if case .place = request.framing { true } else { false } }())
        let data = MapData(basemapDirectory: basemap)
        var warnings: [PhotoMapWarning] = []
        let options = try failure { () throws(PhotoMapError) in
            try PhotoMapBuilder(data: data).options(for: request, warnings: &warnings)
        }
        for warning in warnings { Mapwright.warn(warning.description) }
        let url = URL(fileURLWithPath: output)
        try failure { () throws(RendererError) in
            try MapSnapshotter(data: data).write(options, to: url, compressionLevel: compression, palette: palette)
        }
    }

    /// The style by name from the styles folder, or from a file path; its warnings go to standard error.
    private func loadStyle() throws -> Style {
        let isFile = style.hasSuffix(".json") || style.contains("/")
        let styles = isFile ? nil : try DataLocations.commands.directory(for: .styles, option: stylesDirectory, named: "--styles-directory")
        let loaded = try failure { () throws(StyleError) in
            guard let styles else { return try Style.load(from: URL(fileURLWithPath: style)) }
            return try Style.named(style, in: styles)
        }
        for warning in loaded.warnings { Mapwright.warn(warning.description) }
        var configured = loaded.style
        if let rasterSource {
            do throws(StyleError) {
                configured = try configured.configuringRasterSources(
                    RasterTileLocation(argument: rasterSource, relativeTo: URL(fileURLWithPath: ".")))
            } catch {
                throw CommandFailure("--raster-source: \(error.description)")
            }
        }
        do throws(StyleError) {
            try configured.requireConfiguredRasterSources()
        } catch {
            throw CommandFailure("\(error.description), with --raster-source")
        }
        return configured
    }

    /// Runs `body`, turning its typed error into a one-line failure (exit status 2).
    private func failure<T, E: Error & CustomStringConvertible>(_ body: () throws(E) -> T) throws -> T {
        do { return try body() } catch { throw CommandFailure(error.description) }
    }

    /// MapKit's classic pin colours by name, or any CSS colour.
    static func pinColor(_ text: String) throws -> Color {
        let classic = ["red": "#ff3b30", "green": "#34c759", "purple": "#af52de"]
        do {
            return try Color(css: classic[text.lowercased()] ?? text)
        } catch {
            throw ValidationError("--pin-color: '\(text)' is not red, green, purple or a colour")
        }
    }
}

/// Where `--overlay-level` puts overlays.
enum OverlayLevelArgument: String, ExpressibleByArgument, CaseIterable {
    case aboveRoads = "above-roads"
    case aboveLabels = "above-labels"

    var level: MapOverlay.Level { self == .aboveRoads ? .aboveRoads : .aboveLabels }
}
