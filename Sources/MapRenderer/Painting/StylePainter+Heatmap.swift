import CCairo
import Foundation
import GeoData
import MapCore
import MapStyle

extension StylePainter {
    /// Draws a heatmap layer as MapLibre does: each point of each feature (and each vertex of
    /// its lines and polygons) adds its kernel to a density grid at a quarter of the view's
    /// resolution (see ``HeatmapDensity``); the density, filtered up to full resolution, picks
    /// a colour from the layer's 256-colour ramp, and the result is laid over the map at the
    /// layer's opacity. Points up to a kernel's reach outside the view count. In a pitched view
    /// the kernels lie on the ground (see ``HeatmapDensity/add(groundCenter:radius:weight:cellGround:cells:)``)
    /// and the density is still gathered and coloured on the screen, as in GL.
    func drawHeatmap(_ heatmap: HeatmapLayer, layer: StyleLayer) throws(RendererError) {
        let opacity = heatmap.opacity.value(atZoom: zoomLevel)
        guard opacity > 0 else { return }
        let intensity = heatmap.intensity.value(atZoom: zoomLevel)
        // Far enough for the widest kernel: a constant radius's reach at this intensity, or a
        // generous 3 radii of 100 points for data-driven ones.
        let reachPoints =
            heatmap.radius.isDataDriven || heatmap.weight.isDataDriven
            ? 300
            : heatmap.radius.value(atZoom: zoomLevel)
                * (HeatmapDensity.reach(weight: heatmap.weight.value(atZoom: zoomLevel) * intensity) ?? 0)
        let margin = (reachPoints + 4) / ZoomLevel.zoomScale(atZoomLevel: viewport.zoomLevel)
        let features = try unclippedFeatures(of: layer, in: visibleMapRect.insetBy(dx: -margin, dy: -margin))
        let scale = viewport.scale
        var density = HeatmapDensity(pixelWidth: viewport.pixelWidth, pixelHeight: viewport.pixelHeight)
        if viewport.camera.pitchDegrees > 0 {
            addGroundKernels(of: features, heatmap: heatmap, intensity: intensity, to: &density)
        } else {
            addKernels(of: features, heatmap: heatmap, intensity: intensity, to: &density)
        }
        guard
            let surface = HeatmapImage.surface(
                density: density, ramp: heatmap.colorRamp(atZoom: zoomLevel), opacity: opacity)
        else { return }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_set_device_scale(surface, scale, scale)
        cairo_save(cairo)
        cairo_set_source_surface(cairo, surface, 0, 0)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }

    /// A flat view's kernels: circles of `heatmap-radius` points on the screen.
    private func addKernels(
        of features: [PreparedFeature], heatmap: HeatmapLayer, intensity: Double, to density: inout HeatmapDensity
    ) {
        let scale = viewport.scale
        for feature in features {
            let values = feature.styleValues
            let radius = heatmap.radius.value(atZoom: zoomLevel, properties: values) * scale
            let weight = heatmap.weight.value(atZoom: zoomLevel, properties: values) * intensity
            let geometry = feature.geometry
            for center in geometry.points + geometry.lines.joined() + geometry.polygons.joined().joined() {
                guard let point = viewport.unwrappedPoint(for: center) else { continue }
                density.add(x: point.x * scale, y: point.y * scale, radius: radius, weight: weight)
            }
        }
    }

    /// A pitched view's kernels: GL lays them on the ground, `heatmap-radius` points at the
    /// view's zoom, and weighs each cell of its density texture by the ground distance of the
    /// point that cell shows.
    private func addGroundKernels(
        of features: [PreparedFeature], heatmap: HeatmapLayer, intensity: Double, to density: inout HeatmapDensity
    ) {
        let scale = viewport.scale
        var cellGround: [(u: Double, v: Double)?] = []
        cellGround.reserveCapacity(density.width * density.height)
        for row in 0..<density.height {
            for column in 0..<density.width {
                cellGround.append(
                    viewport.groundPoint(
                        for: ViewPoint(
                            x: (Double(column) + 0.5) * density.cellWidth / scale,
                            y: (Double(row) + 0.5) * density.cellHeight / scale)))
            }
        }
        let top = viewport.visibleGroundTopViewY
        for feature in features {
            let values = feature.styleValues
            let radius = heatmap.radius.value(atZoom: zoomLevel, properties: values)
            let weight = heatmap.weight.value(atZoom: zoomLevel, properties: values) * intensity
            guard let reach = HeatmapDensity.reach(weight: weight) else { continue }
            let extent = reach * radius
            let geometry = feature.geometry
            for center in geometry.points + geometry.lines.joined() + geometry.polygons.joined().joined() {
                guard let point = viewport.unwrappedPoint(for: center), let ground = viewport.groundPoint(for: point)
                else { continue }
                // The cells under the view box of the kernel's ground square.
                var minX = Double.infinity
                var minY = Double.infinity
                var maxX = -Double.infinity
                var maxY = -Double.infinity
                for (du, dv) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
                    guard
                        let corner = viewport.unwrappedPoint(
                            for: viewport.mapPoint(forGroundOffset: (ground.u + du * extent, ground.v + dv * extent)))
                    else {
                        minY = top
                        continue
                    }
                    minX = min(minX, corner.x)
                    maxX = max(maxX, corner.x)
                    minY = min(minY, corner.y)
                    maxY = max(maxY, corner.y)
                }
                guard minX.isFinite, maxX.isFinite, maxY.isFinite else { continue }
                let firstColumn = Int((minX * scale / density.cellWidth - 0.5).rounded(.down))
                let lastColumn = Int((maxX * scale / density.cellWidth - 0.5).rounded(.up))
                let firstRow = Int((max(minY, top) * scale / density.cellHeight - 0.5).rounded(.down))
                let lastRow = Int((maxY * scale / density.cellHeight - 0.5).rounded(.up))
                guard firstColumn <= lastColumn, firstRow <= lastRow else { continue }
                density.add(
                    groundCenter: ground, radius: radius, weight: weight, cellGround: cellGround,
                    cells: (firstColumn...lastColumn, firstRow...lastRow))
            }
        }
    }
}

/// A heatmap's density coloured by its ramp, as an image to lay over the map.
enum HeatmapImage {
    /// The colour of a density: the ramp (colours for densities 0...1 at equal steps, as GL's
    /// ramp texture holds them) filtered linearly between its two nearest entries, densities
    /// above 1 taking the last. The result is not premultiplied.
    static func color(density: Double, ramp: [Color]) -> (red: Double, green: Double, blue: Double, alpha: Double) {
        let position = min(Double(ramp.count - 1), max(0, density * Double(ramp.count) - 0.5))
        let lower = Int(position.rounded(.down))
        let upper = min(ramp.count - 1, lower + 1)
        let fraction = position - Double(lower)
        let a = ramp[lower]
        let b = ramp[upper]
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * fraction }
        return (mix(a.red, b.red), mix(a.green, b.green), mix(a.blue, b.blue), mix(a.alpha, b.alpha))
    }

    /// An ARGB32 surface of the density's size in pixels, each pixel the ramp's colour at the
    /// layer's opacity (premultiplied, as GL uploads its ramp). Nil when Cairo cannot make the
    /// surface.
    static func surface(density: HeatmapDensity, ramp: [Color], opacity: Double) -> OpaquePointer? {
        let width = Int((Double(density.width) * density.cellWidth).rounded())
        let height = Int((Double(density.height) * density.cellHeight).rounded())
        guard ramp.count >= 2,
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        else {
            return nil
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else {
            cairo_surface_destroy(surface)
            return nil
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        func byte(_ value: Double) -> UInt32 { UInt32(min(255, max(0, (value * opacity * 255).rounded()))) }
        for y in 0..<height {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let color = color(density: density.sample(pixelX: x, pixelY: y), ramp: ramp)
                row[x] =
                    byte(color.alpha) << 24 | byte(color.red * color.alpha) << 16 | byte(color.green * color.alpha) << 8
                    | byte(color.blue * color.alpha)
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
