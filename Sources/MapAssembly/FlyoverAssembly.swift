public import Foundation
public import MapComposer
public import MapCore
public import MapData
import MapRenderer
import MapStyle
import MapUtilities

/// What a fly-over draws, as values: the style and its data, the photos and overlays, how pins
/// are drawn, the flight's two ends, its frames and their size. Prepares the flight as
/// `mapwright flyover` does, each end's place looked up and the marker decoded once, and writes
/// its frames:
///
/// ```swift
/// let inputs = FlyoverInputs(
///     from: .init(framing: .place("France")), to: .init(framing: .center(paris, zoomLevel: 12)), framesPerSecond: 30)
/// var warnings: [String] = []
/// let flight = try inputs.makeFlyover(warnings: &warnings)
/// try flight.write(to: .animatedPNG(URL(fileURLWithPath: "flight.png")), cameras: nil, warnings: &warnings)
/// ```
public struct FlyoverInputs: Sendable {
    /// The style, by name or path. The default is `standard`.
    public var style: String
    /// Where the style and its data are.
    public var map: MapInputs
    public var photos: PhotoInputs
    public var overlays: OverlayInputs
    public var drawing: PhotoDrawing
    /// Where the flight starts and ends: a framing each (a place is looked up once), with the
    /// camera's heading and pitch there.
    public var from: PhotoMapBuilder.FlyoverEnd, to: PhotoMapBuilder.FlyoverEnd
    /// How many frames, the ends included (2 or more); nil (the default) works it out from
    /// ``durationSeconds``.
    public var frameCount: Int?
    /// How long the flight lasts, in seconds; nil (the default) takes MapLibre's `flyTo`
    /// duration for the distance.
    public var durationSeconds: Double?
    /// Frames a second. The default is 30.
    public var framesPerSecond: Double
    /// How the camera speeds up and slows down. The default is MapLibre's ease.
    public var easing: Flyover.Easing
    /// A frame's size in points. The default is 640 × 480.
    public var size: ViewSize
    /// Pixels per point. The default is 1.
    public var scale: Double
    /// A PNG file or an image of the style's sprites drawn as every marker instead of a pin; nil
    /// (the default) draws pins.
    public var markerImage: String?

    public init(
        style: String = "standard", map: MapInputs = MapInputs(), photos: PhotoInputs = PhotoInputs(),
        overlays: OverlayInputs = OverlayInputs(),
        drawing: PhotoDrawing = PhotoDrawing(), from: PhotoMapBuilder.FlyoverEnd, to: PhotoMapBuilder.FlyoverEnd,
        frameCount: Int? = nil,
        durationSeconds: Double? = nil, framesPerSecond: Double = 30, easing: Flyover.Easing = .ease,
        size: ViewSize = ViewSize(width: 640, height: 480),
        scale: Double = 1, markerImage: String? = nil
    ) {
        self.style = style
        self.map = map
        self.photos = photos
        self.overlays = overlays
        self.drawing = drawing
        self.from = from
        self.to = to
        self.frameCount = frameCount
        self.durationSeconds = durationSeconds
        self.framesPerSecond = framesPerSecond
        self.easing = easing
        self.size = size
        self.scale = scale
        self.markerImage = markerImage
    }

    /// The flight, ready to render: the style loaded, each end's place looked up and the marker
    /// decoded (before any photo is read), the photos and overlays read, the frames' cameras
    /// worked out. What the inputs noticed is appended to `warnings` as it is found, also when a
    /// later input throws.
    ///
    /// - Throws: ``AssemblyError`` naming the input at fault: `--from` or `--to` for a place the
    ///   basemap does not have (with the closest names).
    public func makeFlyover(warnings: inout [String]) throws(AssemblyError) -> MapFlyover {
        let needsPlaces = [from, to].contains { if case .place = $0.framing { true } else { false } }
        let styled = try map.load(style: style, needsPlaces: needsPlaces)
        warnings += styled.warnings.map(\.description)
        var ends = (from: from, to: to)
        ends.from.framing = try Self.resolved(from.framing, input: .from, in: styled)
        ends.to.framing = try Self.resolved(to.framing, input: .to, in: styled)
        let marker = try markerImage.map { name throws(AssemblyError) in
            try MarkerImage.load(name, mapSize: size, style: styled.style, data: styled.data)
        }
        let request = try drawing.request(
            loading: photos, overlays: overlays, style: styled.style, size: size, scale: scale, markerImage: marker,
            warnings: &warnings)
        let builder = PhotoMapBuilder(data: styled.data)
        do throws(PhotoMapError) {
            let flyover = try builder.flyover(
                of: request, from: ends.from, to: ends.to, frameCount: frameCount, durationSeconds: durationSeconds,
                framesPerSecond: framesPerSecond, easing: easing)
            return MapFlyover(flyover: flyover, request: request, data: styled.data)
        } catch {
            throw .photoMap(error)
        }
    }

    /// An end's framing with its place looked up, or as it is.
    private static func resolved(_ framing: PhotoMapRequest.Framing, input: AssemblyInput, in map: StyledMap)
        throws(AssemblyError) -> PhotoMapRequest.Framing
    {
        guard case .place(let name) = framing else { return framing }
        do throws(PhotoMapError) { return .resolvedPlace(try map.resolvePlace(named: name)) } catch {
            guard case .unknownPlace(_, let suggestions) = error else { throw .photoMap(error) }
            throw .invalid(
                input,
                reason:
                    "'\(name)' is not LAT,LON@ZOOM, LAT,LON,LATDELTA,LONDELTA, bbox:WEST,SOUTH,EAST,NORTH or a country or "
                    + "state/province in the basemap" + PhotoMapError.didYouMean(suggestions))
        }
    }
}

/// A fly-over worked out and ready to render (``FlyoverInputs/makeFlyover(warnings:)``).
public struct MapFlyover: Sendable {
    /// The frames' cameras.
    public var flyover: Flyover
    /// The photos, overlays, size and scale every frame draws.
    public var request: PhotoMapRequest
    /// The map data the frames draw from.
    public var data: MapData

    public init(flyover: Flyover, request: PhotoMapRequest, data: MapData) {
        self.flyover = flyover
        self.request = request
        self.data = data
    }

    /// How many frames.
    public var frameCount: Int { flyover.frames.count }
    /// A frame's width and height in pixels.
    public var pixelWidth: Int { flyover.frames[0].viewport.pixelWidth }
    public var pixelHeight: Int { flyover.frames[0].viewport.pixelHeight }

    /// Where the cameras' JSON goes for `output` unless told: beside the animation
    /// (`OUT.cameras.json`), or `cameras.json` in a folder of frames.
    public static func defaultCamerasURL(for output: FlyoverWriter.Output) -> URL {
        if case .frames(let url) = output { return url.appendingPathComponent("cameras.json") }
        return output.url.deletingPathExtension().appendingPathExtension("cameras.json")
    }

    /// Renders the frames on every core into `output` (``MapComposer/FlyoverWriter``), then
    /// writes each frame's camera as JSON to `cameras` (nil: ``defaultCamerasURL(for:)``).
    /// What drawing skipped in the map data is appended to `warnings` once the frames are
    /// rendered, before the output is completed.
    ///
    /// - Parameter progress: Called with the number of frames written so far, after each one,
    ///   on the thread writing it. The default does nothing.
    /// - Returns: Where the cameras went.
    /// - Throws: ``AssemblyError`` for a frame that cannot be drawn or an output that cannot be
    ///   written (`--cameras` naming the cameras' file).
    @discardableResult
    public func write(
        to output: FlyoverWriter.Output, cameras: URL? = nil, progress: (Int) -> Void = { _ in },
        warnings: inout [String]
    ) throws(AssemblyError) -> URL {
        let writer: FlyoverWriter
        do throws(PhotoMapError) {
            writer = try FlyoverWriter(
                output: output, width: pixelWidth, height: pixelHeight, frameCount: frameCount,
                framesPerSecond: flyover.framesPerSecond)
        } catch {
            throw .photoMap(error)
        }
        do {
            try PhotoMapBuilder(data: data).renderFrames(
                of: flyover, request: request, snapshotter: MapSnapshotter(data: data), progress: progress,
                deliver: { _, image in try writer.write(image) })
        } catch let error as PhotoMapError {
            throw .photoMap(error)
        } catch {
            throw .message("\(error)")
        }
        warnings += data.skippedDataWarnings()
        do throws(PhotoMapError) { try writer.finish() } catch { throw .photoMap(error) }
        let camerasURL = cameras ?? Self.defaultCamerasURL(for: output)
        do throws(MapUtilitiesError) { try AtomicFile.write(flyover.camerasJSON(), to: camerasURL) } catch {
            throw .invalid(.cameras, reason: "\(camerasURL.displayPath): cannot write the file: \(error.reason)")
        }
        return camerasURL
    }
}
