import Dispatch
import Foundation
public import ImageCodec

/// Counts the pixels that differ between two images, with pixelmatch's algorithm and options.
///
/// Each pair of pixels is blended onto white by its alpha, and the squared distance between the
/// two colours in YIQ space (Kotsarenko and Ramos' perceptual metric) is compared with
/// `35215 * threshold²`, 35215 being the largest possible distance. A pixel beyond the threshold
/// is not counted when it looks like anti-aliasing in either image (Vysniauskas' detector: its
/// neighbours include both a darker and a brighter pixel, one of which sits in a flat area of
/// both images), unless ``DiffOptions/includeAntiAliased`` is set. For the same pixels and options
/// the count equals pixelmatch's (JavaScript 5.x, and the `pixelmatch` package on PyPI).
///
/// For example:
/// ```swift
/// let result = try compare(expected, actual, options: DiffOptions(threshold: 0.05), makeDiffImage: true)
/// if result.differentPixels > 0 { try result.diffImage?.writePNG(to: diffURL) }
/// ```
///
/// Large images are compared in bands of rows on all processor cores.
///
/// Ported from pixelmatch's `index.js`, <https://github.com/mapbox/pixelmatch> (version 5.3).
///
/// Deliberate deviations:
/// - Semi-transparent pixels are blended onto white, as in pixelmatch 5 and the PyPI package.
///   pixelmatch 6 and later (JavaScript) blend them onto a fixed pseudo-random pattern instead, so
///   its counts can differ where alpha is below 255; for opaque pixels the counts agree.
/// - The gray of the diff image is clamped to 0...255, so an ``DiffOptions/alpha`` outside 0...1
///   cannot wrap around as pixelmatch's typed-array store would.
///
/// - Parameters:
///   - expected: The reference image; the diff image shows it faded to gray.
///   - actual: The image under test, of the same size.
///   - options: The threshold, the anti-aliasing rule and the diff colours. The default is pixelmatch's.
///   - makeDiffImage: Whether to paint a diff image: unchanged pixels as the expected image in
///     gray at ``DiffOptions/alpha`` opacity over white, differing ones in ``DiffOptions/diffColor``
///     (or ``DiffOptions/diffColorAlt`` where the actual pixel is darker), anti-aliased ones in
///     ``DiffOptions/antiAliasedColor``; with ``DiffOptions/diffMask`` only the differing pixels,
///     over transparency. The default is false.
/// - Returns: The count, the size and the diff image if one was asked for.
/// - Throws: ``ImageCompareError/sizeMismatch(expected:actual:)`` when the sizes differ.
public func compare(
    _ expected: RGBAImage,
    _ actual: RGBAImage,
    options: DiffOptions = DiffOptions(),
    makeDiffImage: Bool = false
) throws(ImageCompareError) -> DiffResult {
    guard expected.size == actual.size else { throw .sizeMismatch(expected: expected.size, actual: actual.size) }
    let size = expected.size
    let byteCount = size.pixelCount * 4

    return expected.pixels.withUnsafeBytes { expectedBytes in
        actual.pixels.withUnsafeBytes { actualBytes in
            let kernel = PixelmatchKernel(
                expected: expectedBytes.baseAddress, actual: actualBytes.baseAddress, size: size, options: options
            )
            // pixelmatch's fast path: identical buffers differ nowhere, and need no per-pixel test.
            let identical =
                byteCount == 0 || memcmp(expectedBytes.baseAddress!, actualBytes.baseAddress!, byteCount) == 0

            guard makeDiffImage else {
                return DiffResult(differentPixels: identical ? 0 : kernel.countInBands(), size: size)
            }
            var differentPixels = 0
            // In mask mode pixels that are not drawn stay transparent; otherwise every pixel is drawn.
            var diffPixels = options.diffMask ? [UInt8](repeating: 0, count: byteCount) : [UInt8]()
            if !options.diffMask {
                diffPixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initializedCount in
                    differentPixels = kernel.countInBands(
                        drawingInto: buffer.baseAddress, onlyDrawingGray: identical
                    )
                    initializedCount = byteCount
                }
            } else if !identical {
                differentPixels = diffPixels.withUnsafeMutableBufferPointer { buffer in
                    kernel.countInBands(drawingInto: buffer.baseAddress, onlyDrawingGray: false)
                }
            }
            let diffImage = RGBAImage(width: size.width, height: size.height, pixels: diffPixels)
            return DiffResult(differentPixels: differentPixels, size: size, diffImage: diffImage)
        }
    }
}
