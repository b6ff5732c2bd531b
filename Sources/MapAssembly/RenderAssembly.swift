public import Foundation
import ImageCodec
public import MapComposer
public import MapCore
public import MapData
public import MapRenderer
import MapStyle

/// What a map render draws, as values: the style and its data, the photos and overlays over it,
/// how pins are drawn, what part of the world it shows, its size. Prepares the render as
/// `mapwright render` does, each place looked up and the marker decoded once:
///
/// ```swift
/// let inputs = RenderInputs(photos: PhotoInputs(sources: ["photos/"]), framing: .place("Finland"))
/// var warnings: [String] = []
/// let render = try inputs.makeRender(warnings: &warnings)
/// try render.write(to: URL(fileURLWithPath: "map.png"))
/// ```
public struct RenderInputs: Sendable {
    /// The style, by name or path. The default is `standard`.
    public var style: String
    /// Where the style and its data are.
    public var map: MapInputs
    public var photos: PhotoInputs
    public var overlays: OverlayInputs
    public var drawing: PhotoDrawing
    /// What the map shows; a ``MapComposer/PhotoMapRequest/Framing/place(_:)`` is looked up once,
    /// before any photo is read. The default fits everything the map shows.
    public var framing: PhotoMapRequest.Framing
    /// The map's heading in degrees clockwise from north, and the camera's pitch in degrees from
    /// looking straight down (a camera framing has its own). The defaults are 0, north up and flat.
    public var headingDegrees: Double, pitchDegrees: Double
    /// The map's size in points. The default is 1200 × 800.
    public var size: ViewSize
    /// Pixels per point. The default is 1.
    public var scale: Double
    /// Whether the photos are drawn as a heatmap instead of pins. The default is false.
    public var showsHeatmap: Bool
    /// A PNG file or an image of the style's sprites drawn as every marker instead of a pin
    /// (``MarkerImage/load(_:mapSize:style:data:)``); nil (the default) draws pins.
    public var markerImage: String?

    public init(
        style: String = "standard", map: MapInputs = MapInputs(), photos: PhotoInputs = PhotoInputs(),
        overlays: OverlayInputs = OverlayInputs(),
        drawing: PhotoDrawing = PhotoDrawing(), framing: PhotoMapRequest.Framing = .fitContent,
        headingDegrees: Double = 0,
        pitchDegrees: Double = 0, size: ViewSize = ViewSize(width: 1200, height: 800), scale: Double = 1,
        showsHeatmap: Bool = false,
        markerImage: String? = nil
    ) {
        self.style = style
        self.map = map
        self.photos = photos
        self.overlays = overlays
        self.drawing = drawing
        self.framing = framing
        self.headingDegrees = headingDegrees
        self.pitchDegrees = pitchDegrees
        self.size = size
        self.scale = scale
        self.showsHeatmap = showsHeatmap
        self.markerImage = markerImage
    }

    /// The render, ready to write: the style loaded, the place looked up and the marker decoded
    /// (so that an unknown place or marker is reported before any photo is read), then the
    /// photos and overlays read and the map composed. What the inputs noticed (a style's ignored
    /// properties, photos without a location, a framing that leaves photos out) is appended to
    /// `warnings` as it is found, also when a later input throws.
    ///
    /// - Throws: ``AssemblyError`` naming the input at fault.
    public func makeRender(warnings: inout [String]) throws(AssemblyError) -> MapRender {
        let isPlace = if case .place = framing { true } else { false }
        let styled = try map.load(style: style, needsPlaces: isPlace)
        warnings += styled.warnings.map(\.description)
        var framing = framing
        if case .place(let name) = framing {
            do throws(PhotoMapError) { framing = .resolvedPlace(try styled.resolvePlace(named: name)) } catch {
                throw .photoMap(error)
            }
        }
        let marker = try markerImage.map { name throws(AssemblyError) in
            try MarkerImage.load(name, mapSize: size, style: styled.style, data: styled.data)
        }
        var request = try drawing.request(
            loading: photos, overlays: overlays, style: styled.style, size: size, scale: scale, markerImage: marker,
            warnings: &warnings)
        request.showsHeatmap = showsHeatmap
        request.framing = framing
        request.headingDegrees = headingDegrees
        request.pitchDegrees = pitchDegrees
        var mapWarnings: [PhotoMapWarning] = []
        defer { warnings += mapWarnings.map(\.description) }
        do throws(PhotoMapError) {
            let options = try PhotoMapBuilder(data: styled.data).options(for: request, warnings: &mapWarnings)
            return MapRender(options: options, data: styled.data)
        } catch {
            throw .photoMap(error)
        }
    }
}

/// A map composed and ready to draw (``RenderInputs/makeRender(warnings:)``): written to a PNG,
/// PDF or SVG file, or made into the bytes of one.
public struct MapRender: Sendable {
    /// The files a render writes.
    public enum Format: String, Hashable, Sendable, CaseIterable {
        case png, pdf, svg
    }

    /// What is drawn, and where.
    public var options: MapSnapshotOptions
    /// The map data it draws from; it holds the decoded tiles.
    public var data: MapData

    public init(options: MapSnapshotOptions, data: MapData) {
        self.options = options
        self.data = data
    }

    /// Draws the map into `url`, whose extension gives its format (.png, .pdf or .svg).
    ///
    /// - Parameters:
    ///   - compressionLevel: PNG only: 0 (stored) to 9 (smallest). The default is 1, the fastest.
    ///   - palette: PNG only: an 8-bit palette PNG, at most 256 colours. The default is false.
    /// - Throws: ``AssemblyError/render(_:)`` when the map cannot be drawn or the file written.
    public func write(to url: URL, compressionLevel: Int = 1, palette: Bool = false) throws(AssemblyError) {
        do throws(RendererError) {
            try MapSnapshotter(data: data).write(options, to: url, compressionLevel: compressionLevel, palette: palette)
        } catch {
            throw .render(error)
        }
    }

    /// The bytes of the map as a file of `format`: PNG made in memory, PDF and SVG through a
    /// temporary file (Cairo writes those by path), removed afterwards.
    ///
    /// - Parameters:
    ///   - compressionLevel: PNG only: 0 (stored) to 9 (smallest). The default is 1, the fastest.
    ///   - palette: PNG only: an 8-bit palette PNG. The default is false.
    /// - Throws: ``AssemblyError`` when the map cannot be drawn or encoded.
    public func encoded(_ format: Format, compressionLevel: Int = 1, palette: Bool = false) throws(AssemblyError)
        -> Data
    {
        let snapshotter = MapSnapshotter(data: data)
        if format == .png {
            let snapshot: MapSnapshot
            do throws(RendererError) { snapshot = try snapshotter.snapshot(options) } catch { throw .render(error) }
            do throws(ImageCodecError) {
                return try snapshot.pngData(compressionLevel: compressionLevel, palette: palette)
            } catch {
                throw .image(error)
            }
        }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-\(UUID().uuidString).\(format.rawValue)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        try write(to: temporary)
        do { return try Data(contentsOf: temporary) } catch {
            throw .message(
                "cannot read the temporary \(format.rawValue.uppercased()) file \(temporary.path): \(error.localizedDescription)"
            )
        }
    }

    /// What drawing skipped in the map data (a tile that could not be read), one line each, for
    /// the caller to show after the map is written.
    public var skippedDataWarnings: [String] { data.skippedDataWarnings() }
}
