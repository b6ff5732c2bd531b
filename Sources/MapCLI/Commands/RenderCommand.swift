public import ArgumentParser
import Foundation
public import MapAssembly
import MapComposer
import MapCore
import MapData
import MapRenderer

/// `mapwright render`: draws photos as pins (one with its callout), tracks and shapes over an
/// offline basemap, into a PNG, PDF or SVG.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render photos, tracks and shapes over an offline basemap into a PNG, PDF or SVG.",
        usage: """
            mapwright render [--photos <path> ...] [--library <file>] [--style <name>]
                             [--center <lat,lon> (--zoom <z> | --span <dlat,dlon>) | --region <r> | --bbox <w,s,e,n> | --place <name>]
                             [<other options>] [-o <file>]   (every option is optional; see below for defaults)
            """,
        discussion: """
            Photo sources: a folder of geotagged JPEGs (searched recursively), Flickr-style JSON, \
            GeoJSON points or CSV. Without a region option the map fits everything it shows.
            """
    )

    @OptionGroup var photoSources: PhotoSourceOptions

    @OptionGroup var overlayOptions: OverlayOptions

    @OptionGroup var drawing: PhotoDrawingOptions

    /// `--cluster` or `--no-cluster`; nil (neither) clusters pins only where two would overlap.
    @Flag var clustering: ClusteringFlag?

    @Flag(
        help: "Draw the photos as a density map of where they were taken (a heatmap under the labels) instead of pins.")
    var heatmap = false

    @OptionGroup var region: RegionOptions

    @Option(
        parsing: .unconditional,
        help:
            "The image size in points, as WIDTHxHEIGHT; pixels are points × --scale, at most 16384 per side. The default is 1200x800.",
        transform: ArgumentValues.size)
    var size: ViewSize = ViewSize(width: 1200, height: 800)

    @Option(parsing: .unconditional, help: "Pixels per point: 1, 2 or 3.")
    var scale: Double = 1

    @OptionGroup var styleOptions: StyleOptions

    @Option(
        parsing: .unconditional,
        help:
            "A PNG drawn as every marker instead of a pin (@2x: 64x64 pixels is 32x32 points), or the name of an image of the style's sprite, anchored at its bottom centre; no larger than the map."
    )
    var markerImage: String?

    @Option(
        name: [.short, .long], parsing: .unconditional,
        help:
            "The output file, whose extension gives its format (.png, .pdf or .svg), or - for standard output (PNG unless --format says otherwise)."
    )
    var output: String = "map.png"

    @Option(
        parsing: .unconditional,
        help: "The output's format: png, pdf or svg. The default is png for -o -, else the output file's extension.")
    var format: OutputFormat?

    /// nil when not given: 6 is used, and only a given level is warned about for PDF and SVG.
    @Option(
        parsing: .unconditional,
        help: "The PNG compression level, from 0 (stored) to 9 (smallest); PNG only. The default is 1, the fastest.")
    var compression: Int?

    @Flag(help: "Write an 8-bit palette PNG: smaller, with at most 256 colours; PNG only.")
    var palette = false

    /// Whether the map goes to standard output (`-o -`) rather than a file.
    var writesToStandardOutput: Bool { output == "-" }

    func validate() throws {
        guard [1.0, 2, 3].contains(scale) else {
            throw ValidationError("--scale: \(ArgumentValues.number(scale)) is not 1, 2 or 3")
        }
        let pixels = (width: Int((size.width * scale).rounded()), height: Int((size.height * scale).rounded()))
        guard pixels.width > 0, pixels.height > 0 else {
            throw ValidationError(
                "--size: \(pixels.width)x\(pixels.height) pixels is empty: each side needs at least one pixel")
        }
        let limit = Double(MapSnapshotter.maximumPixelsPerSide)
        guard size.width * scale <= limit, size.height * scale <= limit else {
            throw ValidationError(
                "--size: \(Int(size.width * scale))x\(Int(size.height * scale)) pixels is larger than \(Int(limit)) per side"
            )
        }
        if let compression, !(0...9).contains(compression) {
            throw ValidationError("--compression: \(compression) is not a level from 0 to 9")
        }
        _ = try outputFormat()
        if case .camera(let camera) = try region.choice() {
            let zoom = camera.zoomLevel(viewportHeightPoints: size.height)
            guard Viewport.zoomLevelRange.contains(zoom) else {
                let option = region.eye != nil ? "--eye" : "--altitude"
                let reason =
                    zoom > Viewport.zoomLevelRange.upperBound
                    ? "so low that the map would be closer than zoom 30: raise the camera"
                    : "so high that the map would be farther than zoom 0: lower the camera"
                throw ValidationError("\(option): \(ArgumentValues.number(camera.altitudeMeters)) m is \(reason)")
            }
        }
        // Only whether it can be read: run() decodes it, once.
        if let markerImage, MarkerImage.isPathLike(markerImage) {
            try OutputPath.checkReadableFile(markerImage, option: "--marker-image")
        }
        // Last, so a bad value is reported even when the output folder is wrong too.
        if !writesToStandardOutput { try OutputPath.checkWritable(output, option: "--output") }
    }

    /// The format written: `--format`, else the output file's extension, else PNG for standard output.
    ///
    /// - Throws: `ValidationError` for an extension that is not .png, .pdf or .svg, or one
    ///   that `--format` contradicts.
    func outputFormat() throws -> OutputFormat {
        if writesToStandardOutput { return format ?? .png }
        guard let byExtension = OutputFormat(rawValue: URL(fileURLWithPath: output).pathExtension.lowercased()) else {
            throw ValidationError("--output: '\(output)' must end in .png, .pdf or .svg, or be - for standard output")
        }
        if let format, format != byExtension {
            throw ValidationError(
                "--format: \(format.rawValue) contradicts the output file '\(output)', which ends in .\(byExtension.rawValue)"
            )
        }
        return byExtension
    }

    /// The options as the assembly takes them.
    func inputs() throws -> RenderInputs {
        let framing: PhotoMapRequest.Framing =
            switch try region.choice() {
            case .fitContent: .fitContent
            case .region(let value): .region(value)
            case .centerZoom(let center, let zoom): .center(center, zoomLevel: zoom)
            case .place(let name): .place(name)
            case .camera(let camera): .camera(camera)
            }
        return RenderInputs(
            style: styleOptions.style, map: styleOptions.inputs, photos: photoSources.inputs,
            overlays: try overlayOptions.inputs(),
            drawing: drawing.drawing(clustering: clustering?.clustering ?? .automatic), framing: framing,
            headingDegrees: region.heading ?? 0, pitchDegrees: region.pitch ?? 0, size: size, scale: scale,
            showsHeatmap: heatmap,
            markerImage: markerImage)
    }

    func run() throws {
        let format = try outputFormat()
        if format != .png {
            let name = format.rawValue.uppercased()
            if compression != nil {
                Mapwright.warn("--compression does nothing for \(name) output: it sets PNG compression")
            }
            if palette { Mapwright.warn("--palette does nothing for \(name) output: it makes palette PNGs") }
        }
        let inputs = try inputs()
        let render = try Mapwright.warning { warnings in try inputs.makeRender(warnings: &warnings) }
        let compressionLevel = compression ?? 1
        if writesToStandardOutput {
            // The map and nothing else.
            let bytes = try render.encoded(format, compressionLevel: compressionLevel, palette: palette)
            do { try FileHandle.standardOutput.write(contentsOf: bytes) } catch {
                throw CommandFailure("--output: cannot write to standard output: \(error.localizedDescription)")
            }
        } else {
            try render.write(to: URL(fileURLWithPath: output), compressionLevel: compressionLevel, palette: palette)
        }
        for warning in render.skippedDataWarnings { Mapwright.warn(warning) }
        Mapwright.keepUntilExit(render.data)
    }
}

/// `--format`: what `render` writes.
typealias OutputFormat = MapRender.Format

extension MapRender.Format: ExpressibleByArgument {}

/// `--cluster` and `--no-cluster`, each with its own help line.
enum ClusteringFlag: String, EnumerableFlag {
    case cluster
    case noCluster

    static func help(for value: ClusteringFlag) -> ArgumentHelp? {
        switch value {
        case .cluster:
            "Cluster pins even where none overlap, as the cluster index groups them at this zoom; by default pins cluster only when two would overlap."
        case .noCluster:
            "Never cluster pins: every photo gets its own pin."
        }
    }

    /// The request's clustering for the flag.
    var clustering: PhotoMapRequest.Clustering { self == .cluster ? .always : .never }
}
