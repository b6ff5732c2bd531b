import CCairo
import Foundation
import GeoData
import MapCore
import MapData
import MapStyle

extension StylePainter {
    /// Draws a fill-extrusion layer as MapLibre's GPU does, without one: every polygon is
    /// raised from `fill-extrusion-base` to `fill-extrusion-height` (metres) and seen through
    /// the view's perspective camera (flat views too: a roof appears a little larger than its
    /// footprint, as in MapLibre). The faces are rasterized at pixel centres, without
    /// antialiasing, into a depth buffer (see ``ExtrusionRaster``), so only the nearest face of
    /// each pixel shows; roofs are lit flat, walls with MapLibre's light and vertical gradient.
    /// The layer is then laid over the map at `fill-extrusion-opacity`. `fill-extrusion-translate`
    /// moves the buildings on the ground.
    ///
    /// `raster` holds the depths of the layers drawn before (nil before the first): as in GL,
    /// all extrusion layers share one depth buffer, so a building of an earlier layer hides
    /// the faces of later layers behind it, whatever their order.
    func drawExtrusions(_ extrusion: FillExtrusionLayer, layer: StyleLayer, raster shared: inout ExtrusionRaster?)
        throws(RendererError)
    {
        let opacity = extrusion.opacity.value(atZoom: zoomLevel)
        guard opacity > 0 else { return }
        let camera = ExtrusionCamera(viewport: viewport)
        // Buildings whose footprint lies off the view may lean into it: a margin of the view's size.
        let marginPoints = max(viewport.size.width, viewport.size.height)
        let margin = marginPoints / ZoomLevel.zoomScale(atZoomLevel: viewport.zoomLevel)
        let features = try unclippedFeatures(of: layer, in: visibleMapRect.insetBy(dx: -margin, dy: -margin))
        let light = style.light
        let bearing = viewport.camera.headingDegrees
        // GL translates the buildings on the ground: view axes at the ground, u right, v down.
        let translation = viewTranslation(
            extrusion.translate.value(atZoom: zoomLevel), anchor: extrusion.translateAnchor.value(atZoom: zoomLevel))
        var raster =
            shared ?? ExtrusionRaster(width: viewport.pixelWidth, height: viewport.pixelHeight, scale: viewport.scale)
        shared = nil  // one owner of the buffers while drawing: no copy on write
        defer {
            raster.clearColors()
            shared = raster
        }
        var textures: [String: PatternTexture] = [:]
        for feature in features where !feature.geometry.polygons.isEmpty {
            let values = feature.styleValues
            var pattern: ExtrusionPattern?
            if let property = extrusion.pattern {
                // A pattern no sprite has draws nothing, as in MapLibre.
                guard let (name, image) = namedPatternImage(property, properties: values) else { continue }
                let texture = textures[name] ?? image.texture
                textures[name] = texture
                pattern = ExtrusionPattern(
                    texture: texture, image: image, painter: self,
                    firstPoint: feature.geometry.polygons.first?.first?.first)
            }
            let color = extrusion.color.value(atZoom: zoomLevel, properties: values)
            let height = max(0, extrusion.height.value(atZoom: zoomLevel, properties: values))
            let base = min(height, max(0, extrusion.base.value(atZoom: zoomLevel, properties: values)))
            let roof = FillExtrusionLayer.litColor(color, normal: (0, 0, 1), light: light, bearingDegrees: bearing)
            let top = camera.points(metres: height)
            let bottom = camera.points(metres: base)
            for polygon in feature.geometry.polygons {
                let rings = polygon.map { ring in
                    ring.compactMap { point in
                        camera.ground(viewPoint(for: point)).map {
                            ExtrusionCamera.Ground(u: $0.u + translation.dx, v: $0.v + translation.dy)
                        }
                    }
                }
                .filter { $0.count >= 3 }
                guard !rings.isEmpty else { continue }
                if height > base {
                    for ring in rings {
                        drawWalls(
                            of: ring, from: bottom, to: top, color: color, base: base, height: height,
                            extrusion: extrusion,
                            camera: camera, pattern: pattern, raster: &raster)
                    }
                }
                let roofRings = rings.map { ring in ring.compactMap { camera.project($0, elevation: top) } }
                let depth = { (x: Double, y: Double) in camera.depthOnPlane(elevation: top, viewX: x, viewY: y) }
                guard let pattern else {
                    raster.fillPlanar(roofRings, color: roof, depth: depth)
                    continue
                }
                // GL's pattern on a roof: the image at the footprint's point under it, lit.
                let light = FillExtrusionLayer.patternLighting(normal: (0, 0, 1), light: light, bearingDegrees: bearing)
                raster.fillPlanar(
                    roofRings,
                    shade: { x, y in
                        guard let ground = camera.groundOnPlane(elevation: top, viewX: x, viewY: y) else { return 0 }
                        return pattern.shade(
                            ground: ExtrusionCamera.Ground(u: ground.u - translation.dx, v: ground.v - translation.dy),
                            camera: camera, light: light)
                    }, depth: depth)
            }
        }
        guard let surface = raster.surface() else { return }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_set_device_scale(surface, viewport.scale, viewport.scale)
        cairo_save(cairo)
        cairo_set_source_surface(cairo, surface, 0, 0)
        cairo_paint_with_alpha(cairo, opacity)
        cairo_restore(cairo)
    }

    /// Rasterizes the walls of one ring, each facing the camera: lit by its normal as GL lights
    /// it, its colour blended from bottom to top as MapLibre blends the vertical gradient.
    private func drawWalls(
        of ring: [ExtrusionCamera.Ground], from bottom: Double, to top: Double, color: Color, base: Double,
        height: Double,
        extrusion: FillExtrusionLayer, camera: ExtrusionCamera, pattern: ExtrusionPattern?,
        raster: inout ExtrusionRaster
    ) {
        let light = style.light
        let bearing = viewport.camera.headingDegrees
        // Ground offsets have v toward the bottom of the view: a positive area is clockwise on
        // screen, whose outward normals point left of each edge (on screen).
        var area = 0.0
        for index in ring.indices {
            let a = ring[index]
            let b = ring[(index + 1) % ring.count]
            area += a.u * b.v - b.u * a.v
        }
        let outwardSign: Double = area > 0 ? -1 : 1
        let gradient = extrusion.verticalGradient
        // How far along the ring each edge starts, in view points: GL's edge distance, which a
        // pattern on the walls runs along.
        var edgeStart = 0.0
        for index in ring.indices {
            let a = ring[index]
            let b = ring[(index + 1) % ring.count]
            let du = b.u - a.u
            let dv = b.v - a.v
            let length = (du * du + dv * dv).squareRoot()
            let start = edgeStart
            edgeStart += length
            guard length > 0 else { continue }
            // Outward normal on the ground, in view axes (u right, v down)...
            let nu = -dv / length * outwardSign
            let nv = du / length * outwardSign
            guard camera.faces(normalU: nu, normalV: nv, at: a, elevation: (bottom + top) / 2) else { continue }
            // ...and in map axes (east, south) for the light, turned inwards: GL lights a wall by
            // its edge's perpendicular, which points away from the side it shows (its light
            // vector points away from the light too, so walls facing the light are lit).
            let normal = camera.mapAxes(u: -nu, v: -nv)
            // MapLibre applies the gradient to walls whose normal has a north-south part.
            let graded = gradient && abs(normal.y) * 16384 >= 1
            func lit(_ t: Double) -> Color {
                let factor =
                    graded
                    ? FillExtrusionLayer.verticalGradientFactor(t: t, base: base, height: height, light: light) : 1
                return FillExtrusionLayer.litColor(
                    color, normal: (normal.x, normal.y, 0), light: light, bearingDegrees: bearing, gradient: factor)
            }
            let low = lit(0)
            let high = lit(1)
            guard let a0 = camera.project(a, elevation: bottom), let b0 = camera.project(b, elevation: bottom),
                let b1 = camera.project(b, elevation: top), let a1 = camera.project(a, elevation: top)
            else { continue }
            if let pattern {
                // GL's pattern on a wall: along the ring's edges by the x axis, up by the y axis.
                func lighting(_ t: Double) -> (red: Double, green: Double, blue: Double) {
                    let factor =
                        graded
                        ? FillExtrusionLayer.verticalGradientFactor(t: t, base: base, height: height, light: light) : 1
                    return FillExtrusionLayer.patternLighting(
                        normal: (normal.x, normal.y, 0), light: light, bearingDegrees: bearing, gradient: factor)
                }
                let lowLight = lighting(0)
                let highLight = lighting(1)
                raster.fillWall(
                    [a0, b0, b1, a1],
                    shade: { (hit: (along: Double, elevation: Double, t: Double)) in
                        let t = hit.t
                        let light = (
                            red: lowLight.red + (highLight.red - lowLight.red) * t,
                            green: lowLight.green + (highLight.green - lowLight.green) * t,
                            blue: lowLight.blue + (highLight.blue - lowLight.blue) * t
                        )
                        return pattern.shadeWall(
                            along: hit.along, elevationPoints: hit.elevation, camera: camera, light: light)
                    },
                    hit: { x, y in
                        camera.wallPoint(from: a, normalU: nu, normalV: nv, viewX: x, viewY: y).map { hit in
                            let along = start + ((hit.ground.u - a.u) * du + (hit.ground.v - a.v) * dv) / length
                            let t = top > bottom ? min(1, max(0, (hit.elevation - bottom) / (top - bottom))) : 0
                            return (depth: hit.depth, hit: (along: along, elevation: hit.elevation, t: t))
                        }
                    })
                continue
            }
            raster.fillWall([a0, b0, b1, a1], low: low, high: high) { x, y in
                camera.wallPoint(from: a, normalU: nu, normalV: nv, viewX: x, viewY: y).map { hit in
                    (depth: hit.depth, t: top > bottom ? min(1, max(0, (hit.elevation - bottom) / (top - bottom))) : 0)
                }
            }
        }
    }
}

/// MapLibre's camera, for points off the ground: the viewport's perspective (the eye 1.5 view
/// heights from the centre, tilted by the pitch) applied to points raised above the map.
///
/// A sprite pattern on extrusions as GL's `fill_extrusion_pattern` shader lays it: roofs take the
/// image at the footprint's point (fixed to the map at the tile zoom, from the world's corner,
/// as fills do); walls run it along the ring's edges from the ring's first vertex and up from
/// the ground, offset by the corner of the tile the building is in; the texel times the light.
struct ExtrusionPattern {
    let texture: PatternTexture
    /// Image pixels per map point at the tile zoom.
    let scale: Double
    /// The view centre's place in the image, in image pixels (wrapped).
    let centerU: Double, centerV: Double
    /// View points per map point at the view's zoom.
    let pointsPerMapPoint: Double
    /// Image pixels per view point along walls (the tile zoom's pixels over the style zoom's).
    let wallScale: Double
    /// Image pixels per metre up a wall, and the view points per metre.
    let pixelsPerMetre: Double
    /// The tile's corner in image pixels (wrapped), added on walls as GL adds it.
    let tileOffsetU: Double, tileOffsetV: Double

    init(texture: PatternTexture, image: StyleImage, painter: StylePainter, firstPoint: MapPoint?) {
        self.texture = texture
        let tileZoom = max(0, painter.zoomLevel.rounded(.down))
        let width = Double(texture.width)
        let height = Double(texture.height)
        let wrapped = StylePainter.wrapped
        scale = painter.patternPixelsPerMapPoint(image)
        let center = MapPoint(painter.viewport.camera.centerCoordinate)
        centerU = wrapped(center.x * scale, width)
        centerV = wrapped(center.y * scale, height)
        pointsPerMapPoint = ZoomLevel.zoomScale(atZoomLevel: painter.viewport.zoomLevel)
        wallScale = image.pixelRatio * exp2(tileZoom - painter.zoomLevel)
        pixelsPerMetre = image.pixelRatio * exp2(tileZoom) / 65536
        let tileSize = WebMercator.worldSize / exp2(tileZoom)
        let tileX = ((firstPoint?.x ?? 0) / tileSize).rounded(.down)
        let tileY = ((firstPoint?.y ?? 0) / tileSize).rounded(.down)
        tileOffsetU = wrapped(tileX * 512 * image.pixelRatio, width)
        tileOffsetV = wrapped(tileY * 512 * image.pixelRatio, height)
    }

    /// A roof's colour over a ground offset (its footprint's point, untranslated).
    func shade(
        ground: ExtrusionCamera.Ground, camera: ExtrusionCamera, light: (red: Double, green: Double, blue: Double)
    ) -> UInt32 {
        let map = camera.mapAxes(u: ground.u, v: ground.v)
        let u = centerU + map.x / pointsPerMapPoint * scale
        let v = centerV + map.y / pointsPerMapPoint * scale
        return lit(u: u, v: v, light: light)
    }

    /// A wall's colour `along` view points along its ring, `elevationPoints` up.
    func shadeWall(
        along: Double, elevationPoints: Double, camera: ExtrusionCamera,
        light: (red: Double, green: Double, blue: Double)
    ) -> UInt32 {
        let metres = elevationPoints / camera.pointsPerMetre
        return lit(u: tileOffsetU + along * wallScale, v: tileOffsetV - metres * pixelsPerMetre, light: light)
    }

    private func lit(u: Double, v: Double, light: (red: Double, green: Double, blue: Double)) -> UInt32 {
        var texel: (Float, Float, Float, Float) = (0, 0, 0, 0)
        texture.sample(x: u / Double(texture.width), y: v / Double(texture.height), into: &texel)
        return ExtrusionRaster.pack(
            premultiplied: (
                texel.0 * Float(light.red), texel.1 * Float(light.green), texel.2 * Float(light.blue), texel.3
            ))
    }
}

/// Ground offsets are view points from the view's centre in the ground plane, u to the right
/// and v towards the bottom of the view (after the heading); elevations are in view points
/// at the view's zoom, metres converted at the centre's latitude, as MapLibre converts them.
struct ExtrusionCamera {
    struct Ground { let u: Double, v: Double }

    let width: Double, height: Double
    /// The eye's distance from the centre, in view points.
    let distance: Double
    let sinPitch: Double, cosPitch: Double
    let sinHeading: Double, cosHeading: Double
    /// View points per metre of height.
    let pointsPerMetre: Double

    init(viewport: Viewport) {
        width = viewport.size.width
        height = viewport.size.height
        distance = Camera.centerDistanceInViewportHeights * viewport.size.height
        let pitch = viewport.camera.pitchDegrees * .pi / 180
        let heading = viewport.camera.headingDegrees * .pi / 180
        sinPitch = sin(pitch)
        cosPitch = cos(pitch)
        sinHeading = sin(heading)
        cosHeading = cos(heading)
        pointsPerMetre =
            1
            / ZoomLevel.metersPerPoint(
                atZoomLevel: viewport.zoomLevel, latitude: viewport.camera.centerCoordinate.latitude)
    }

    /// An elevation in metres, in view points.
    func points(metres: Double) -> Double { metres * pointsPerMetre }

    /// The ground offset of the ground point shown at a view point (the inverse of the
    /// viewport's projection); nil above the horizon.
    func ground(_ point: ViewPoint?) -> Ground? {
        guard let point else { return nil }
        let x = point.x - width / 2
        let y = point.y - height / 2
        let denominator = distance * cosPitch + y * sinPitch
        guard denominator > 0 else { return nil }
        let v = y * distance / denominator
        return Ground(u: x * (distance - v * sinPitch) / distance, v: v)
    }

    /// The view point of a ground offset raised by `elevation` view points; nil behind the eye.
    func project(_ ground: Ground, elevation: Double) -> ViewPoint? {
        let depth = distance - ground.v * sinPitch - elevation * cosPitch
        guard depth > distance * 0.01 else { return nil }
        return ViewPoint(
            x: width / 2 + distance * ground.u / depth,
            y: height / 2 + distance * (ground.v * cosPitch - elevation * sinPitch) / depth)
    }

    /// The ray from the eye through a view point: the eye and the direction in (u, v, z).
    private func ray(viewX: Double, viewY: Double) -> (
        eye: (Double, Double, Double), direction: (Double, Double, Double)
    ) {
        let x = viewX - width / 2
        let y = viewY - height / 2
        // Forward (0, −sin p, −cos p) × D, plus x along u, plus y along the view's down (0, cos p, −sin p).
        return (
            (0, distance * sinPitch, distance * cosPitch),
            (x, -distance * sinPitch + y * cosPitch, -distance * cosPitch - y * sinPitch)
        )
    }

    /// The depth (distance along the view axis) of the plane at `elevation` seen at a view
    /// point; infinity where the ray misses it.
    func depthOnPlane(elevation: Double, viewX: Double, viewY: Double) -> Double {
        let (eye, direction) = ray(viewX: viewX, viewY: viewY)
        guard direction.2 != 0 else { return .infinity }
        let s = (elevation - eye.2) / direction.2
        return s > 0 ? s * distance : .infinity
    }

    /// The ground offset under the point of the plane at `elevation` seen at a view point; nil
    /// where the ray misses it.
    func groundOnPlane(elevation: Double, viewX: Double, viewY: Double) -> Ground? {
        let (eye, direction) = ray(viewX: viewX, viewY: viewY)
        guard direction.2 != 0 else { return nil }
        let s = (elevation - eye.2) / direction.2
        return s > 0 ? Ground(u: eye.0 + s * direction.0, v: eye.1 + s * direction.1) : nil
    }

    /// Where the ray through a view point meets the vertical plane through `point` with
    /// ground normal (nu, nv): its depth, elevation and ground offset; nil when it runs along
    /// the plane.
    func wallPoint(
        from point: Ground, normalU: Double, normalV: Double, viewX: Double, viewY: Double
    ) -> (depth: Double, elevation: Double, ground: Ground)? {
        let (eye, direction) = ray(viewX: viewX, viewY: viewY)
        let denominator = normalU * direction.0 + normalV * direction.1
        guard abs(denominator) > 1e-12 else { return nil }
        let s = (normalU * (point.u - eye.0) + normalV * (point.v - eye.1)) / denominator
        guard s > 0 else { return nil }
        return (s * distance, eye.2 + s * direction.2, Ground(u: eye.0 + s * direction.0, v: eye.1 + s * direction.1))
    }

    /// Whether a wall through `point` with outward ground normal (nu, nv) faces the eye.
    func faces(normalU: Double, normalV: Double, at point: Ground, elevation: Double) -> Bool {
        // The eye lies at (0, D sin p, D cos p): the wall faces it when the eye is on its outer side.
        normalU * (0 - point.u) + normalV * (distance * sinPitch - point.v) > 0
    }

    /// A ground direction in view axes (u right, v down) in map axes (x east, y south).
    func mapAxes(u: Double, v: Double) -> (x: Double, y: Double) {
        (u * cosHeading - v * sinHeading, u * sinHeading + v * cosHeading)
    }
}

/// A software rasterizer with a depth buffer, for extrusions: faces are filled at pixel
/// centres (even-odd, no antialiasing, as GL fills triangles), a pixel taking the colour of
/// the nearest face; at equal depth the later face wins, as with GL's LEQUAL test.
struct ExtrusionRaster {
    let width: Int, height: Int
    /// Pixels per view point.
    let scale: Double
    private var depths: [Double]
    private var colors: [UInt32]

    init(width: Int, height: Int, scale: Double) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.scale = scale
        depths = [Double](repeating: .infinity, count: self.width * self.height)
        colors = [UInt32](repeating: 0, count: self.width * self.height)
    }

    /// Fills a planar face (a roof with its holes: view-point rings) in one colour; `depth`
    /// gives the face's depth at a view point.
    mutating func fillPlanar(_ rings: [[ViewPoint]], color: Color, depth: (Double, Double) -> Double) {
        let packed = Self.pack(color)
        fillPlanar(rings, shade: { _, _ in packed }, depth: depth)
    }

    /// Fills a planar face with the premultiplied ARGB `shade` gives at each view point.
    mutating func fillPlanar(
        _ rings: [[ViewPoint]], shade: (Double, Double) -> UInt32, depth: (Double, Double) -> Double
    ) {
        Self.scan(rings, width: width, height: height, scale: scale) { x, y, index in
            let d = depth(x, y)
            if d <= depths[index] {
                depths[index] = d
                colors[index] = shade(x, y)
            }
        }
    }

    /// Fills a wall's quad with the premultiplied ARGB `shade` gives for each hit; `hit` gives
    /// the depth at a view point and what `shade` reads.
    mutating func fillWall<Hit>(
        _ quad: [ViewPoint], shade: (Hit) -> UInt32, hit: (Double, Double) -> (depth: Double, hit: Hit)?
    ) {
        Self.scan([quad], width: width, height: height, scale: scale) { x, y, index in
            guard let point = hit(x, y), point.depth <= depths[index] else { return }
            depths[index] = point.depth
            colors[index] = shade(point.hit)
        }
    }

    /// Packs a premultiplied colour and alpha (0...1 each) as ARGB32.
    static func pack(premultiplied color: (Float, Float, Float, Float)) -> UInt32 {
        func byte(_ value: Float) -> UInt32 { UInt32(min(255, max(0, (value * 255).rounded()))) }
        let alpha = byte(color.3)
        return alpha << 24 | min(alpha, byte(color.0)) << 16 | min(alpha, byte(color.1)) << 8
            | min(alpha, byte(color.2))
    }

    /// Fills a wall's quad, its colour blended from `low` (t = 0) to `high` (t = 1); `hit` gives
    /// the depth and t at a view point.
    mutating func fillWall(
        _ quad: [ViewPoint], low: Color, high: Color, hit: (Double, Double) -> (depth: Double, t: Double)?
    ) {
        Self.scan([quad], width: width, height: height, scale: scale) { x, y, index in
            guard let point = hit(x, y), point.depth <= depths[index] else { return }
            depths[index] = point.depth
            let t = point.t
            colors[index] = Self.pack(
                Color(
                    red: low.red + (high.red - low.red) * t, green: low.green + (high.green - low.green) * t,
                    blue: low.blue + (high.blue - low.blue) * t))
        }
    }

    /// Calls `body` with the view point and buffer index of every pixel whose centre lies inside
    /// the rings (even-odd).
    private static func scan(
        _ rings: [[ViewPoint]], width: Int, height: Int, scale: Double, _ body: (Double, Double, Int) -> Void
    ) {
        let scaled = rings.map { $0.map { (x: $0.x * scale, y: $0.y * scale) } }
        let ys = scaled.joined().map(\.y)
        guard let minY = ys.min(), let maxY = ys.max() else { return }
        let firstRow = max(0, Int((minY - 0.5).rounded(.up)))
        let lastRow = min(height - 1, Int((maxY - 0.5).rounded(.down)))
        guard firstRow <= lastRow else { return }
        var crossings: [Double] = []
        for row in firstRow...lastRow {
            let y = Double(row) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for ring in scaled where ring.count >= 3 {
                for index in ring.indices {
                    let a = ring[index]
                    let b = ring[(index + 1) % ring.count]
                    // Half-open in y, so a vertex on the row counts once.
                    guard (a.y <= y) != (b.y <= y) else { continue }
                    crossings.append(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x))
                }
            }
            crossings.sort()
            var pair = 0
            while pair + 1 < crossings.count {
                let first = max(0, Int((crossings[pair] - 0.5).rounded(.up)))
                let last = min(width - 1, Int((crossings[pair + 1] - 0.5).rounded(.up)) - 1)
                if first <= last {
                    for column in first...last {
                        body((Double(column) + 0.5) / scale, y / scale, row * width + column)
                    }
                }
                pair += 2
            }
        }
    }

    /// Forgets the colours drawn, keeping the depths: the next layer draws only what lies
    /// nearer than every face drawn so far.
    mutating func clearColors() {
        for index in colors.indices { colors[index] = 0 }
    }

    private static func pack(_ color: Color) -> UInt32 {
        func byte(_ value: Double) -> UInt32 { UInt32(min(255, max(0, (value * 255).rounded()))) }
        return 0xFF00_0000 | byte(color.red) << 16 | byte(color.green) << 8 | byte(color.blue)
    }

    /// The faces drawn as an ARGB32 surface (opaque where a face is, clear elsewhere); nil when
    /// nothing was drawn or Cairo cannot make the surface.
    func surface() -> OpaquePointer? {
        guard colors.contains(where: { $0 != 0 }),
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else {
            cairo_surface_destroy(surface)
            return nil
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        colors.withUnsafeBufferPointer { colors in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width { row[x] = colors[y * width + x] }
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
