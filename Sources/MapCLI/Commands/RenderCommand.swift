import ArgumentParser
import Foundation
import ImageCodec
import MapComposer
import MapCore
import MapRenderer
import MapStyle
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

    @Option(help: "The photo whose callout is shown: first, or a photo's id or title.")
    var select: String?

    @Option(name: .customLong("track"), help: "A GPX 1.1 file whose tracks and routes are drawn as lines.")
    var tracks: [String] = []

    @Option(name: .customLong("overlay"), help: "A GeoJSON file whose lines and polygons are drawn over the map.")
    var overlays: [String] = []

    @Option(name: .customLong("circle"), help: "A circle drawn geodesically, as LAT,LON,METERS.")
    var circles: [String] = []

    @Option(name: .customLong("great-circle"), help: "A great-circle line, as LAT,LON,LAT,LON.")
    var greatCircles: [String] = []

    @Option(help: "Where overlays sit: above-roads (under labels) or above-labels.")
    var overlayLevel: OverlayLevelArgument = .aboveRoads

    @Flag(help: "Draw each photo's accuracy circle when it is known.")
    var showAccuracy = false

    @Flag(inversion: .prefixedNo, help: "Cluster pins always, or never; by default pins cluster whenever two would overlap.")
    var cluster: Bool?

    @Option(help: "Which photos may share a cluster: photographer, all or none.")
    var clusterBy: PhotoMapRequest.ClusterGrouping = .photographer

    @OptionGroup var region: RegionOptions

    @Option(help: "The image size in points, as WIDTHxHEIGHT.", transform: ArgumentValues.size)
    var size: ViewSize = ViewSize(width: 1200, height: 800)

    @Option(help: "Pixels per point: 1, 2 or 3.")
    var scale: Double = 1

    @Option(help: "A style name from the styles folder (standard, muted, dark, satellite, hybrid) or a style JSON file.")
    var style: String = "standard"

    @Option(help: "Imagery for the satellite and hybrid styles: a tile URL template with {z}, {x} and {y} (also {s}, {r}) or an .mbtiles file.")
    var rasterSource: String?

    @Option(help: "The folder of named styles.")
    var stylesDirectory: String = "Styles"

    @Option(help: "The folder holding the bundled basemap.")
    var basemapDirectory: String = "Tiles/basemap"

    @Option(help: "The colour of every pin: red, green, purple or a hex colour; by default each photographer gets one.")
    var pinColor: String?

    @Option(help: "A PNG drawn as every marker instead of a pin (@2x: 64x64 pixels is 32x32 points), anchored at its bottom centre.")
    var markerImage: String?

    @Option(name: [.short, .long], help: "The output file: .png, .pdf or .svg.")
    var output: String = "map.png"

    @Option(help: "PNG compression level, 0 (fastest) to 9 (smallest).")
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
        for circle in circles { _ = try RenderCommand.circle(circle) }
        for line in greatCircles { _ = try RenderCommand.greatCircle(line) }
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
            let circle = try RenderCommand.circle(text)
            mapOverlays.append(MapOverlay(
                shape: .circle(center: circle.center, radiusMeters: circle.radiusMeters), strokeColor: look.lineColor,
                lineWidthPoints: max(1, look.lineWidth / 2), fillColor: look.fillColor, level: level))
        }
        for text in greatCircles {
            mapOverlays.append(MapOverlay(
                shape: .geodesicPolyline(try RenderCommand.greatCircle(text)), strokeColor: look.lineColor,
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

        let data = MapData(basemapDirectory: URL(fileURLWithPath: basemapDirectory))
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
        let loaded = try failure { () throws(StyleError) in
            if style.hasSuffix(".json") || style.contains("/") {
                return try Style.load(from: URL(fileURLWithPath: style))
            }
            return try Style.named(style, in: URL(fileURLWithPath: stylesDirectory))
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

    /// Parses `--circle LAT,LON,METERS`.
    static func circle(_ text: String) throws -> (center: Coordinate, radiusMeters: Double) {
        let numbers = try ArgumentValues.doubles(text, count: 3, format: "--circle LAT,LON,METERS")
        guard numbers[2] > 0 else { throw ValidationError("--circle: radius \(numbers[2]) m is not positive") }
        do {
            return (try Coordinate(latitude: numbers[0], longitude: numbers[1]), numbers[2])
        } catch {
            throw ValidationError("--circle: \(error)")
        }
    }

    /// Parses `--great-circle LAT,LON,LAT,LON`: the line's two ends.
    static func greatCircle(_ text: String) throws -> [Coordinate] {
        let numbers = try ArgumentValues.doubles(text, count: 4, format: "--great-circle LAT,LON,LAT,LON")
        do {
            return [try Coordinate(latitude: numbers[0], longitude: numbers[1]), try Coordinate(latitude: numbers[2], longitude: numbers[3])]
        } catch {
            throw ValidationError("--great-circle: \(error)")
        }
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
