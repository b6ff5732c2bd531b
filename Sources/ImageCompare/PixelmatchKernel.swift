import Dispatch
import Foundation
import ImageCodec
import MapUtilities

/// pixelmatch's per-pixel test over two RGBA8 buffers of the same size, run in bands of rows.
///
/// Works on raw pointers to the callers' pixel arrays, which outlive every call; nothing is
/// allocated per pixel. Floating-point expressions keep pixelmatch's operations and their order,
/// so that counts equal pixelmatch's even for pixels right at the threshold.
struct PixelmatchKernel {
    private let expected: UnsafeRawPointer?
    private let actual: UnsafeRawPointer?
    private let width: Int
    private let height: Int
    private let options: DiffOptions
    /// The largest squared YIQ distance taken as equal: 35215 (the largest possible) times threshold².
    private let maxDelta: Double

    init(expected: UnsafeRawPointer?, actual: UnsafeRawPointer?, size: ImageSize, options: DiffOptions) {
        self.expected = expected
        self.actual = actual
        self.width = size.width
        self.height = size.height
        self.options = options
        self.maxDelta = 35215 * options.threshold * options.threshold
    }

    // MARK: - Bands

    /// Counts differing pixels, painting the diff into `output` (`width * height * 4` bytes) when
    /// given. With `onlyDrawingGray` the images are known identical: every pixel is painted gray.
    func countInBands(drawingInto output: UnsafeMutablePointer<UInt8>? = nil, onlyDrawingGray: Bool = false) -> Int {
        let pixelCount = width * height
        guard pixelCount > 0 else { return 0 }
        // Small images are not worth a thread hop; large ones get a few bands per core, so that a
        // band full of differences does not leave the other cores idle.
        let bandCount = pixelCount < 65_536 ? 1 : min(height, ProcessInfo.processInfo.activeProcessorCount * 8)
        let rowsPerBand = (height + bandCount - 1) / bandCount
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: bandCount)
        defer { counts.deallocate() }
        counts.initialize(repeating: 0)
        // The bands write disjoint rows of `output` and their own slot of `counts`, and only read the images.
        let work = UnsafeTransfer((kernel: self, output: output, counts: counts))
        let height = self.height

        DispatchQueue.concurrentPerform(iterations: bandCount) { band in
            let rows = (band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand)
            let (kernel, output, counts) = work.wrappedValue
            counts[band] =
                onlyDrawingGray ? kernel.drawGrayRows(rows, into: output!) : kernel.countRows(rows, drawingInto: output)
        }
        return counts.reduce(0, +)
    }

    // MARK: - Rows

    private func countRows(_ rows: Range<Int>, drawingInto output: UnsafeMutablePointer<UInt8>?) -> Int {
        guard let expected, let actual else { return 0 }
        var differentPixels = 0
        for y in rows {
            for x in 0..<width {
                let index = y * width + x
                let offset = index * 4
                let expectedPixel = expected.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                let actualPixel = actual.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                // Equal pixels have distance 0, never above the threshold: skip the arithmetic.
                let delta = expectedPixel == actualPixel ? 0 : colorDelta(expected, actual, offset)

                if abs(delta) > maxDelta {
                    if !options.includeAntiAliased
                        && (isAntiAliased(expected, x, y, other: actual)
                            || isAntiAliased(actual, x, y, other: expected))
                    {
                        if let output, !options.diffMask { draw(options.antiAliasedColor, at: offset, into: output) }
                    } else {
                        if let output {
                            let color = delta < 0 ? (options.diffColorAlt ?? options.diffColor) : options.diffColor
                            draw(color, at: offset, into: output)
                        }
                        differentPixels += 1
                    }
                } else if let output, !options.diffMask {
                    drawGray(at: offset, into: output)
                }
            }
        }
        return differentPixels
    }

    private func drawGrayRows(_ rows: Range<Int>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        for offset in stride(from: rows.lowerBound * width * 4, to: rows.upperBound * width * 4, by: 4) {
            drawGray(at: offset, into: output)
        }
        return 0
    }

    // MARK: - Colour distance

    /// The squared YIQ distance between pixel `offset` of `image1` and of `image2`, each blended
    /// onto white by its alpha; negative when the second pixel is darker.
    @inline(__always)
    private func colorDelta(_ image1: UnsafeRawPointer, _ image2: UnsafeRawPointer, _ offset: Int) -> Double {
        let (r1, g1, b1) = blendedOntoWhite(image1, offset)
        let (r2, g2, b2) = blendedOntoWhite(image2, offset)
        let y1 = luma(r1, g1, b1)
        let y2 = luma(r2, g2, b2)
        let y = y1 - y2
        let i = inPhase(r1, g1, b1) - inPhase(r2, g2, b2)
        let q = quadrature(r1, g1, b1) - quadrature(r2, g2, b2)
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y1 > y2 ? -delta : delta
    }

    /// The brightness (Y) difference between two pixels of one image, each blended onto white.
    @inline(__always)
    private func brightnessDelta(_ image: UnsafeRawPointer, _ offset1: Int, _ offset2: Int) -> Double {
        if image.loadUnaligned(fromByteOffset: offset1, as: UInt32.self)
            == image.loadUnaligned(fromByteOffset: offset2, as: UInt32.self)
        {
            return 0
        }
        let (r1, g1, b1) = blendedOntoWhite(image, offset1)
        let (r2, g2, b2) = blendedOntoWhite(image, offset2)
        return luma(r1, g1, b1) - luma(r2, g2, b2)
    }

    @inline(__always)
    private func blendedOntoWhite(_ image: UnsafeRawPointer, _ offset: Int) -> (Double, Double, Double) {
        let r = Double(image.load(fromByteOffset: offset, as: UInt8.self))
        let g = Double(image.load(fromByteOffset: offset + 1, as: UInt8.self))
        let b = Double(image.load(fromByteOffset: offset + 2, as: UInt8.self))
        let alphaByte = image.load(fromByteOffset: offset + 3, as: UInt8.self)
        guard alphaByte < 255 else { return (r, g, b) }
        let a = Double(alphaByte) / 255
        return (blend(r, a), blend(g, a), blend(b, a))
    }

    /// `c` at opacity `a` over white.
    @inline(__always)
    private func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }

    @inline(__always)
    private func luma(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    }

    @inline(__always)
    private func inPhase(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.59597799 - g * 0.27417610 - b * 0.32180189
    }

    @inline(__always)
    private func quadrature(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.21147017 - g * 0.52261711 + b * 0.31114694
    }

    // MARK: - Anti-aliasing

    /// Whether pixel (x1, y1) of `image` looks like anti-aliasing: among its 8 neighbours at most
    /// two equal it, some are darker and some brighter, and the darkest or the brightest lies in
    /// a flat area (3 or more equal neighbours) of both `image` and `other`.
    ///
    /// After V. Vysniauskas, "Anti-aliased Pixel and Intensity Slope Detector" (2009), as pixelmatch
    /// implements it, including its visiting order (columns outer, rows inner), which decides ties.
    private func isAntiAliased(_ image: UnsafeRawPointer, _ x1: Int, _ y1: Int, other: UnsafeRawPointer) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let offset = (y1 * width + x1) * 4
        // A pixel on the border counts as having one equal neighbour already.
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var minDelta = 0.0
        var maxDelta = 0.0
        var minX = 0
        var minY = 0
        var maxX = 0
        var maxY = 0

        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                let delta = brightnessDelta(image, offset, (y * width + x) * 4)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    minX = x
                    minY = y
                } else if delta > maxDelta {
                    maxDelta = delta
                    maxX = x
                    maxY = y
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }

        return (hasManySiblings(image, minX, minY) && hasManySiblings(other, minX, minY))
            || (hasManySiblings(image, maxX, maxY) && hasManySiblings(other, maxX, maxY))
    }

    /// Whether pixel (x1, y1) of `image` has 3 or more neighbours of exactly its colour and alpha
    /// (a pixel on the border counts one extra).
    private func hasManySiblings(_ image: UnsafeRawPointer, _ x1: Int, _ y1: Int) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let pixel = image.loadUnaligned(fromByteOffset: (y1 * width + x1) * 4, as: UInt32.self)
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0

        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                if image.loadUnaligned(fromByteOffset: (y * width + x) * 4, as: UInt32.self) == pixel {
                    zeroes += 1
                }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    // MARK: - Painting

    @inline(__always)
    private func draw(_ color: RGBColor, at offset: Int, into output: UnsafeMutablePointer<UInt8>) {
        output[offset] = color.red
        output[offset + 1] = color.green
        output[offset + 2] = color.blue
        output[offset + 3] = 255
    }

    /// Paints the expected pixel's brightness at `alpha` opacity over white, truncated to an
    /// integer as pixelmatch's typed-array store does.
    @inline(__always)
    private func drawGray(at offset: Int, into output: UnsafeMutablePointer<UInt8>) {
        guard let expected else { return }
        let r = Double(expected.load(fromByteOffset: offset, as: UInt8.self))
        let g = Double(expected.load(fromByteOffset: offset + 1, as: UInt8.self))
        let b = Double(expected.load(fromByteOffset: offset + 2, as: UInt8.self))
        let a = Double(expected.load(fromByteOffset: offset + 3, as: UInt8.self))
        // Clamped, so that an alpha outside 0...1 cannot take the value out of a byte's range.
        let value = UInt8(min(max(blend(luma(r, g, b), options.alpha * a / 255), 0), 255))
        output[offset] = value
        output[offset + 1] = value
        output[offset + 2] = value
        output[offset + 3] = 255
    }
}
