import CTurboJPEG
import Foundation

/// Decodes JPEGs with libjpeg-turbo's TurboJPEG API, at a reduced scale when that suffices.
///
/// libjpeg-turbo can decode at 1/8, 1/4, 3/8, 1/2 … of full size straight from the DCT
/// coefficients, which is several times faster than decoding in full and shrinking.
enum JPEGDecoder {
    /// Decodes `data` at the smallest scale whose shorter side is at least `minimumSide` pixels,
    /// or at full size when even that is smaller.
    ///
    /// - Returns: RGBA pixels, opaque.
    /// - Throws: ``PhotoSourceError/undecodableImage(file:reason:)`` with libjpeg-turbo's message.
    ///   A warning (a file cut short, say) still gives the pixels decoded.
    static func decode(_ data: Data, minimumSide: Int, file: URL) throws(PhotoSourceError) -> Thumbnail {
        guard let handle = tjInitDecompress() else {
            let reason = String(cString: tjGetErrorStr2(nil))
            throw .undecodableImage(file: file, reason: "libjpeg-turbo cannot start: \(reason)")
        }
        defer { tjDestroy(handle) }
        let size = UInt(data.count)
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let headerStatus = data.withUnsafeBytes { buffer in
            tjDecompressHeader3(
                handle, buffer.bindMemory(to: UInt8.self).baseAddress, size,
                &width, &height, &subsampling, &colorspace)
        }
        guard headerStatus == 0, width > 0, height > 0 else {
            throw .undecodableImage(file: file, reason: String(cString: tjGetErrorStr2(handle)))
        }
        let (scaledWidth, scaledHeight) = scaledSize(width: Int(width), height: Int(height), minimumSide: minimumSide)
        var pixels = [UInt8](repeating: 0, count: scaledWidth * scaledHeight * 4)
        let status = data.withUnsafeBytes { buffer in
            pixels.withUnsafeMutableBufferPointer { output in
                tjDecompress2(
                    handle, buffer.bindMemory(to: UInt8.self).baseAddress, size, output.baseAddress,
                    Int32(scaledWidth), 0, Int32(scaledHeight), TJPF_RGBA.rawValue, 0)
            }
        }
        if status != 0 && tjGetErrorCode(handle) != TJERR_WARNING.rawValue {
            throw .undecodableImage(file: file, reason: String(cString: tjGetErrorStr2(handle)))
        }
        return Thumbnail(width: scaledWidth, height: scaledHeight, rgba: pixels)
    }

    /// The decoded size at the smallest scaling factor, no larger than 1, whose shorter side is
    /// at least `minimumSide`; the full size when none is.
    static func scaledSize(width: Int, height: Int, minimumSide: Int) -> (width: Int, height: Int) {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (width: width, height: height)
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num <= factor.denom {
            // TJSCALED: the dimension times the factor, rounded up.
            let numerator = Int(factor.num), denominator = Int(factor.denom)
            let scaled = (
                width: (width * numerator + denominator - 1) / denominator,
                height: (height * numerator + denominator - 1) / denominator
            )
            if min(scaled.width, scaled.height) >= minimumSide, scaled.width < best.width {
                best = scaled
            }
        }
        return best
    }
}
