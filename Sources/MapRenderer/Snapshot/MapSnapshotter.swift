import CCairo
public import Foundation
import GeoData
import ImageCodec
import MapCore
public import MapData
import MapStyle
import MapUtilities

/// Renders maps: a style's basemap, overlays, markers and a callout, into an image, a PDF
/// or an SVG (MapKit's MKMapSnapshotter, on a server).
///
/// One snapshotter serves any number of renders, on any threads at once: the data it reads is
/// prepared once per zoom and shared (see ``MapData``). Images and tiles come from the same
/// drawing code.
///
/// For example:
///
/// ```swift
/// let snapshotter = MapSnapshotter(data: MapData(basemapDirectory: URL(fileURLWithPath: "/usr/local/share/mapwright/Tiles/basemap")))
/// let snapshot = try snapshotter.snapshot(MapSnapshotOptions(viewport: viewport, style: style, markers: pins))
/// try snapshot.writePNG(to: URL(fileURLWithPath: "map.png"))
/// ```
///
/// **Zoom convention.** A viewport's zoom level counts 256-point tiles (the world is 256 points
/// wide at zoom 0, as slippy-map tile addresses and `render --zoom` count); a style is evaluated
/// at MapLibre's zoom for the same scale, which counts 512-point tiles: one less
/// (``styleZoomOffset``). Images, tiles and fly-over frames all follow it, so a style's zoom
/// functions, `minzoom` and `maxzoom` draw at the scale MapLibre draws them.
public final class MapSnapshotter: Sendable {
    /// The largest image side, in pixels: 16384.
    public static let maximumPixelsPerSide = 16_384
    /// What a render adds to its viewport's zoom level to evaluate the style: −1, MapLibre's
    /// convention (a 512-point world at zoom 0, where the viewport's has 256 points).
    public static let styleZoomOffset: Double = -1

    /// The vector data the styles draw from.
    public let data: MapData

    /// Creates a snapshotter over shared map data.
    public init(data: MapData) {
        self.data = data
    }

    /// Renders the options into an image.
    ///
    /// - Throws: ``RendererError`` for an unreadable source, a style that needs a raster source,
    ///   or an image larger than ``maximumPixelsPerSide`` or smaller than one pixel.
    public func snapshot(_ options: MapSnapshotOptions) throws(RendererError) -> MapSnapshot {
        try snapshot(options, drawsInBands: true)
    }

    /// Renders the options into an image, in bands on every core where the image allows it (see
    /// ``bandRows(of:)``), or whole.
    func snapshot(_ options: MapSnapshotOptions, drawsInBands: Bool) throws(RendererError) -> MapSnapshot {
        let canvas = try renderedCanvas(options, drawsInBands: drawsInBands)
        return MapSnapshot(
            image: canvas.rgbaImage(), viewport: options.viewport, hasRasterLayers: drawsRasterPixels(options))
    }

    /// A new image canvas with the options rendered on it, in bands on every core where the image
    /// allows it (see ``bandRows(of:)``), or whole.
    private func renderedCanvas(_ options: MapSnapshotOptions, drawsInBands: Bool = true) throws(RendererError)
        -> Canvas
    {
        let viewport = options.viewport
        try checkSize(viewport)
        let canvas = try Canvas(
            widthPoints: viewport.size.width, heightPoints: viewport.size.height, scale: viewport.scale, target: .image,
            fonts: data.fonts)
        if drawsInBands,
            let rows = Self.bandRows(of: viewport) ?? Self.wholeImageBand(of: viewport, overlays: options.overlays)
        {
            try drawInBands(options, rows: rows, on: canvas)
        } else {
            try draw(options, in: canvas.cairo, pixelScale: viewport.scale)
        }
        return canvas
    }

    /// Whether raster imagery is drawn: it decides a PNG's row filters (see ``MapSnapshot/pngData(compressionLevel:palette:)``).
    private func drawsRasterPixels(_ options: MapSnapshotOptions) -> Bool {
        options.style.drawsRasterPixels(atZoom: options.viewport.zoomLevel + MapSnapshotter.styleZoomOffset)
    }

    /// Renders the options into a file: PNG, or PDF or SVG when the path ends in `.pdf` or `.svg`.
    ///
    /// The file is written to a temporary file beside it and renamed, so a failed render never
    /// leaves a partial file.
    ///
    /// - Parameters:
    ///   - compressionLevel: zlib level for PNG, 0 to 9. The default is 1, the fastest.
    ///   - palette: Whether a PNG is reduced to an 8-bit palette (smaller, lossy). The default is false.
    /// - Throws: ``RendererError``, as ``snapshot(_:)`` does; ``RendererError/output(path:reason:)``
    ///   naming the file when it cannot be written.
    public func write(
        _ options: MapSnapshotOptions, to url: URL, compressionLevel: Int = 1, palette: Bool = false
    ) throws(RendererError) {
        let viewport = options.viewport
        switch url.pathExtension.lowercased() {
        case let format where format == "pdf" || format == "svg":
            let temporary = AtomicFile.temporaryURL(for: url)
            defer { try? FileManager.default.removeItem(at: temporary) }
            do {
                let target: Canvas.Target = format == "pdf" ? .pdf(temporary) : .svg(temporary)
                let canvas: Canvas
                do {
                    canvas = try Canvas(
                        widthPoints: viewport.size.width, heightPoints: viewport.size.height, scale: 1, target: target,
                        fonts: data.fonts)
                } catch {
                    throw Self.unwritable(url, error)
                }
                try draw(options, in: canvas.cairo, pixelScale: nil)
                do { try canvas.finish() } catch { throw Self.unwritable(url, error) }
            }
            do throws(MapUtilitiesError) {
                try AtomicFile.replace(url, with: temporary)
            } catch {
                throw .output(path: url.path, reason: "cannot write the file: \(error.reason)")
            }
        default:
            let png: Data
            if palette {
                let snapshot = try snapshot(options)
                do throws(ImageCodecError) {
                    png = try snapshot.pngData(compressionLevel: compressionLevel, palette: true)
                } catch {
                    throw .output(path: url.path, reason: error.description)
                }
            } else {
                // Encoded from the canvas, without a straight-alpha copy of the image first.
                let canvas = try renderedCanvas(options)
                do throws(ImageCodecError) {
                    png = try canvas.pngData(
                        compressionLevel: compressionLevel, filtering: drawsRasterPixels(options) ? .adaptive : .none)
                } catch {
                    throw .output(path: url.path, reason: error.description)
                }
            }
            do throws(MapUtilitiesError) {
                try AtomicFile.write(png, to: url)
            } catch {
                throw .output(path: url.path, reason: "cannot write the file: \(error.reason)")
            }
        }
    }

    /// A vector surface that could not be written (its file cannot be created, or the disk is
    /// full) as an error naming the output file.
    private static func unwritable(_ url: URL, _ error: RendererError) -> RendererError {
        guard case .canvas(let reason) = error else { return error }
        return .output(path: url.path, reason: "cannot write the file: \(reason)")
    }

    /// Throws unless every raster and vector source of the style has its data configured.
    static func requireConfiguredSources(of style: Style) throws(RendererError) {
        do {
            try style.requireConfiguredRasterSources()
            try style.requireConfiguredVectorSources()
        } catch { throw .style(error) }
    }

    private func checkSize(_ viewport: Viewport) throws(RendererError) {
        let limit = MapSnapshotter.maximumPixelsPerSide
        guard viewport.pixelWidth > 0, viewport.pixelHeight > 0 else {
            throw .emptyImage(width: viewport.pixelWidth, height: viewport.pixelHeight)
        }
        guard viewport.pixelWidth <= limit, viewport.pixelHeight <= limit else {
            throw .imageTooLarge(width: viewport.pixelWidth, height: viewport.pixelHeight, limit: limit)
        }
    }

    // MARK: - Drawing

    /// Draws everything, bottom to top, onto a context whose user space is view points; markers
    /// on whole pixels of `pixelScale` pixels per point for images, as paths for vector output
    /// (`pixelScale` nil). `pass` says what a tile draws differently from an image (see
    /// ``RenderPass``); the default draws an image.
    func draw(
        _ options: MapSnapshotOptions, pass: RenderPass = RenderPass(), in cairo: OpaquePointer, pixelScale: Double?
    ) throws(RendererError) {
        let viewport = options.viewport
        let style = options.style
        if pass.drawsBasemap { try Self.requireConfiguredSources(of: style) }
        let viewRect = ViewRect(x: 0, y: 0, width: viewport.size.width, height: viewport.size.height)
        guard let visibleMapRect = viewport.mapRect(for: viewRect) else { return }
        var pass = pass
        var drawsStandingLayers = false
        if viewport.camera.pitchDegrees > 0, pass.drawsGround {
            // A pitched view: the ground in perspective first (vector output embeds it as a 2x
            // image), then labels, markers and the callout upright over it.
            let ground = PerspectiveGround(
                viewport: viewport, outputScale: pixelScale == nil ? max(2, viewport.scale) : viewport.scale)
            let surface = try ground.render(
                options, snapshotter: self,
                sky: SkyColors(style: style, zoomLevel: viewport.zoomLevel + MapSnapshotter.styleZoomOffset))
            defer { cairo_surface_destroy(surface) }
            cairo_save(cairo)
            cairo_set_source_surface(cairo, surface, 0, 0)
            cairo_paint(cairo)
            cairo_restore(cairo)
            pass.drawsGround = false
            drawsStandingLayers = pass.drawsBasemap
        }
        let painter = StylePainter(
            viewport: viewport, styleZoomLevel: viewport.zoomLevel + MapSnapshotter.styleZoomOffset,
            clipMarginPixels: pass.clipMarginPixels,
            style: style, data: data, cairo: cairo, visibleMapRect: visibleMapRect, bandSharing: pass.bandSharing,
            featureStates: options.featureStates)
        // Extrusion layers share one depth buffer, as in GL: a building hides those of later
        // layers behind it.
        var extrusionDepths: ExtrusionRaster?
        if drawsStandingLayers {
            // A pitched view's buildings stand on its ground, its circles stand up or lie on it
            // and its heatmaps' kernels lie on it, in its perspective, in layer order.
            for layer in style.layers where layer.isVisible(atZoom: painter.zoomLevel) {
                switch layer.kind {
                case .fillExtrusion(let extrusion):
                    try painter.drawExtrusions(extrusion, layer: layer, raster: &extrusionDepths)
                case .circle(let circle): painter.drawCircles(circle, features: try painter.features(of: layer))
                case .heatmap(let heatmap): try painter.drawHeatmap(heatmap, layer: layer)
                default: break
                }
            }
        }
        if pass.placement == nil, pass.pendingPlacement == nil, pass.drawsBasemap { try painter.prefetchVectorTiles() }
        // Laid out before anything is drawn, or, for a band whose placement is made elsewhere,
        // where its first label is drawn.
        var foreground =
            pass.pendingPlacement == nil
            ? try layOutForeground(
                options, pass: pass, painter: painter, viewRect: viewRect, visibleMapRect: visibleMapRect, cairo: cairo)
            : nil
        func laidOut() throws(RendererError) -> Foreground {
            if let foreground { return foreground }
            var placed = pass
            placed.placement = try pass.pendingPlacement?()
            placed.pendingPlacement = nil
            let made = try layOutForeground(
                options, pass: placed, painter: painter, viewRect: viewRect, visibleMapRect: visibleMapRect,
                cairo: cairo)
            foreground = made
            return made
        }
        let visibleLayers =
            pass.drawsBasemap
            ? style.layers.enumerated().filter { layer in
                guard layer.element.isVisible(atZoom: painter.zoomLevel) else { return false }
                if case .symbol = layer.element.kind { return pass.drawsLabels }
                return pass.drawsGround
            } : []
        let firstSymbolIndex = visibleLayers.first {
            if case .symbol = $0.element.kind { return true }
            return false
        }?.offset
        let labelsStart = firstSymbolIndex ?? Int.max
        let drawnLayers =
            switch pass.layerSpan {
            case .all: visibleLayers
            case .belowLabels: visibleLayers.filter { $0.offset < labelsStart }
            case .labelsAndAbove: visibleLayers.filter { $0.offset >= labelsStart }
            }
        let overlays = pass.drawsOverlays && pass.drawsGround ? options.overlays : []
        // Heatmaps show over the opaque layers above them, as in GL's passes.
        var order = OpaquePassOrder(style: style, zoomLevel: painter.zoomLevel)
        defer { order.finish() }
        // Overlays above roads go under the first labels, or on top when no labels show.
        for (index, layer) in drawnLayers {
            if index == firstSymbolIndex {
                drawOverlays(
                    overlays, level: .aboveRoads, viewport: viewport, visibleMapRect: visibleMapRect, cairo: cairo)
            }
            try order.drawLayer(at: index, of: layer, in: cairo) { () throws(RendererError) in
                switch layer.kind {
                case .background(let background):
                    painter.drawBackground(background)
                case .fill(let fill):
                    painter.drawFill(fill, features: try painter.features(of: layer))
                case .line(let line):
                    try painter.drawLine(line, layer: layer)
                case .symbol(let symbol):
                    let ordered = LabelCandidate.inDrawOrder(
                        try laidOut().labels[index] ?? [], symbol: symbol, zoom: painter.zoomLevel)
                    for label in ordered { label.drawIcon(in: cairo) }
                    for label in ordered { label.drawText(in: cairo) }
                case .raster(let raster):
                    try painter.drawRaster(raster, layer: layer)
                case .circle(let circle):
                    if pass.drawsPerspectiveLayers {
                        painter.drawCircles(circle, features: try painter.features(of: layer))
                    }
                case .hillshade(let hillshade):
                    try painter.drawHillshade(hillshade, layer: layer)
                case .heatmap(let heatmap):
                    if pass.drawsPerspectiveLayers { try painter.drawHeatmap(heatmap, layer: layer) }
                case .fillExtrusion(let extrusion):
                    if pass.drawsPerspectiveLayers {
                        try painter.drawExtrusions(extrusion, layer: layer, raster: &extrusionDepths)
                    }
                }
            }
        }
        guard pass.layerSpan != .belowLabels else { return }
        if firstSymbolIndex == nil {
            drawOverlays(overlays, level: .aboveRoads, viewport: viewport, visibleMapRect: visibleMapRect, cairo: cairo)
        }
        drawOverlays(overlays, level: .aboveLabels, viewport: viewport, visibleMapRect: visibleMapRect, cairo: cairo)
        drawForeground(
            try laidOut(), options, pass: pass, zoom: painter.zoomLevel, pixelScale: pixelScale, cairo: cairo)
    }

    /// What a render puts above the basemap and where its labels go, laid out before anything is
    /// drawn: the markers, the selected marker's callout, and the labels of every symbol layer by
    /// layer index.
    struct Foreground {
        var markers: (any MarkerLayout)?
        var callout: (any MarkerCallout)?
        var labels: [Int: [LabelCandidate]] = [:]
    }

    /// Lays out the markers and the callout, which take their room first, then places the labels
    /// clear of them (or takes both from the pass's placement).
    func layOutForeground(
        _ options: MapSnapshotOptions, pass: RenderPass, painter: StylePainter, viewRect: ViewRect,
        visibleMapRect: MapRect,
        cairo: OpaquePointer
    ) throws(RendererError) -> Foreground {
        let metadata = options.style.mapwright
        var foreground = Foreground()
        if pass.drawsOverlays, pass.drawsMarkers, let layer = options.markers {
            let layout = layer.layOut(in: options.viewport, visibleMapRect: visibleMapRect, style: metadata)
            foreground.markers = layout
            if let placement = pass.placement {
                foreground.callout = placement.callout(in: viewRect, origin: pass.worldOrigin, cairo: cairo)
            } else {
                foreground.callout = layout.callout(style: metadata, cairo: cairo)
            }
        }
        if pass.drawsBasemap, pass.drawsLabels {
            if let placement = pass.placement {
                foreground.labels = placement.labels(in: viewRect, origin: pass.worldOrigin, cairo: cairo)
            } else {
                var taken = CollisionIndex()
                for frame in foreground.markers?.bodyFrames ?? [] { taken.insert(frame) }
                if let callout = foreground.callout { taken.insert(callout.frame) }
                foreground.labels = try placeLabels(style: options.style, painter: painter, cairo: cairo, taken: &taken)
            }
        }
        return foreground
    }

    /// Draws the markers, the callout and the attribution: what lies above everything else.
    func drawForeground(
        _ foreground: Foreground, _ options: MapSnapshotOptions, pass: RenderPass, zoom: Double, pixelScale: Double?,
        cairo: OpaquePointer
    ) {
        let metadata = options.style.mapwright
        foreground.markers?.draw(style: metadata, pixelScale: pixelScale, cairo: cairo)
        if let callout = foreground.callout {
            // A tile's callout is laid out in world points: move the world under the view.
            cairo_save(cairo)
            cairo_translate(cairo, -pass.worldOrigin.x, -pass.worldOrigin.y)
            callout.draw(in: cairo)
            cairo_restore(cairo)
        }
        if options.showsAttribution {
            drawAttribution(style: options.style, zoom: zoom, viewSize: options.viewport.size, cairo: cairo)
        }
    }

    /// Lays out and places the labels of every visible symbol layer; upper layers place first,
    /// as in MapLibre. Returns the placed labels by layer index.
    private func placeLabels(
        style: Style, painter: StylePainter, cairo: OpaquePointer, taken: inout CollisionIndex
    ) throws(RendererError) -> [Int: [LabelCandidate]] {
        let placer = LabelPlacer(
            paddingPoints: style.mapwright.labels.collisionPadding, placement: style.mapwright.labels.placement)
        let context = SymbolContext(
            images: painter.images, placement: placer.placement, glyphs: StyleGlyphs(style: style, data: data))
        var placed: [Int: [LabelCandidate]] = [:]
        for (index, layer) in style.layers.enumerated().reversed() where layer.isVisible(atZoom: painter.zoomLevel) {
            guard case .symbol(let symbol) = layer.kind else { continue }
            var candidates = LabelCandidate.candidates(
                of: symbol, features: try painter.features(of: layer), viewport: painter.viewport,
                styleZoomLevel: painter.zoomLevel,
                context: context, cairo: cairo)
            if painter.viewport.camera.pitchDegrees > 0 {
                candidates = Self.thinnedForPitch(candidates, viewport: painter.viewport)
            }
            placed[index] = placer.place(candidates, in: painter.viewport.size, avoiding: &taken)
        }
        for name in context.missingImages.value.sorted() { data.noteMissingImage(name) }
        return placed
    }

    /// The labels a pitched view keeps: those on ground no more than twice as far as the view's
    /// centre (the ground shrinks to half there), below the visible-ground limit. Labels stay
    /// upright and full size; the far ground, foreshortened, gets fewer of them.
    static func thinnedForPitch(_ candidates: [LabelCandidate], viewport: Viewport) -> [LabelCandidate] {
        let limit = viewport.visibleGroundTopViewY
        return candidates.filter { candidate in
            let bounds = candidate.bounds
            guard bounds.minY > limit, let scale = viewport.perspectiveScale(atViewY: bounds.minY) else { return false }
            return scale >= 0.5
        }
    }

    private func drawOverlays(
        _ overlays: [MapOverlay], level: MapOverlay.Level, viewport: Viewport, visibleMapRect: MapRect,
        cairo: OpaquePointer
    ) {
        for overlay in overlays where overlay.level == level {
            OverlayPainter.draw(overlay, viewport: viewport, visibleMapRect: visibleMapRect, cairo: cairo)
        }
    }

    /// The sources' credits in the bottom-right corner, on a translucent plate.
    private func drawAttribution(style: Style, zoom: Double, viewSize: ViewSize, cairo: OpaquePointer) {
        guard
            let (layout, plate) = MapSnapshotter.attributionPlate(
                style: style, data: data, zoom: zoom, viewSize: viewSize, cairo: cairo)
        else { return }
        cairo.addRoundedRect(plate, radius: 3)
        // Dark text on a light plate; light text (dark styles) on a dark one.
        let text = style.mapwright.attribution.color
        let isLight = 0.2126 * text.red + 0.7152 * text.green + 0.0722 * text.blue > 0.5
        if isLight { cairo_set_source_rgba(cairo, 0, 0, 0, 0.55) } else { cairo_set_source_rgba(cairo, 1, 1, 1, 0.65) }
        cairo_fill(cairo)
        layout.draw(at: ViewPoint(x: plate.minX + 4, y: plate.minY + 2), color: style.mapwright.attribution.color)
    }

    /// The attribution text laid out, and the plate behind it; nil when the style credits no one.
    static func attributionPlate(
        style: Style, data: MapData, zoom: Double, viewSize: ViewSize, cairo: OpaquePointer
    ) -> (layout: TextLayout, plate: ViewRect)? {
        guard let credit = data.attributionText(for: style, zoom: zoom) else { return nil }
        let text = MapData.plainText(ofAttribution: credit)
        guard !text.isEmpty else { return nil }
        let layout = TextLayout(text, font: FontSpec(sizePoints: 9), in: cairo, maximumWidth: viewSize.width - 8)
        let size = layout.size
        let plate = ViewRect(
            x: viewSize.width - size.width - 8, y: viewSize.height - size.height - 4, width: size.width + 8,
            height: size.height + 4)
        return (layout, plate)
    }
}
