import CCairo
import Foundation
import MapCore
import MapStyle
import MapUtilities

extension MapSnapshotter {
    /// The height of the bands a large image is drawn in, about: 320 pixels.
    static let bandPixels = 320
    /// The most bands an image is drawn in: 8.
    static let maximumBands = 8
    /// How far beyond its rows a band's view reaches, within the image, in points: 64 (as far as
    /// a circle's radius, a heatmap's kernel or a line's width reaches in any common style).
    static let bandBufferPoints: Double = 64

    /// The pixel rows of the bands an image is drawn in, top to bottom; nil to draw it whole.
    ///
    /// An image at least two bands high, flat and north-up, at a whole number of pixels per
    /// point, is cut into an even number of bands about ``bandPixels`` high or more (at most
    /// ``maximumBands``) whose edges fall on whole points, so that every band places a map point
    /// at the same fraction of a pixel as the whole image would. The cut depends on the image alone, never on the
    /// machine's cores: the same inputs give the same pixels anywhere.
    static func bandRows(of viewport: Viewport) -> [Range<Int>]? {
        let pixelHeight = viewport.pixelHeight
        guard viewport.camera.pitchDegrees == 0, viewport.camera.headingDegrees == 0,
            viewport.scale == viewport.scale.rounded(), pixelHeight >= 2 * bandPixels
        else { return nil }
        let scale = Int(viewport.scale)
        // An even number: cores come in pairs, and an odd band out would be drawn alone at the
        // end (a 2400x1600 map on two cores: 143 ms in four bands against 150 ms in five).
        let count = min(maximumBands, pixelHeight / bandPixels) & ~1
        let wholePoints = pixelHeight / scale
        let tops = (0..<count).map { band in band * wholePoints / count * scale } + [pixelHeight]
        return (0..<count).map { tops[$0]..<tops[$0 + 1] }
    }

    /// One band, the whole image, for an image too small for ``bandRows(of:)`` but at least
    /// ``wholeBandPixels`` a side (flat, north-up, at a whole number of pixels per point) without
    /// overlays: drawn by ``drawInBands(_:rows:on:)``, its labels are laid out on one core while
    /// the layers below them are drawn on another, and it comes out byte for byte as drawn whole
    /// (an 800x600 view of OSM Bright at GL zoom 17: 32 -> 21 ms warm). nil otherwise. Overlays
    /// (circles, great circles, GeoJSON) drawn over photo pins came out a level off in a few pixels.
    static func wholeImageBand(of viewport: Viewport, overlays: [MapOverlay]) -> [Range<Int>]? {
        guard overlays.isEmpty, viewport.camera.pitchDegrees == 0, viewport.camera.headingDegrees == 0,
            viewport.scale == viewport.scale.rounded(), viewport.pixelHeight >= wholeBandPixels,
            viewport.pixelWidth >= wholeBandPixels
        else { return nil }
        return [0..<viewport.pixelHeight]
    }

    /// The smallest side of an image ``wholeImageBand(of:overlays:)`` draws as one band: 256 pixels.
    static let wholeBandPixels = 256

    /// Draws an image in bands on every core (see ``bandRows(of:)``).
    ///
    /// The labels, markers and callout are laid out once for the whole image, as
    /// ``draw(_:pass:in:pixelScale:)`` lays them out, while the bands draw the layers below their
    /// first labels; each band then draws the labels that reach into it, as a tile draws from
    /// its zoom's placement, and the layers above, into its own rows of `canvas`; the markers,
    /// the callout and the attribution go on top of the whole image last.
    ///
    /// The work goes to the cores as small items, taken in order: the layout, each band's lower
    /// layers, each band's upper layers (which wait for the layout and for their band's lower
    /// layers, both already under way when they are taken, so nothing waits for work not
    /// started, on any number of cores). A style that draws a heatmap or extrusions at this zoom
    /// (layers whose drawing keeps state from one layer to the next) has each band drawn whole,
    /// after the layout.
    func drawInBands(_ options: MapSnapshotOptions, rows bands: [Range<Int>], on canvas: Canvas) throws(RendererError) {
        let viewport = options.viewport
        let style = options.style
        try Self.requireConfiguredSources(of: style)
        let viewRect = ViewRect(x: 0, y: 0, width: viewport.size.width, height: viewport.size.height)
        guard let visibleMapRect = viewport.mapRect(for: viewRect) else { return }
        let zoom = viewport.zoomLevel + MapSnapshotter.styleZoomOffset
        let painter = StylePainter(
            viewport: viewport, styleZoomLevel: zoom, style: style, data: data, cairo: canvas.cairo,
            visibleMapRect: visibleMapRect, featureStates: options.featureStates)
        try painter.prefetchVectorTiles()
        // Made once, by the first item to ask: item 0 asks at once, and a band that reaches its
        // labels before it is made waits for it. It reads the whole canvas's context only to
        // measure text, and the painter only on its own thread.
        let laidOut = OnceCache<Int, LaidOutImage>()
        let image = UnsafeTransfer((canvas, painter))
        let layOut = { @Sendable () throws(RendererError) -> LaidOutImage in
            try laidOut.value(for: 0) { () throws(RendererError) -> LaidOutImage in
                let (canvas, painter) = image.wrappedValue
                let foreground = try self.layOutForeground(
                    options, pass: RenderPass(), painter: painter, viewRect: viewRect, visibleMapRect: visibleMapRect,
                    cairo: canvas.cairo)
                let placement = TilePlacement(
                    worldSize: viewport.size,
                    labels: foreground.labels.sorted { $0.key < $1.key }.flatMap { index, labels in
                        labels.map { TilePlacement.Label($0, layerIndex: index) }
                    },
                    callout: nil)
                return LaidOutImage(foreground: UnsafeTransfer(foreground), placement: placement)
            }
        }

        let scale = viewport.scale
        let sharing = BandSharing(imageMapRect: visibleMapRect)
        let bandOptions = {
            var options = options
            options.markers = nil
            options.showsAttribution = false
            return options
        }()
        let keepsLayerState = style.layers.contains { layer in
            guard layer.isVisible(atZoom: zoom) else { return false }
            switch layer.kind {
            case .heatmap, .fillExtrusion: return true
            default: return false
            }
        }
        let spans: [RenderPass.LayerSpan] = keepsLayerState ? [.all] : [.belowLabels, .labelsAndAbove]
        let itemCount = 1 + spans.count * bands.count
        let results = UnsafeMutableBufferPointer<RendererError?>.allocate(capacity: itemCount)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        // Signalled when a band's lower layers are drawn (or failed).
        let lowerDrawn = bands.map { _ in DispatchSemaphore(value: 0) }
        // Opened once the layout is made (or failed): the spans that draw labels wait for it
        // here, asleep, rather than on the layout's lock, where a waiter spun in the kernel while
        // the layout ran (a contended lock spins while its holder runs: 14% of the CPU of a warm
        // MapTiler Basic render at GL 17 drawn as one band, taken from whatever else could run).
        let laidOutGate = DispatchSemaphore(value: 0)
        cairo_surface_flush(canvas.surface)
        // Item 0 lays out the image; then each span of every band, lower spans first. Each band
        // writes only its own rows of the canvas, one span after the other, and each item only
        // its own slot of `results`; the canvas outlives the work.
        let work = UnsafeTransfer((canvas, results))
        DispatchQueue.concurrentPerform(iterations: itemCount) { item in
            let (canvas, results) = work.wrappedValue
            guard item > 0 else {
                defer { laidOutGate.signal() }
                do throws(RendererError) { _ = try layOut() } catch { results[0] = error }
                return
            }
            let spanIndex = (item - 1) / bands.count
            let index = (item - 1) % bands.count
            let span = spans[spanIndex]
            if span == .labelsAndAbove {
                lowerDrawn[index].wait()
                // A band whose lower layers failed has its error recorded already.
                guard results[1 + index] == nil else { return }
            }
            if span != .belowLabels {
                // Through the gate, and open it again for the next span waiting.
                laidOutGate.wait()
                laidOutGate.signal()
            }
            defer { if span == .belowLabels { lowerDrawn[index].signal() } }
            let rows = bands[index]
            // The band's view reaches a buffer beyond its rows, within the image, so that what
            // stands out of its features (circles, heatmap kernels) crosses into the band as it
            // would in the whole image: only the band's own rows are written.
            let topPoints = Double(rows.lowerBound) / scale
            let above = min(Self.bandBufferPoints, topPoints)
            let below = min(Self.bandBufferPoints, viewport.size.height - Double(rows.upperBound) / scale)
            let heightPoints = Double(rows.count) / scale + above + below
            let viewTop = topPoints - above
            // The band's centre, as far from the image's centre as in the view.
            let center = MapPoint(
                x: viewport.centerMapPoint.x,
                y: viewport.centerMapPoint.y + (viewTop + heightPoints / 2 - viewport.size.height / 2)
                    / viewport.zoomScale)
            do throws(RendererError) {
                var options = bandOptions
                // One band is the whole image: its view is the image's, as it was made.
                if bands.count > 1 {
                    do throws(MapCoreError) {
                        options.viewport = try Viewport(
                            centerMapPoint: center, zoomLevel: viewport.zoomLevel,
                            size: ViewSize(width: viewport.size.width, height: heightPoints), scale: scale)
                    } catch {
                        throw .canvas(reason: error.description)
                    }
                }
                let band = try Canvas(rows: rows, of: canvas, scale: scale, fonts: data.fonts)
                cairo_translate(band.cairo, 0, -above)
                // The band's own rows, where its layers' features must reach to be drawn.
                let drawn = viewport.mapRect(
                    for: ViewRect(x: 0, y: topPoints, width: viewport.size.width, height: Double(rows.count) / scale))
                var pass = RenderPass(
                    drawsMarkers: false, pendingPlacement: { () throws(RendererError) in try layOut().placement },
                    worldOrigin: ViewPoint(x: 0, y: viewTop), bandSharing: drawn.map(sharing.band(drawing:)) ?? sharing,
                    clipMarginPixels: bands.count > 1 ? RenderPass.tileClipMarginPixels : nil)
                pass.layerSpan = span
                try draw(options, pass: pass, in: band.cairo, pixelScale: nil)
                cairo_surface_flush(band.surface)
            } catch {
                results[item] = error
            }
        }
        cairo_surface_mark_dirty(canvas.surface)
        if let error = results.lazy.compactMap({ $0 }).first { throw error }
        var foreground = try layOut().foreground.wrappedValue
        // The callout was laid out on the layout's thread: it is laid out again on this one, as
        // the same text in the same context, because each thread's Pango layouts are its own
        // (`FontConfiguration.sharedLayout`): the layout's thread may be using them for another
        // render by now.
        foreground.callout = foreground.markers?.callout(style: options.style.mapwright, cairo: canvas.cairo)
        drawForeground(
            foreground, options, pass: RenderPass(), zoom: zoom, pixelScale: scale, cairo: canvas.cairo)
    }
}

/// An image's layout, made once for its bands: the foreground (markers and callout, drawn over
/// the whole image at the end) and the labels' placement, which the bands draw from.
struct LaidOutImage: Sendable {
    /// Read only by the thread that draws the whole image, after the bands.
    let foreground: UnsafeTransfer<MapSnapshotter.Foreground>
    let placement: TilePlacement
}
