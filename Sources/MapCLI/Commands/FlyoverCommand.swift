public import ArgumentParser
import Foundation
import MapAssembly
public import MapComposer
import MapCore
import MapUtilities
import Synchronization

/// `mapwright flyover`: an animation of the camera flying from one region to another (rising,
/// travelling over, descending), over the basemap with photos and overlays, written as an
/// animated PNG, an MP4 video or a folder of frames, with each frame's camera in JSON.
struct FlyoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyover",
        abstract: "Render a fly-over from one region to another: an animated PNG, an MP4 or a folder of frames.",
        discussion: """
            The camera rises from --from, travels over and descends onto --to along van Wijk and \
            Nuij's smooth zoom-and-pan path (as MapLibre's flyTo), turning and tilting on the way when \
            the ends' headings or pitches differ. A region is a place name (a country or \
            state/province from the basemap, such as France), LAT,LON@ZOOM, LAT,LON,LATDELTA,LONDELTA \
            (as render --region) or bbox:WEST,SOUTH,EAST,NORTH (as render --bbox). Frames render on \
            every core; each frame's camera is written as JSON beside the output.
            """
    )

    @OptionGroup var photoSources: PhotoSourceOptions

    @OptionGroup var overlayOptions: OverlayOptions

    @Option(
        parsing: .unconditional,
        help:
            "Where the flight starts: a place name, LAT,LON@ZOOM, LAT,LON,LATDELTA,LONDELTA or bbox:WEST,SOUTH,EAST,NORTH."
    )
    var from: String

    @Option(parsing: .unconditional, help: "Where the flight ends, in the same forms as --from.")
    var to: String

    @Option(
        parsing: .unconditional,
        help: "The heading at the start, in degrees clockwise from north. The default is 0, north up.")
    var fromHeading: Double?

    @Option(
        parsing: .unconditional,
        help: "The pitch at the start, in degrees from looking straight down, 0 to 80. The default is 0.")
    var fromPitch: Double?

    @Option(parsing: .unconditional, help: "The heading at the end. The default is the start's.")
    var toHeading: Double?

    @Option(parsing: .unconditional, help: "The pitch at the end, 0 to 80. The default is the start's.")
    var toPitch: Double?

    @Option(
        parsing: .unconditional,
        help: "How many frames, 2 to 10000, the ends included. The default follows from --duration.")
    var frames: Int?

    @Option(
        parsing: .unconditional,
        help:
            "How long the flight lasts, in seconds (up to 600). The default is MapLibre's flyTo duration for the distance, 1 to 30 s."
    )
    var duration: Double?

    @Option(parsing: .unconditional, help: "Frames a second, more than 0 and at most 120. The default is 30.")
    var fps: Double = 30

    @Option(
        parsing: .unconditional, help: "How the camera speeds up and slows down: ease (MapLibre's default) or linear.")
    var easing: Flyover.Easing = .ease

    @OptionGroup var drawing: PhotoDrawingOptions

    /// `--cluster` or `--no-cluster`; nil clusters pins where two would overlap.
    @Flag var clustering: ClusteringFlag?

    @Option(
        parsing: .unconditional,
        help: "The frame size in points, as WIDTHxHEIGHT, at most 4096 pixels a side. The default is 640x480.",
        transform: ArgumentValues.size)
    var size: ViewSize = ViewSize(width: 640, height: 480)

    @Option(parsing: .unconditional, help: "Pixels per point: 1, 2 or 3.")
    var scale: Double = 1

    @OptionGroup var styleOptions: StyleOptions

    @Option(
        parsing: .unconditional,
        help:
            "A PNG drawn as every marker instead of a pin (@2x: 64x64 pixels is 32x32 points), or the name of an image of the style's sprite, anchored at its bottom centre; no larger than a frame."
    )
    var markerImage: String?

    @Option(
        name: [.short, .long], parsing: .unconditional,
        help:
            "The animation: OUT.png (an animated PNG), OUT.mp4 (a video; needs ffmpeg) or OUT_DIR/ (numbered PNG frames)."
    )
    var output: String

    @Option(
        parsing: .unconditional,
        help:
            "Where the frames' cameras go, as JSON. The default is OUT.cameras.json beside the output, or cameras.json in a folder of frames."
    )
    var cameras: String?

    /// The largest frame side, in pixels: 4096.
    static let maximumSidePixels = 4096

    func validate() throws {
        guard [1.0, 2, 3].contains(scale) else {
            throw ValidationError("--scale: \(ArgumentValues.number(scale)) is not 1, 2 or 3")
        }
        let pixels = (width: Int((size.width * scale).rounded()), height: Int((size.height * scale).rounded()))
        guard pixels.width >= 2, pixels.height >= 2, pixels.width <= Self.maximumSidePixels,
            pixels.height <= Self.maximumSidePixels
        else {
            throw ValidationError(
                "--size: \(pixels.width)x\(pixels.height) pixels is not from 2 to \(Self.maximumSidePixels) a side")
        }
        if frames != nil, duration != nil { throw ValidationError("choose one of --frames and --duration") }
        if let frames, !(2...10_000).contains(frames) {
            throw ValidationError("--frames: \(frames) is not a frame count from 2 to 10000")
        }
        if let duration, !(duration.isFinite && duration > 0 && duration <= 600) {
            throw ValidationError(
                "--duration: \(ArgumentValues.number(duration)) is not a number of seconds above 0 and at most 600")
        }
        guard fps.isFinite, fps > 0, fps <= 120 else {
            throw ValidationError("--fps: \(ArgumentValues.number(fps)) is not a frame rate above 0 and at most 120")
        }
        for (option, value) in [("--from-heading", fromHeading), ("--to-heading", toHeading)] {
            if let value, !value.isFinite { throw ValidationError("\(option): \(value) is not a number of degrees") }
        }
        for (option, value) in [("--from-pitch", fromPitch), ("--to-pitch", toPitch)] {
            if let value, !(value.isFinite && (0...Camera.maximumPitchDegrees).contains(value)) {
                throw ValidationError(
                    "\(option): \(ArgumentValues.number(value)) is not from 0 to \(Int(Camera.maximumPitchDegrees)) degrees (0 looks straight down)"
                )
            }
        }
        _ = try FlyoverEnd.parse(from, option: "--from")
        _ = try FlyoverEnd.parse(to, option: "--to")
        // Only whether it can be read: run() decodes it, once.
        if let markerImage, MarkerImage.isPathLike(markerImage) {
            try OutputPath.checkReadableFile(markerImage, option: "--marker-image")
        }
        try checkOutput()
        if let cameras { try OutputPath.checkWritable(cameras, option: "--cameras") }
    }

    /// Checks `--output`: a folder (ending in `/` or existing) whose parent exists, or a `.png`
    /// or `.mp4` file in a folder that can be written; a video needs ffmpeg.
    private func checkOutput() throws {
        let target = FlyoverWriter.Output(path: output)
        switch target {
        case .frames(let url):
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
                guard access(url.path, W_OK | X_OK) == 0 else {
                    throw ValidationError("--output: cannot write frames into '\(output)': the folder is not writable")
                }
            } else {
                let parent = url.deletingLastPathComponent()
                guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isFolder), isFolder.boolValue
                else {
                    throw ValidationError(
                        "--output: cannot make the folder '\(output)': \(parent.displayPath) does not exist")
                }
                guard access(parent.path, W_OK | X_OK) == 0 else {
                    throw ValidationError(
                        "--output: cannot make the folder '\(output)': \(parent.displayPath) is not writable")
                }
            }
        case .animatedPNG(let url):
            guard ["png", "apng"].contains(url.pathExtension.lowercased()) else {
                throw ValidationError(
                    "--output: '\(output)' must end in .png (an animated PNG) or .mp4 (a video), or be a folder ending in / (numbered frames)"
                )
            }
            try OutputPath.checkWritable(output, option: "--output")
        case .video:
            try OutputPath.checkWritable(output, option: "--output")
            guard FlyoverWriter.ffmpegExecutable() != nil else {
                throw ValidationError("--output: " + PhotoMapError.videoEncoderMissing(path: output).description)
            }
        }
    }

    /// The options as the assembly takes them: each end's heading and pitch default to the start's.
    func inputs() throws -> FlyoverInputs {
        let ends = (from: try FlyoverEnd.parse(from, option: "--from"), to: try FlyoverEnd.parse(to, option: "--to"))
        return FlyoverInputs(
            style: styleOptions.style, map: styleOptions.inputs, photos: photoSources.inputs,
            overlays: try overlayOptions.inputs(),
            drawing: drawing.drawing(clustering: clustering?.clustering ?? .automatic),
            from: .init(framing: ends.from.framing, headingDegrees: fromHeading ?? 0, pitchDegrees: fromPitch ?? 0),
            to: .init(
                framing: ends.to.framing, headingDegrees: toHeading ?? fromHeading ?? 0,
                pitchDegrees: toPitch ?? fromPitch ?? 0),
            frameCount: frames, durationSeconds: duration, framesPerSecond: fps, easing: easing, size: size,
            scale: scale,
            markerImage: markerImage)
    }

    func run() throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let inputs = try inputs()
        let flight = try Mapwright.warning { warnings in try inputs.makeFlyover(warnings: &warnings) }
        let target = FlyoverWriter.Output(path: output)
        let progress = ProgressBar(total: flight.frameCount, label: "frames")
        let camerasURL = try Mapwright.warning { warnings in
            // The bar goes before what the frames' drawing noticed is printed.
            defer { progress.clear() }
            return try flight.write(
                to: target, cameras: cameras.map { URL(fileURLWithPath: $0) }, progress: progress.update,
                warnings: &warnings)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        print(
            "wrote \(flight.frameCount) frames of \(flight.pixelWidth)x\(flight.pixelHeight) (\(ArgumentValues.number((Double(flight.frameCount) / fps * 100).rounded() / 100)) s at "
                + "\(ArgumentValues.number(fps)) fps) to \(target.url.displayPath), cameras to \(camerasURL.displayPath) "
                + "in \(String(format: "%.1f", seconds)) s")
    }
}

extension Flyover.Easing: ExpressibleByArgument {}

/// One end of a fly-over as written after `--from` or `--to`.
struct FlyoverEnd: Equatable {
    var framing: PhotoMapRequest.Framing

    /// Parses `LAT,LON@ZOOM`, `LAT,LON,LATDELTA,LONDELTA`, `bbox:WEST,SOUTH,EAST,NORTH` or a place name.
    ///
    /// - Throws: `ValidationError` naming the option, for a value that looks like numbers but
    ///   is none of the forms, or is out of range.
    static func parse(_ text: String, option: String) throws -> FlyoverEnd {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("bbox:") {
            return FlyoverEnd(
                framing: .region(try ArgumentValues.boundingBox(String(trimmed.dropFirst(5)), option: option)))
        }
        if let at = trimmed.firstIndex(of: "@") {
            let center = try ArgumentValues.named(option) { try ArgumentValues.coordinate(String(trimmed[..<at])) }
            let zoomText = trimmed[trimmed.index(after: at)...]
            guard let zoom = Double(zoomText), zoom.isFinite, Viewport.zoomLevelRange.contains(zoom) else {
                throw ValidationError(
                    "\(option): ZOOM '\(zoomText)' in '\(text)' is not a zoom level from 0 to 30 (the form is LAT,LON@ZOOM, e.g. 48.85,2.35@11)"
                )
            }
            return FlyoverEnd(framing: .center(center, zoomLevel: zoom))
        }
        // Numbers are a region; anything else names a place.
        let looksNumeric = trimmed.first.map { $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." } ?? false
        if looksNumeric {
            guard trimmed.split(separator: ",", omittingEmptySubsequences: false).count == 4 else {
                throw ValidationError(
                    "\(option): '\(text)' is not LAT,LON@ZOOM (e.g. 48.85,2.35@11), LAT,LON,LATDELTA,LONDELTA (e.g. 48.85,2.35,0.2,0.3), "
                        + "bbox:WEST,SOUTH,EAST,NORTH or a place name")
            }
            return FlyoverEnd(framing: .region(try ArgumentValues.region(trimmed, option: option)))
        }
        guard !trimmed.isEmpty else { throw ValidationError("\(option): the region is empty") }
        return FlyoverEnd(framing: .place(trimmed))
    }
}

/// A one-line progress bar on standard error, drawn only when it is a terminal; any thread may
/// update it (the frames are delivered on the render threads).
final class ProgressBar: Sendable {
    private let total: Int
    private let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    /// Whether the bar is on the screen; held while drawing, so that draws do not interleave.
    private let shown = Mutex(false)

    init(total: Int, label: String) {
        self.total = total
        self.label = label
    }

    /// Shows `done` of the total.
    func update(_ done: Int) {
        guard isTerminal else { return }
        let width = 30
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        shown.withLock { shown in
            FileHandle.standardError.write(
                Data("\r\(label) \(done)/\(total) [\(bar)] \(total == 0 ? 100 : 100 * done / total)%".utf8))
            shown = true
        }
    }

    /// Removes the bar, so what follows starts on a clean line.
    func clear() {
        guard isTerminal else { return }
        shown.withLock { shown in
            guard shown else { return }
            FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
            shown = false
        }
    }
}
