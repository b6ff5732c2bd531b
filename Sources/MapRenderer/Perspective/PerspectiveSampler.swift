import CCairo
import Foundation
import MapCore
import MapData
import MapUtilities

/// Fills a pitched view's ground image from the flat levels of ``PerspectiveGround``: each pixel
/// below the visible-ground limit averages the levels under its footprint, the fog fades the far
/// ground, and the sky's gradient fills the rows above.
///
/// Pixels are Cairo's premultiplied ARGB in native-endian 32-bit words, filtered premultiplied
/// (so transparent ground never darkens its neighbours). Rows are filled on every core, each
/// pixel the same whatever the split: the image is deterministic.
struct PerspectiveSampler {
    /// One level's pixels and where they lie on the ground: it points into a rendered canvas's
    /// pixels, which the caller keeps alive while rows are filled.
    struct Texture {
        let index: Int
        let pixels: UnsafePointer<UInt32>
        let width: Int
        let height: Int
        /// 32-bit words per row.
        let rowWords: Int
        let originU: Double
        let originV: Double
        let pixelsPerGroundPoint: Double

        /// A level's texture over its rendered canvas, which must outlive it.
        init(level: PerspectiveGround.Level, canvas: Canvas) {
            index = level.index
            pixels = UnsafeRawPointer(cairo_image_surface_get_data(canvas.surface)!).assumingMemoryBound(
                to: UInt32.self)
            width = canvas.pixelWidth
            height = canvas.pixelHeight
            rowWords = Int(cairo_image_surface_get_stride(canvas.surface)) / 4
            originU = level.originU
            originV = level.originV
            pixelsPerGroundPoint = level.pixelsPerGroundPoint
        }

        /// Samples one view row: `columns` pixels whose ground runs from `leftU` in steps of
        /// `stepU` at ground row `v`, each averaging `taps` bilinear samples spread over
        /// `footprintV` up the view; the results go into `output`.
        ///
        /// Every pixel of a row shares its taps' texture rows, so the taps are first summed into
        /// one filtered texture row (each texel unpacked once), which the pixels then read
        /// bilinearly across.
        func filterRow(
            v: Double, footprintV: Double, taps: Int, leftU: Double, stepU: Double, columns: Int,
            into output: inout [SIMD4<Float>]
        ) {
            // The texture columns the row reads, with one on each side for the bilinear filter.
            let leftX = (leftU - originU) * pixelsPerGroundPoint - 0.5
            let rightX = (leftU + stepU * Double(columns - 1) - originU) * pixelsPerGroundPoint - 0.5
            let firstColumn = min(max(Int(leftX.rounded(.down)), 0), width - 1)
            let lastColumn = min(max(Int(rightX.rounded(.down)) + 1, 0), width - 1)
            let span = lastColumn - firstColumn + 1
            // The vertical kernel: the taps' rows and weights, rows repeated by neighbouring taps merged.
            var kernel: [(row: Int, weight: Float)] = []
            kernel.reserveCapacity(2 * taps)
            for tap in 0..<taps {
                let tapV = v + ((Double(tap) + 0.5) / Double(taps) - 0.5) * footprintV
                let y = (tapV - originV) * pixelsPerGroundPoint - 0.5
                let floorY = y.rounded(.down)
                let fraction = Float(y - floorY)
                let weight = 1 / Float(taps)
                for (row, share) in [(Int(floorY), 1 - fraction), (Int(floorY) + 1, fraction)] where share > 0 {
                    let clamped = min(max(row, 0), height - 1)
                    if let last = kernel.last, last.row == clamped {
                        kernel[kernel.count - 1].weight += share * weight
                    } else {
                        kernel.append((clamped, share * weight))
                    }
                }
            }
            // Planar channels (a, r, g, b), so the loops vectorize.
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * span) { filtered in
                filtered.initialize(repeating: 0)
                let base = filtered.baseAddress!
                let alpha = base
                let red = base + span
                let green = base + 2 * span
                let blue = base + 3 * span
                for (row, weight) in kernel {
                    let source = pixels + row * rowWords + firstColumn
                    for index in 0..<span {
                        let word = source[index]
                        alpha[index] += Float(word >> 24) * weight
                        red[index] += Float((word >> 16) & 0xFF) * weight
                        green[index] += Float((word >> 8) & 0xFF) * weight
                        blue[index] += Float(word & 0xFF) * weight
                    }
                }
                let step = stepU * pixelsPerGroundPoint
                output.withUnsafeMutableBufferPointer { output in
                    for column in 0..<columns {
                        let x = leftX + Double(column) * step
                        let floorX = x.rounded(.down)
                        let fraction = Float(x - floorX)
                        let x0 = min(max(Int(floorX) - firstColumn, 0), span - 1)
                        let x1 = min(max(Int(floorX) + 1 - firstColumn, 0), span - 1)
                        let keep = 1 - fraction
                        output[column] = SIMD4(
                            alpha[x0] * keep + alpha[x1] * fraction, red[x0] * keep + red[x1] * fraction,
                            green[x0] * keep + green[x1] * fraction, blue[x0] * keep + blue[x1] * fraction)
                    }
                }
            }
        }
    }

    let rows: PerspectiveRows
    let textures: [Texture]
    let sky: SkyColors
    /// Pixels per row.
    let width: Int

    /// Fills `height` rows of `data` (a Cairo ARGB32 image of ``width`` columns).
    func fill(_ data: UnsafeMutablePointer<UInt8>, stride: Int, height: Int) {
        // Each band writes only its own rows, and only reads the textures (the canvases' pixels).
        let shared = UnsafeTransfer((output: data, sampler: self))
        let bands = min(height, max(1, ProcessInfo.processInfo.activeProcessorCount * 4))
        let width = width
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            var buffers = Array(repeating: [SIMD4<Float>](repeating: .zero, count: width), count: 2)
            for row in (height * band / bands)..<(height * (band + 1) / bands) {
                let words = UnsafeMutableRawPointer(shared.wrappedValue.output + row * stride).assumingMemoryBound(
                    to: UInt32.self)
                shared.wrappedValue.sampler.fillRow(row, into: words, buffers: &buffers)
            }
        }
    }

    /// The fog's strength at a pixel row: 0 up to the style's fog-ground blend of the way from
    /// the view's centre to the visible-ground limit, rising smoothly to 1 at the limit.
    func fog(atPixelY y: Double) -> Float {
        let center = rows.viewport.size.height / 2 * rows.outputScale
        let limit = rows.viewport.visibleGroundTopViewY * rows.outputScale
        guard y < center, center > limit else { return 0 }
        let progress = (center - y) / (center - limit)
        let start = sky.fogGroundBlend
        guard progress > start else { return 0 }
        return Float(Self.smoothstep(min(1, (progress - start) / max(1e-6, 1 - start))))
    }

    static func smoothstep(_ t: Double) -> Double {
        let clamped = min(1, max(0, t))
        return clamped * clamped * (3 - 2 * clamped)
    }

    private func fillRow(_ row: Int, into words: UnsafeMutablePointer<UInt32>, buffers: inout [[SIMD4<Float>]]) {
        let y = Double(row) + 0.5
        guard let first = rows.firstGroundRow, row >= first else {
            let color = sky.color(atPixelY: y, limitPixelY: rows.viewport.visibleGroundTopViewY * rows.outputScale)
            let word = Self.pack(color)
            for column in 0..<width { words[column] = word }
            return
        }
        let (v, scale) = rows.ground(atPixelY: y)
        let footprint = rows.footprint(row: row)
        let top = textures.last?.index ?? 0
        let detail = min(rows.levelOfDetail(row: row), Double(top))
        let lower = Int(detail.rounded(.down))
        // Two levels are blended only in the last part of each octave ("brilinear" filtering):
        // the seam between levels stays invisible, and most rows read one level.
        let fraction = detail - Double(lower)
        let blend = lower >= top ? 0 : Float(max(0, (fraction - Self.blendStart) / (1 - Self.blendStart)))
        let halfWidth = rows.viewport.size.width / 2
        let pointsPerPixel = 1 / rows.outputScale
        let leftU = (0.5 * pointsPerPixel - halfWidth) / scale
        let stepU = pointsPerPixel / scale
        // Taps spread along the footprint up the view (its long side, but for a twentieth at most
        // in nearly flat views), as many as its length in texels of the chosen level.
        let texelsAlong = footprint.v * rows.baseScale / pow(2, detail)
        let taps = min(PerspectiveRows.maximumTaps, max(1, Int(texelsAlong.rounded())))
        let levels: [(texture: Texture, weight: Float)] =
            blend > 1.0 / 256
            ? [(texture(lower), 1 - blend), (texture(lower + 1), blend)] : [(texture(lower), Float(1))]
        for (slot, level) in levels.enumerated() {
            level.texture.filterRow(
                v: v, footprintV: footprint.v, taps: taps, leftU: leftU, stepU: stepU, columns: width,
                into: &buffers[slot])
        }
        let fog = self.fog(atPixelY: y)
        let fogColor = sky.fog * fog
        for column in 0..<width {
            var sum = buffers[0][column] * levels[0].weight
            if levels.count > 1 { sum += buffers[1][column] * levels[1].weight }
            if fog > 0 { sum = sum * (1 - fog) + fogColor }
            words[column] = Self.pack(sum)
        }
    }

    /// Where in an octave of detail the next level starts to blend in: 0.6.
    static let blendStart = 0.6

    /// The texture of level `index`, or the nearest there is.
    private func texture(_ index: Int) -> Texture {
        textures.first { $0.index == index } ?? textures.min { abs($0.index - index) < abs($1.index - index) }!
    }

    /// (a, r, g, b) floats in 0...255 as a premultiplied ARGB word, rounded.
    @inline(__always)
    static func pack(_ color: SIMD4<Float>) -> UInt32 {
        // Scalar conversions: SIMD4's generic integer conversion is not specialized, and slow.
        @inline(__always) func byte(_ value: Float) -> UInt32 { UInt32(min(255, max(0, value + 0.5))) }
        return byte(color[0]) << 24 | byte(color[1]) << 16 | byte(color[2]) << 8 | byte(color[3])
    }
}
