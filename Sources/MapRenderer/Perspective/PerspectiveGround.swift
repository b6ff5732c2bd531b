import CCairo
import Foundation
import MapCore
import MapStyle
import MapUtilities

/// The ground of a pitched view, drawn without a GPU: the flat map rendered over the ground the
/// view sees, then warped into perspective, with the sky above the horizon.
///
/// The flat map is rendered as a chain of levels, like a texture's mipmaps: level k is a flat
/// render at zoom z − k (z the view's zoom) of the same heading, covering the rows of the view
/// that need it, so the near ground is drawn in full detail and the far ground, which the view
/// shrinks, from the map a zoom or more out (as MapLibre draws far tiles at lower zooms).
/// Level 0 is rendered at the resolution of the nearest row (up to 4 pixels per point), so
/// the foreground stays crisp.
///
/// Each pixel of the view then samples the levels through the camera's homography (see
/// ``PerspectiveSampler``): trilinear filtering between the two levels nearest the pixel's
/// footprint, and up to ``PerspectiveSampler/maximumTaps`` anisotropic taps along the footprint's
/// long side, so the foreshortened distance neither aliases nor shimmers from frame to frame.
/// Labels, markers and the callout are not part of the ground: the snapshotter draws them
/// upright over it.
struct PerspectiveGround {
    /// The pitched view.
    let viewport: Viewport
    /// Pixels per point of the ground image: the viewport's scale for images, more for vector
    /// output, where the ground is embedded as an image.
    let outputScale: Double

    /// The largest level image side, in pixels: levels wider than this are rendered coarser.
    static let maximumLevelPixels = 8192
    /// The most levels below the view's zoom: 8 (a 256th of the detail).
    static let maximumLevelCount = 9

    /// One level: a flat render over the ground some rows of the view see.
    struct Level {
        /// k: the level's zoom is the view's minus k.
        let index: Int
        /// The flat viewport rendered: zoom z − k, the view's heading, no pitch.
        let viewport: Viewport
        /// The ground offset (see ``Viewport/groundPoint(for:)``) of the image's top-left
        /// corner, in points at the view's zoom.
        let originU: Double
        let originV: Double
        /// Level pixels per point at the view's zoom: scale / 2^k.
        let pixelsPerGroundPoint: Double
    }

    /// Renders the ground of `options` into a new image surface the size of the view at
    /// ``outputScale`` (its device scale set, so it paints at (0, 0) in view points).
    ///
    /// - Parameters:
    ///   - snapshotter: Draws each level: the style's ground layers and the overlays.
    ///   - sky: The colours above the horizon and of the fog.
    /// - Returns: A Cairo image surface the caller destroys.
    func render(_ options: MapSnapshotOptions, snapshotter: MapSnapshotter, sky: SkyColors) throws(RendererError)
        -> OpaquePointer
    {
        let width = Int((viewport.size.width * outputScale).rounded())
        let height = Int((viewport.size.height * outputScale).rounded())
        let rows = PerspectiveRows(viewport: viewport, outputScale: outputScale)
        let levels = try plannedLevels(rows: rows)

        // The levels render on every core: each is an independent flat render.
        let results = UnsafeMutableBufferPointer<Result<Canvas, RendererError>?>.allocate(capacity: levels.count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        // Each level writes only its own slot of `results`; the levels and options are only read.
        let shared = UnsafeTransfer((results, levels, options))
        DispatchQueue.concurrentPerform(iterations: levels.count) { index in
            let (results, levels, options) = shared.wrappedValue
            let level = levels[index]
            results[index] = Result { () throws(RendererError) -> Canvas in
                let canvas = try Canvas(
                    widthPoints: level.viewport.size.width, heightPoints: level.viewport.size.height,
                    scale: level.viewport.scale, target: .image, fonts: snapshotter.data.fonts)
                var flat = options
                flat.viewport = level.viewport
                flat.markers = nil
                flat.showsAttribution = false
                // The levels are filtered down anyway: Cairo's faster antialiasing costs nothing
                // visible and a fifth of the time.
                cairo_set_antialias(canvas.cairo, CAIRO_ANTIALIAS_FAST)
                try snapshotter.draw(
                    flat, pass: RenderPass(drawsLabels: false, drawsMarkers: false, drawsPerspectiveLayers: false),
                    in: canvas.cairo, pixelScale: nil)
                cairo_surface_flush(canvas.surface)
                return canvas
            }
        }
        var canvases: [Canvas] = []
        for result in results { canvases.append(try result!.get()) }

        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else { throw .canvas(reason: "Cairo could not create a \(width)x\(height) image for the ground") }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let textures = zip(levels, canvases).map { level, canvas in
            PerspectiveSampler.Texture(level: level, canvas: canvas)
        }
        let sampler = PerspectiveSampler(rows: rows, textures: textures, sky: sky, width: width)
        sampler.fill(data, stride: stride, height: height)
        cairo_surface_mark_dirty(surface)
        cairo_surface_set_device_scale(surface, outputScale, outputScale)
        withExtendedLifetime(canvases) {}
        return surface
    }

    /// The levels the view's rows need, each over the ground of its rows with room for its
    /// filter's reach.
    func plannedLevels(rows: PerspectiveRows) throws(RendererError) -> [Level] {
        guard let first = rows.firstGroundRow else { return [] }
        let last = rows.count - 1
        let topLevel = min(
            Int(rows.levelOfDetail(row: first).rounded(.down)) + 1, Int(viewport.zoomLevel.rounded(.down)),
            Self.maximumLevelCount - 1)
        var levels: [Level] = []
        for index in 0...max(0, topLevel) {
            // The rows that sample this level: those of its octave of detail, and those of the
            // octave below where it blends in (see PerspectiveSampler.blendStart).
            let needed = (first...last).filter { row in
                let detail = min(rows.levelOfDetail(row: row), Double(topLevel))
                let from = Double(index) - 1 + PerspectiveSampler.blendStart
                return detail >= from && detail < Double(index) + 1 || (index == topLevel && detail >= from)
            }
            guard let top = needed.first, let bottom = needed.last else { continue }
            levels.append(try level(index, rows: rows, top: top, bottom: bottom))
        }
        return levels
    }

    /// Level `index` over the ground seen by rows `top...bottom`.
    private func level(_ index: Int, rows: PerspectiveRows, top: Int, bottom: Int) throws(RendererError) -> Level {
        let levelFactor = Double(1 << index)
        var pixelScale = rows.baseScale
        let topEdge = rows.ground(atPixelY: Double(top))
        let bottomEdge = rows.ground(atPixelY: Double(bottom + 1))
        let topFootprint = rows.footprint(row: top)
        let bottomFootprint = rows.footprint(row: bottom)
        // Room for the taps' spread and bilinear filtering, two texels of this level.
        func margin(_ footprint: (u: Double, v: Double)) -> Double {
            max(footprint.u, footprint.v) / 2 + 2 * levelFactor / pixelScale
        }
        var minV = topEdge.v - margin(topFootprint)
        var maxV = bottomEdge.v + margin(bottomFootprint)
        var halfWidthU = (viewport.size.width / 2 + 1 / outputScale) / topEdge.scale + margin(topFootprint)
        // Too large a level is rendered coarser (very wide views at steep pitches).
        while max(2 * halfWidthU, maxV - minV) * pixelScale / levelFactor > Double(Self.maximumLevelPixels),
            pixelScale > 1
        {
            pixelScale = max(1, pixelScale * 0.75)
            minV = topEdge.v - margin(topFootprint)
            maxV = bottomEdge.v + margin(bottomFootprint)
            halfWidthU = (viewport.size.width / 2 + 1 / outputScale) / topEdge.scale + margin(topFootprint)
        }
        let pixelWidth = min(Self.maximumLevelPixels, Int((2 * halfWidthU * pixelScale / levelFactor).rounded(.up)))
        let pixelHeight = min(Self.maximumLevelPixels, Int(((maxV - minV) * pixelScale / levelFactor).rounded(.up)))
        // Whole pixels: the level's centre falls exactly where the sampler expects it.
        let size = ViewSize(width: Double(pixelWidth) / pixelScale, height: Double(pixelHeight) / pixelScale)
        let originU = -size.width * levelFactor / 2
        let originV = minV
        let center = viewport.mapPoint(forGroundOffset: (u: 0, v: originV + size.height * levelFactor / 2))
        let zoomLevel = viewport.zoomLevel - Double(index)
        let flat: Viewport
        do {
            // The centre may lie beyond the poles (far ground at low zooms): nothing is drawn there.
            flat = try Viewport(
                centerMapPoint: center, zoomLevel: zoomLevel, size: size, scale: pixelScale,
                headingDegrees: viewport.camera.headingDegrees)
        } catch {
            throw .canvas(reason: "the ground at zoom \(zoomLevel) cannot be drawn: \(error)")
        }
        return Level(
            index: index, viewport: flat, originU: originU, originV: originV,
            pixelsPerGroundPoint: pixelScale / levelFactor)
    }
}

/// What each row of a pitched view sees: its ground, its scale, the footprint of its pixels on
/// the ground and the level of detail they need.
struct PerspectiveRows {
    let viewport: Viewport
    let outputScale: Double
    /// Rows of the ground image.
    let count: Int
    /// The first row that shows ground (below the visible-ground limit); nil when none does.
    let firstGroundRow: Int?
    /// Pixels per point of level 0: the view's scale raised so that the nearest row is not
    /// magnified, up to 4.
    let baseScale: Double
    let cosPitch: Double

    /// The most texture samples one pixel averages along its footprint: 8.
    static let maximumTaps = 8

    init(viewport: Viewport, outputScale: Double) {
        self.viewport = viewport
        self.outputScale = outputScale
        count = Int((viewport.size.height * outputScale).rounded())
        cosPitch = cos(viewport.camera.pitchDegrees * .pi / 180)
        let top = viewport.visibleGroundTopViewY * outputScale
        let first = max(0, Int((top - 0.5).rounded(.up)))
        firstGroundRow = first < count ? first : nil
        // The nearest row's footprint decides level 0's resolution.
        let nearest = viewport.perspectiveScale(atViewY: viewport.size.height) ?? 1
        let magnification = max(nearest, nearest * nearest * cosPitch)
        baseScale = min(4, max(outputScale, outputScale * magnification))
    }

    /// The ground offset and scale at a pixel row's y (pixel units; row r's centre is r + 0.5).
    func ground(atPixelY y: Double) -> (v: Double, scale: Double) {
        let yPoints = y / outputScale
        let scale = viewport.perspectiveScale(atViewY: yPoints) ?? 1e-9
        let v = viewport.groundPoint(for: ViewPoint(x: viewport.size.width / 2, y: yPoints))?.v ?? -1e12
        return (v, scale)
    }

    /// How much ground one pixel of a row covers, in points at the view's zoom: across (u) and
    /// up the view (v).
    func footprint(row: Int) -> (u: Double, v: Double) {
        let scale = ground(atPixelY: Double(row) + 0.5).scale
        return (1 / (scale * outputScale), 1 / (scale * scale * cosPitch * outputScale))
    }

    /// The level of detail a row's pixels need: log2 of the texels of level 0 under the
    /// footprint's short side, or its long side over ``maximumTaps``, whichever is more; 0 or more.
    func levelOfDetail(row: Int) -> Double {
        let footprint = self.footprint(row: row)
        let minor = min(footprint.u, footprint.v) * baseScale
        let major = max(footprint.u, footprint.v) * baseScale
        return max(0, log2(max(minor, major / Double(Self.maximumTaps))))
    }
}
