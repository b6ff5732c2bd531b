import CCairo
import CRaster
import Foundation
import MapCore
import MapData
import MapStyle
import MapUtilities
import Synchronization

/// Draws ``LineMesh``es onto an image canvas as MapLibre's line shader does, where Cairo's
/// stroker differs: a pixel is drawn when its centre lies in one of the mesh's triangles (each
/// pixel once along an edge two triangles share), and its alpha comes from its distance to the
/// line's centre, with a one-pixel ramp at the edge (GL's ANTIALIASING, half a pixel out), so a
/// butt end is sharp, a round cap is cut from a square, `line-blur` fades linearly and
/// `line-gap-width` leaves a gap. The coverage of one colour is accumulated in a mask (a triangle
/// over another blends as GL blends it) and painted once, within the context's clip.
///
/// Only image canvases: a PDF or SVG keeps Cairo's strokes.
struct LineRasteriser {
    /// How a mesh is widened and shaded: GL's line uniforms, in view points.
    struct Shading {
        /// `line-width`. The default is 1.
        var widthPoints = 1.0
        /// `line-gap-width`. The default is 0.
        var gapWidthPoints = 0.0
        /// `line-offset`, right of the line's direction when positive. The default is 0.
        var offsetPoints = 0.0
        /// `line-blur`. The default is 0.
        var blurPoints = 0.0
        /// The alpha the mask gets where a fragment is fully inside (colour alpha × opacity).
        var alpha = 1.0
        /// The dashes, if any. The default is nil, a solid line.
        var dash: Dash?
        /// `line-gradient`'s ramp (colours from the line's start to its end, premultiplied and
        /// sampled linearly as GL's texture), replacing the colour; its alpha multiplies
        /// ``alpha``. The default is nil.
        var gradient: [Color]?
        /// `line-pattern`'s image, replacing the colour; ``alpha`` is the opacity. The default is nil.
        var pattern: Pattern?
    }

    /// A line's pattern as GL's `line_pattern` shader lays it: the image at its own size,
    /// repeated along the line from its start, centred across it (a line narrower than the image
    /// shows the middle rows, one wider repeats the wrapped border), sampled bilinearly.
    struct Pattern {
        /// The image.
        var texture: PatternTexture
        /// One period along the line (the image's width), in view points.
        var periodPoints: Double
        /// The image's height, in view points.
        var heightPoints: Double
    }

    /// A dashed line's pattern as GL's `line_sdf` shader applies it.
    struct Dash {
        /// The pattern's distance field.
        var field: LineDashField
        /// One period of the pattern along the line, in view points.
        var periodPoints: Double
        /// Half the width of the fade at a dash's end, in the field's units (0...1).
        var gamma: Double
    }

    /// Whether `cairo` draws into an image, where this rasteriser can draw.
    static func canDraw(on cairo: OpaquePointer) -> Bool {
        cairo_surface_get_type(cairo_get_target(cairo)) == CAIRO_SURFACE_TYPE_IMAGE
    }

    /// Draws `mesh`, widened and shaded by `shading`, in `color` (whose alpha is in
    /// `shading`) onto `cairo`'s context, within its clip: the fragments' coverage is gathered
    /// in a mask over the mesh's device bounds, then the colour painted through it once.
    ///
    /// - Parameters:
    ///   - scratch: The coverage buffer, reused from one call to the next (one per render, never
    ///     shared between threads). The default is a new one.
    ///   - compositesDirectly: Whether a solid line's colour may go straight onto the pixels where
    ///     that gives Cairo's bytes (see `compositeDirectly`). The default is true; false always
    ///     paints through Cairo (the tests compare the two).
    static func draw(
        _ mesh: LineMesh, shading: Shading, color: Color, on cairo: OpaquePointer, scratch: Scratch = Scratch(),
        compositesDirectly: Bool = true
    ) {
        guard !mesh.triangles.isEmpty else { return }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        let pixelsPerPoint = abs(matrix.xx * matrix.yy - matrix.xy * matrix.yx).squareRoot()
        guard pixelsPerPoint > 0 else { return }
        let antialiasing = 0.5 / pixelsPerPoint
        let halfWidth = shading.widthPoints / 2
        let halfGap = shading.gapWidthPoints / 2
        let inset = halfGap + (halfGap > 0 ? antialiasing : 0)
        let outset = halfGap + halfWidth * (halfGap > 0 ? 2 : 1) + (halfWidth == 0 ? 0 : antialiasing)
        let blur = shading.blurPoints + 1 / pixelsPerPoint
        let offset = -shading.offsetPoints
        // GL's vertex shader: each vertex moved out by the outset along its extrusion, and
        // sideways by the offset; the fragment's normal (round flag, side) is interpolated.
        var device = scratch.corners
        scratch.corners = []
        device.removeAll(keepingCapacity: true)
        device.reserveCapacity(mesh.vertices.count)
        // Kept for the next layer unless a very long line made it large (see Scratch.keptMeshVertices).
        defer { scratch.corners = device.capacity <= Scratch.keptMeshVertices ? device : [] }
        for vertex in mesh.vertices {
            let side: Double = vertex.up ? 1 : -1
            let u = 0.5 * vertex.direction
            let t = 1 - abs(u)
            let lean = offset * side
            let offsetX = lean * (vertex.extrudeX * t - vertex.extrudeY * u)
            let offsetY = lean * (vertex.extrudeX * u + vertex.extrudeY * t)
            let x = vertex.position.x + offsetX + outset * vertex.extrudeX
            let y = vertex.position.y + offsetY + outset * vertex.extrudeY
            device.append(
                Corner(
                    x: Self.snapped(matrix.xx * x + matrix.xy * y + matrix.x0),
                    y: Self.snapped(matrix.yx * x + matrix.yy * y + matrix.y0),
                    nx: vertex.round ? 1 : 0, ny: side,
                    along: vertex.distancePoints / (shading.dash?.periodPoints ?? shading.pattern?.periodPoints ?? 1),
                    progress: vertex.progress))
        }
        // The mask covers the mesh's device bounds within the clip.
        var clipX1 = 0.0
        var clipY1 = 0.0
        var clipX2 = 0.0
        var clipY2 = 0.0
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        cairo_clip_extents(cairo, &clipX1, &clipY1, &clipX2, &clipY2)
        cairo_restore(cairo)
        var minX = clipX2
        var minY = clipY2
        var maxX = clipX1
        var maxY = clipY1
        for point in device where point.x.isFinite && point.y.isFinite {
            minX = min(minX, point.x)
            maxX = max(maxX, point.x)
            minY = min(minY, point.y)
            maxY = max(maxY, point.y)
        }
        let originX = Int(max(minX, clipX1).rounded(.down))
        let originY = Int(max(minY, clipY1).rounded(.down))
        let width = Int(min(maxX, clipX2).rounded(.up)) - originX
        let height = Int(min(maxY, clipY2).rounded(.up)) - originY
        guard width > 0, height > 0, width * height < 1 << 28 else { return }
        for index in device.indices {
            device[index].x -= Double(originX)
            device[index].y -= Double(originY)
        }
        let alphaScale = Float(shading.alpha)
        // GL's gradient texture holds premultiplied colours.
        let ramp: [[Float]]? = shading.gradient.map {
            $0.map {
                [Float($0.red * $0.alpha), Float($0.green * $0.alpha), Float($0.blue * $0.alpha), Float($0.alpha)]
            }
        }
        // The coverage (or, with a gradient, premultiplied RGBA) of every pixel of the bounds;
        // only the blocks a triangle reaches are touched.
        let pattern = shading.pattern
        // How far across the image the line's edge reaches: its outset, at most half the image
        // and a pixel, over the image's height.
        let patternSpan = pattern.map { min(outset, ($0.heightPoints + 2) / 2) / $0.heightPoints } ?? 0
        let channels = ramp == nil && pattern == nil ? 1 : 4
        // Mapped for the whole clip at once, so that a scratch grows once per render size rather
        // than for each larger line (each new mapping is faulted in again).
        let clipPixels = Int((clipX2 - clipX1).rounded(.up) + 1) * Int((clipY2 - clipY1).rounded(.up) + 1)
        guard
            let buffer = scratch.buffer(
                width: width, height: height, channels: channels, reserving: clipPixels * channels)
        else { return }
        defer { buffer.clear() }
        let mask = buffer.values
        let colors = buffer.values
        let dash = shading.dash
        // A solid line's spans are shaded in C on vector units, a dashed one's in C (the same
        // arithmetic, its field's rows laid end to end for it).
        let solid = dash == nil && pattern == nil && ramp == nil
        let dashedField: UnsafeMutableBufferPointer<Float>? =
            pattern == nil && ramp == nil
            ? dash.map { .allocate(capacity: $0.field.rows.count * LineDashField.widthTexels) } : nil
        if let dashedField, let dash {
            _ = dashedField.initialize(from: dash.field.rows.joined())
        }
        defer { dashedField?.deallocate() }
        let insetMinusBlur = inset - blur
        for (i0, i1, i2) in mesh.triangles {
            var a = device[Int(i0)]
            var b = device[Int(i1)]
            var c = device[Int(i2)]
            // Sorted top to bottom (then left to right), so an edge two triangles share is
            // evaluated alike in both.
            func before(_ p: Corner, _ q: Corner) -> Bool {
                p.y < q.y || (p.y == q.y && p.x < q.x)
            }
            if before(b, a) { swap(&a, &b) }
            if before(c, b) { swap(&b, &c) }
            if before(b, a) { swap(&a, &b) }
            let determinant = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)
            guard determinant != 0, determinant.isFinite else { continue }
            let nxDX = ((b.nx - a.nx) * (c.y - a.y) - (c.nx - a.nx) * (b.y - a.y)) / determinant
            let nxDY = ((c.nx - a.nx) * (b.x - a.x) - (b.nx - a.nx) * (c.x - a.x)) / determinant
            let nyDX = ((b.ny - a.ny) * (c.y - a.y) - (c.ny - a.ny) * (b.y - a.y)) / determinant
            let nyDY = ((c.ny - a.ny) * (b.x - a.x) - (b.ny - a.ny) * (c.x - a.x)) / determinant
            let alongDX = ((b.along - a.along) * (c.y - a.y) - (c.along - a.along) * (b.y - a.y)) / determinant
            let alongDY = ((c.along - a.along) * (b.x - a.x) - (b.along - a.along) * (c.x - a.x)) / determinant
            let progressDX =
                ((b.progress - a.progress) * (c.y - a.y) - (c.progress - a.progress) * (b.y - a.y)) / determinant
            let progressDY =
                ((c.progress - a.progress) * (b.x - a.x) - (b.progress - a.progress) * (c.x - a.x)) / determinant
            let firstRow = max(0, Int((a.y - 0.5).rounded(.up)))
            let endRow = min(height, Int((c.y - 0.5).rounded(.up)))
            guard firstRow < endRow else { continue }
            for row in firstRow..<endRow {
                let y = Double(row) + 0.5
                let long = a.x + (y - a.y) * (c.x - a.x) / (c.y - a.y)
                let short =
                    y < b.y
                    ? a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
                    : b.x + (y - b.y) * (c.x - b.x) / (c.y - b.y)
                let left = min(long, short)
                let right = max(long, short)
                let firstColumn = max(0, Int((left - 0.5).rounded(.up)))
                let endColumn = min(width, Int((right - 0.5).rounded(.up)))
                guard firstColumn < endColumn else { continue }
                buffer.touch(row: row, columns: firstColumn..<endColumn)
                let x0 = Double(firstColumn) + 0.5
                var nx = a.nx + nxDX * (x0 - a.x) + nxDY * (y - a.y)
                var ny = a.ny + nyDX * (x0 - a.x) + nyDY * (y - a.y)
                let rowStart = row * width
                if solid {
                    mw_line_span_solid(
                        mask + rowStart + firstColumn, endColumn - firstColumn, nx, ny, nxDX, nyDX,
                        outset, insetMinusBlur, blur, alphaScale)
                    continue
                }
                var along = a.along + alongDX * (x0 - a.x) + alongDY * (y - a.y)
                if let dashedField, let dash {
                    mw_line_span_dashed(
                        mask + rowStart + firstColumn, endColumn - firstColumn, nx, ny, nxDX, nyDX, along, alongDX,
                        outset, insetMinusBlur, blur, alphaScale, dashedField.baseAddress, dash.field.rows.count,
                        0.5 - dash.gamma, 0.5 + dash.gamma)
                    continue
                }
                var progress = a.progress + progressDX * (x0 - a.x) + progressDY * (y - a.y)
                for column in firstColumn..<endColumn {
                    // GL's fragment shader: the distance from the centre, faded over the blur.
                    let distance = (nx * nx + ny * ny).squareRoot() * outset
                    var alpha = min(1, min(distance - insetMinusBlur, outset - distance) / blur)
                    if alpha > 0, let dash {
                        alpha *= smoothstep(
                            0.5 - dash.gamma, 0.5 + dash.gamma, dash.field.value(along: along, side: ny))
                    }
                    if alpha > 0 {
                        let coverage = Float(alpha) * alphaScale
                        if let pattern {
                            // GL's pattern shader: the image's colour times the coverage.
                            var texel: (Float, Float, Float, Float) = (0, 0, 0, 0)
                            let fraction = along - along.rounded(.down)
                            pattern.texture.sample(x: fraction, y: 0.5 + ny * patternSpan, into: &texel)
                            let pixel = (rowStart + column) * 4
                            let keep = 1 - texel.3 * coverage
                            colors[pixel] = texel.0 * coverage + colors[pixel] * keep
                            colors[pixel + 1] = texel.1 * coverage + colors[pixel + 1] * keep
                            colors[pixel + 2] = texel.2 * coverage + colors[pixel + 2] * keep
                            colors[pixel + 3] = texel.3 * coverage + colors[pixel + 3] * keep
                        } else if let ramp {
                            // GL's gradient shader: the ramp's colour times the coverage.
                            let texel = min(Double(ramp.count - 1), max(0, progress * Double(ramp.count) - 0.5))
                            let lower = Int(texel)
                            let upper = min(ramp.count - 1, lower + 1)
                            let fraction = Float(texel - Double(lower))
                            let pixel = (rowStart + column) * 4
                            for channel in 0..<4 {
                                let value =
                                    ramp[lower][channel] + (ramp[upper][channel] - ramp[lower][channel]) * fraction
                                colors[pixel + channel] =
                                    value * coverage + colors[pixel + channel]
                                    * (1 - ramp[lower][3] * coverage - (ramp[upper][3] - ramp[lower][3]) * fraction
                                        * coverage)
                            }
                        } else {
                            let old = mask[rowStart + column]
                            mask[rowStart + column] = old + coverage * (1 - old)
                        }
                    }
                    nx += nxDX
                    ny += nyDX
                    along += alongDX
                    progress += progressDX
                }
            }
        }
        guard let box = buffer.touchedBox else { return }
        if channels == 4 {
            paintColors(buffer, box: box, origin: (originX, originY), on: cairo)
            return
        }
        if compositesDirectly,
            compositeDirectly(buffer, coverage: mask, width: width, origin: (originX, originY), color: color, on: cairo)
        {
            return
        }
        // The A8 mask is the scratch's too: zeroed, written in the touched blocks only, and
        // zeroed there again after the paint.
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(box.width)))
        guard let data = scratch.alphaBytes(count: stride * box.height, reserving: clipPixels + 4 * box.height),
            let surface = cairo_image_surface_create_for_data(
                data, CAIRO_FORMAT_A8, Int32(box.width), Int32(box.height), Int32(stride))
        else { return }
        defer {
            cairo_surface_destroy(surface)
            buffer.forEachTouchedBlock { rows, columns in
                for row in rows {
                    (data + (row - box.y) * stride + columns.lowerBound - box.x).update(
                        repeating: 0, count: columns.count)
                }
            }
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return }
        buffer.forEachTouchedBlock { rows, columns in
            for row in rows {
                let source = row * width
                let target = data + (row - box.y) * stride - box.x
                mw_coverage_to_a8(mask + source + columns.lowerBound, target + columns.lowerBound, columns.count)
            }
        }
        cairo_surface_mark_dirty(surface)
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        buffer.clipToTouchedBlocks(cairo, origin: (originX, originY))
        cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, 1)
        cairo_mask_surface(cairo, surface, Double(originX + box.x), Double(originY + box.y))
        cairo_restore(cairo)
    }

    /// Composites `color` through the coverage of the touched blocks straight onto the pixels of
    /// `cairo`'s target, where that gives exactly the pixels of the A8 mask and Cairo's OVER
    /// (`mw_composite_coverage_over`): an ARGB32 image target without device offset or scale,
    /// clipped to whole-pixel rectangles. Returns false, having drawn nothing, anywhere else
    /// (PDF and SVG pages, groups, rotated or path clips).
    private static func compositeDirectly(
        _ buffer: SparseBuffer, coverage: UnsafeMutablePointer<Float>, width: Int, origin: (x: Int, y: Int),
        color: Color,
        on cairo: OpaquePointer
    ) -> Bool {
        guard let target = cairo_get_group_target(cairo), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
            cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32
        else { return false }
        var offsetX = 0.0
        var offsetY = 0.0
        var scaleX = 0.0
        var scaleY = 0.0
        cairo_surface_get_device_offset(target, &offsetX, &offsetY)
        cairo_surface_get_device_scale(target, &scaleX, &scaleY)
        let surfaceWidth = Int(cairo_image_surface_get_width(target))
        let surfaceHeight = Int(cairo_image_surface_get_height(target))
        guard offsetX == 0, offsetY == 0, scaleX == 1, scaleY == 1 else { return false }
        // The clip in device pixels, within the surface (a context never clipped reads as the
        // surface's rectangle).
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        cairo_rectangle(cairo, 0, 0, Double(surfaceWidth), Double(surfaceHeight))
        cairo_clip(cairo)
        let list = cairo_copy_clip_rectangle_list(cairo)
        cairo_restore(cairo)
        guard let list else { return false }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS else { return false }
        var clips: [(x: Range<Int>, y: Range<Int>)] = []
        for index in 0..<Int(list.pointee.num_rectangles) {
            let rectangle = list.pointee.rectangles[index]
            let x0 = rectangle.x
            let y0 = rectangle.y
            let x1 = rectangle.x + rectangle.width
            let y1 = rectangle.y + rectangle.height
            guard x0 == x0.rounded(), y0 == y0.rounded(), x1 == x1.rounded(), y1 == y1.rounded() else { return false }
            if x1 > x0, y1 > y0 { clips.append((Int(x0)..<Int(x1), Int(y0)..<Int(y1))) }
        }
        cairo_surface_flush(target)
        guard let data = cairo_image_surface_get_data(target) else { return false }
        let stride = Int(cairo_image_surface_get_stride(target))
        // The colour as Cairo hands it to pixman: 16 bits a channel, then the top 8.
        func channel(_ value: Double) -> UInt32 { UInt32(UInt16(min(1, max(0, value)) * 65535 + 0.5) >> 8) }
        let source = 0xFF00_0000 | channel(color.red) << 16 | channel(color.green) << 8 | channel(color.blue)
        buffer.forEachTouchedBlock { rows, columns in
            for clip in clips {
                let left = max(origin.x + columns.lowerBound, clip.x.lowerBound)
                let right = min(origin.x + columns.upperBound, clip.x.upperBound)
                let top = max(origin.y + rows.lowerBound, clip.y.lowerBound)
                let bottom = min(origin.y + rows.upperBound, clip.y.upperBound)
                guard left < right, top < bottom else { continue }
                let xs = left..<right
                let ys = top..<bottom
                for y in ys {
                    let pixels = UnsafeMutableRawPointer(data + y * stride + xs.lowerBound * 4).assumingMemoryBound(
                        to: UInt32.self)
                    mw_composite_coverage_over(
                        coverage + (y - origin.y) * width + (xs.lowerBound - origin.x), pixels, xs.count, source)
                }
            }
        }
        cairo_surface_mark_dirty(target)
        return true
    }

    /// A mesh vertex in device pixels with its varyings: the interpolated normal (round flag,
    /// side) and how many dash periods along the line it is.
    fileprivate struct Corner {
        var x: Double, y: Double, nx: Double, ny: Double, along: Double, progress: Double
    }

    /// `value` on a grid of 1/256 pixel, as a GPU snaps vertices to its sub-pixel precision: the
    /// same vertex in two renders whose origins differ by whole pixels (metatiles cut from one
    /// map) then lies at the same place within its pixel, so a pixel centre on a triangle's edge
    /// is inside or outside alike in both, whatever rounding the two positions carry.
    private static func snapped(_ value: Double) -> Double {
        (value * 256).rounded() / 256
    }

    /// GLSL's smoothstep.
    private static func smoothstep(_ edge0: Double, _ edge1: Double, _ x: Double) -> Double {
        let t = min(1, max(0, (x - edge0) / (edge1 - edge0)))
        return t * t * (3 - 2 * t)
    }

    /// Paints the premultiplied RGBA in `buffer` within `box` onto `cairo`'s context at device
    /// `origin`.
    private static func paintColors(
        _ buffer: SparseBuffer, box: (x: Int, y: Int, width: Int, height: Int), origin: (x: Int, y: Int),
        on cairo: OpaquePointer
    ) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(box.width), Int32(box.height)) else {
            return
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else { return }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let colors = buffer.values
        let width = buffer.width
        func byte(_ value: Float) -> UInt32 { UInt32(min(255, max(0, (value * 255).rounded()))) }
        buffer.forEachTouchedBlock { rows, columns in
            for row in rows {
                let target =
                    UnsafeMutableRawPointer(data + (row - box.y) * stride).assumingMemoryBound(to: UInt32.self) - box.x
                for column in columns {
                    let pixel = (row * width + column) * 4
                    let alpha = byte(colors[pixel + 3])
                    target[column] =
                        alpha << 24 | min(alpha, byte(colors[pixel])) << 16 | min(alpha, byte(colors[pixel + 1])) << 8
                        | min(alpha, byte(colors[pixel + 2]))
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        buffer.clipToTouchedBlocks(cairo, origin: origin)
        cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        cairo_set_source_surface(cairo, surface, Double(origin.x + box.x), Double(origin.y + box.y))
        cairo_paint(cairo)
        cairo_restore(cairo)
    }
}

extension LineRasteriser {
    /// Scratches kept for the next render (one per render drawing at a time, so as many as
    /// there are threads drawing), so their memory is faulted in once rather than for every
    /// render: ``MapData`` holds one pool.
    final class ScratchPool: Sendable {
        private let free = Mutex<[UnsafeTransfer<Scratch>]>([])

        init() {}

        /// A scratch for one render, back in the pool when the lease ends: the largest one kept
        /// (a render that draws no line, as a tile export's label placement, gives back an
        /// empty one, which taken last would map and fault in a window's coverage again).
        func lease() -> ScratchLease {
            let kept = free.withLock { free -> Scratch? in
                guard
                    let largest = free.indices.max(by: {
                        free[$0].wrappedValue.byteCount < free[$1].wrappedValue.byteCount
                    })
                else { return nil }
                return free.remove(at: largest).wrappedValue
            }
            return ScratchLease(scratch: kept ?? Scratch(), pool: self)
        }

        /// The most memory a scratch kept for the next render may hold: 64 MiB (a 4096 × 4096
        /// view's coverage); a larger one, for a poster, is let go.
        static let keptBytesLimit = 64 << 20

        fileprivate func give(_ scratch: Scratch) {
            guard scratch.byteCount <= Self.keptBytesLimit else { return }
            free.withLock { $0.append(UnsafeTransfer(scratch)) }
        }
    }

    /// One render's use of a ``Scratch``: it returns to its pool when the lease (held by the
    /// render's painter and its copies) ends.
    final class ScratchLease {
        let scratch: Scratch
        private let pool: ScratchPool

        fileprivate init(scratch: Scratch, pool: ScratchPool) {
            self.scratch = scratch
            self.pool = pool
        }

        deinit { pool.give(scratch) }
    }

    /// A coverage buffer kept from one line layer to the next (and, through a ``ScratchPool``,
    /// from one render to the next), so that its memory is mapped and faulted in once; only the
    /// blocks a layer touched are zeroed after it. Used by one render at a time: not for
    /// sharing between threads.
    final class Scratch {
        fileprivate var sparse: SparseBuffer?
        /// The mesh's vertices in device pixels, kept for their capacity.
        fileprivate var corners: [Corner] = []
        /// A mesh kept for its capacity (see ``takeMesh()``).
        private var mesh: LineMesh?

        /// An empty mesh whose arrays keep the capacity of the last one given back.
        func takeMesh() -> LineMesh {
            var taken = mesh ?? LineMesh()
            mesh = nil
            taken.removeAll()
            return taken
        }

        /// The most vertices a mesh (and its device corners) kept for its capacity may hold:
        /// 262,144 (some 20 MB); a larger one, of a line drawn across a deep zoom's whole world,
        /// is let go rather than held by every render thread for good.
        static let keptMeshVertices = 262_144

        /// Keeps `mesh`'s arrays for the next ``takeMesh()``, unless they grew past ``keptMeshVertices``.
        func giveBack(_ mesh: LineMesh) {
            self.mesh = mesh.vertices.capacity <= Self.keptMeshVertices ? mesh : nil
        }
        /// The A8 mask's bytes, mapped anonymously, zero between uses.
        private var alpha: (bytes: UnsafeMutableRawPointer, count: Int)?

        init() {}

        /// The memory mapped for the buffers, in bytes.
        var byteCount: Int { (sparse?.capacity ?? 0) * MemoryLayout<Float>.stride + (alpha?.count ?? 0) }

        deinit {
            sparse?.unmap()
            if let alpha { munmap(alpha.bytes, alpha.count) }
        }

        /// At least `count` zeroed bytes for an A8 mask, to be zeroed again after use (mapping
        /// `reserving` bytes when it grows); nil when the memory cannot be mapped.
        fileprivate func alphaBytes(count: Int, reserving: Int) -> UnsafeMutablePointer<UInt8>? {
            if let alpha, alpha.count >= count { return alpha.bytes.assumingMemoryBound(to: UInt8.self) }
            if let alpha { munmap(alpha.bytes, alpha.count) }
            alpha = nil
            let count = max(count, reserving)
            guard count > 0,
                let memory = mmap(
                    nil, count, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | SparseBuffer.populating(bytes: count),
                    -1, 0),
                memory != MAP_FAILED
            else { return nil }
            alpha = (memory, count)
            return memory.assumingMemoryBound(to: UInt8.self)
        }

        /// A zeroed buffer of at least `width` × `height` × `channels` values, laid out for
        /// those sizes (mapping `reserving` values when it grows: the anonymous mapping costs
        /// memory only where it is written); nil when the memory cannot be mapped.
        fileprivate func buffer(width: Int, height: Int, channels: Int, reserving: Int) -> SparseBuffer? {
            let count = width * height * channels
            if let sparse, sparse.capacity >= count {
                sparse.layOut(width: width, height: height, channels: channels)
                return sparse
            }
            sparse?.unmap()
            sparse = SparseBuffer(capacity: max(count, reserving))
            sparse?.layOut(width: width, height: height, channels: channels)
            return sparse
        }
    }
}

/// A zeroed buffer of `Float`s over a line's device bounds, mapped anonymously so that the kernel
/// gives it pages only where it is written, with a note of which 64 × 64-pixel blocks were: a
/// country border across a whole world map touches a few thousand pixels of millions, and only
/// those blocks are converted, composited and zeroed again for the next layer.
private final class SparseBuffer {
    /// The values, ``channels`` per pixel, rows of ``width`` pixels.
    let values: UnsafeMutablePointer<Float>
    /// How many values the mapping holds.
    let capacity: Int
    private(set) var width = 0, height = 0, channels = 1
    private var blockColumns = 0
    /// Whether each block was touched, row by row of blocks.
    private var touched: [Bool] = []
    private static let blockShift = 6, blockSize = 1 << 6

    init?(capacity: Int) {
        let bytes = capacity * MemoryLayout<Float>.stride
        guard capacity > 0,
            let memory = mmap(
                nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | Self.populating(bytes: bytes), -1, 0),
            memory != MAP_FAILED
        else { return nil }
        values = memory.bindMemory(to: Float.self, capacity: capacity)
        self.capacity = capacity
    }

    func unmap() {
        munmap(values, capacity * MemoryLayout<Float>.stride)
    }

    /// `MAP_POPULATE` for a mapping that a scratch pool keeps (at most
    /// ``LineRasteriser/ScratchPool/keptBytesLimit``), none for a larger one: a span reads each
    /// coverage value before writing it, so a page first read maps the shared zero page and its
    /// first write faults again and flushes the other cores' TLBs (a streets export took ~25,000
    /// such faults, two per page). A poster's buffer stays sparse: pages only where lines are.
    static func populating(bytes: Int) -> Int32 {
        bytes <= LineRasteriser.ScratchPool.keptBytesLimit ? MAP_POPULATE : 0
    }

    /// Lays the (zeroed) buffer out as rows of `width` pixels of `channels` values.
    func layOut(width: Int, height: Int, channels: Int) {
        self.width = width
        self.height = height
        self.channels = channels
        blockColumns = (width + Self.blockSize - 1) >> Self.blockShift
        touched = Array(repeating: false, count: blockColumns * ((height + Self.blockSize - 1) >> Self.blockShift))
    }

    /// Zeroes the touched blocks, leaving the whole buffer zeroed for the next layer.
    func clear() {
        let channels = channels
        let width = width
        forEachTouchedBlock { rows, columns in
            for row in rows {
                (values + (row * width + columns.lowerBound) * channels).update(
                    repeating: 0, count: columns.count * channels)
            }
        }
    }

    /// Notes that `columns` of `row` are written.
    @inline(__always)
    func touch(row: Int, columns: Range<Int>) {
        let rowStart = (row >> Self.blockShift) * blockColumns
        for block in (columns.lowerBound >> Self.blockShift)...((columns.upperBound - 1) >> Self.blockShift) {
            touched[rowStart + block] = true
        }
    }

    /// Calls `body` with the pixel rows and columns of each touched block.
    func forEachTouchedBlock(_ body: (Range<Int>, Range<Int>) -> Void) {
        let blockRows = (height + Self.blockSize - 1) >> Self.blockShift
        for blockRow in 0..<blockRows {
            for blockColumn in 0..<blockColumns where touched[blockRow * blockColumns + blockColumn] {
                let rows = (blockRow << Self.blockShift)..<min(height, (blockRow + 1) << Self.blockShift)
                let columns = (blockColumn << Self.blockShift)..<min(width, (blockColumn + 1) << Self.blockShift)
                body(rows, columns)
            }
        }
    }

    /// The smallest box holding every touched block, nil when none is.
    var touchedBox: (x: Int, y: Int, width: Int, height: Int)? {
        var minX = Int.max
        var minY = Int.max
        var maxX = Int.min
        var maxY = Int.min
        forEachTouchedBlock { rows, columns in
            minX = min(minX, columns.lowerBound)
            maxX = max(maxX, columns.upperBound)
            minY = min(minY, rows.lowerBound)
            maxY = max(maxY, rows.upperBound)
        }
        return minX < maxX ? (minX, minY, maxX - minX, maxY - minY) : nil
    }

    /// Clips `cairo` (in device space) to the touched blocks, placed at `origin`, so that what is
    /// painted through the buffer is composited there only.
    func clipToTouchedBlocks(_ cairo: OpaquePointer, origin: (x: Int, y: Int)) {
        cairo_new_path(cairo)
        forEachTouchedBlock { rows, columns in
            cairo_rectangle(
                cairo, Double(origin.x + columns.lowerBound), Double(origin.y + rows.lowerBound),
                Double(columns.count), Double(rows.count))
        }
        cairo_clip(cairo)
    }
}
