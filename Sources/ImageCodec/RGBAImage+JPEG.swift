import CTurboJPEG
public import Foundation

// The one JPEG code path of Mapwright: raster tiles and photo thumbnails both decode here, with
// libjpeg-turbo's TurboJPEG API.

// MARK: - Reading

extension RGBAImage {
    /// Decodes JPEG bytes at full size.
    ///
    /// Baseline and progressive JPEGs in any colour space libjpeg-turbo reads (gray, YCbCr, CMYK)
    /// become opaque RGBA8: every alpha byte is 255. No colour profile is applied.
    ///
    /// - Throws: ``ImageCodecError/unreadableJPEG(path:reason:)`` (with a nil path) with
    ///   libjpeg-turbo's message when the bytes are not a JPEG or are corrupt. A warning (a file cut
    ///   short, say) still gives the pixels decoded.
    public init(jpegData: Data) throws(ImageCodecError) {
        try self.init(jpegData: jpegData, minimumSide: nil)
    }

    /// Decodes JPEG bytes at the smallest of libjpeg-turbo's scales (1/8, 1/4, 3/8, 1/2 …, 1) whose
    /// shorter side is still at least `minimumSide` pixels, or at full size when even that is smaller.
    ///
    /// Scaling happens inside the decoder, from the DCT coefficients, which is several times faster
    /// than decoding in full and shrinking afterwards. For example, a thumbnail of 92 pixels from a
    /// 4000 x 3000 photo decodes at 1/8, 500 x 375:
    ///
    /// ```swift
    /// let image = try RGBAImage(jpegData: data, minimumSide: 92)
    /// ```
    ///
    /// - Parameters:
    ///   - jpegData: The JPEG file's bytes.
    ///   - minimumSide: The smallest acceptable shorter side, in pixels; nil decodes at full size.
    /// - Throws: ``ImageCodecError/unreadableJPEG(path:reason:)`` (with a nil path).
    public init(jpegData: Data, minimumSide: Int?) throws(ImageCodecError) {
        self = try jpegData.withUnsafeBytes { Self.decodeJPEG($0, minimumSide: minimumSide) }.get()
    }

    /// The size ``init(jpegData:minimumSide:)`` decodes a `width` x `height` JPEG at: the smallest
    /// scale, no larger than 1, whose shorter side is at least `minimumSide`; the full size when
    /// no scale is.
    ///
    /// For example, 800 x 600 with a minimum side of 92 is 200 x 150 (1/4).
    public static func jpegDecodedSize(width: Int, height: Int, minimumSide: Int) -> ImageSize {
        var count: Int32 = 0
        var best = ImageSize(width: width, height: height)
        guard let factors = tjGetScalingFactors(&count) else { return best }
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num <= factor.denom {
            // TJSCALED: the dimension times the factor, rounded up.
            let numerator = Int(factor.num)
            let denominator = Int(factor.denom)
            let scaled = ImageSize(
                width: (width * numerator + denominator - 1) / denominator,
                height: (height * numerator + denominator - 1) / denominator
            )
            if min(scaled.width, scaled.height) >= minimumSide, scaled.width < best.width {
                best = scaled
            }
        }
        return best
    }

    private static func decodeJPEG(_ bytes: UnsafeRawBufferPointer, minimumSide: Int?) -> Result<
        RGBAImage, ImageCodecError
    > {
        func failure(_ reason: String) -> Result<RGBAImage, ImageCodecError> {
            .failure(.unreadableJPEG(path: nil, reason: reason))
        }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return failure("the data is empty") }
        guard let handle = tjInitDecompress() else {
            return failure("libjpeg-turbo cannot start: \(String(cString: tjGetErrorStr2(nil)))")
        }
        defer { tjDestroy(handle) }
        let source = base.assumingMemoryBound(to: UInt8.self)
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let headerStatus = tjDecompressHeader3(
            handle, source, UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        guard headerStatus == 0, width > 0, height > 0 else {
            return failure(String(cString: tjGetErrorStr2(handle)))
        }
        let full = ImageSize(width: Int(width), height: Int(height))
        guard full.pixelCount <= maximumPixelCount else {
            return failure("\(full) pixels is larger than the \(maximumPixelCount)-pixel limit")
        }
        let size = minimumSide.map { jpegDecodedSize(width: full.width, height: full.height, minimumSide: $0) } ?? full
        var pixels = [UInt8](repeating: 0, count: size.pixelCount * 4)
        let status = pixels.withUnsafeMutableBufferPointer { output in
            tjDecompress2(
                handle, source, UInt(bytes.count), output.baseAddress,
                Int32(size.width), 0, Int32(size.height), TJPF_RGBA.rawValue, 0)
        }
        if status != 0 {
            let message = String(cString: tjGetErrorStr2(handle))
            // Warnings such as extraneous bytes before a marker still give the whole picture;
            // a file cut short gives a picture whose lower part is gray, so it is refused.
            if tjGetErrorCode(handle) != TJERR_WARNING.rawValue { return failure(message) }
            if message.contains("Premature end") { return failure("the file is cut short: its image data ends early") }
        }
        return .success(RGBAImage(width: size.width, height: size.height, pixels: pixels))
    }
}

// MARK: - Writing

extension RGBAImage {
    /// Encodes the image as a baseline JPEG with 4:2:0 chroma subsampling.
    ///
    /// JPEG has no alpha: the alpha bytes are dropped, not composited, so encode opaque images.
    ///
    /// - Parameter quality: libjpeg's quality, from 1 (smallest) to 100 (best). The default is 90.
    /// - Returns: The JPEG file's bytes.
    /// - Throws: ``ImageCodecError/unencodableJPEG(reason:)`` with libjpeg-turbo's message, or for
    ///   an image with no pixels.
    public func jpegData(quality: Int = 90) throws(ImageCodecError) -> Data {
        precondition((1...100).contains(quality), "JPEG quality runs from 1 to 100")
        guard width > 0, height > 0 else { throw .unencodableJPEG(reason: "the image has no pixels (\(size))") }
        guard let handle = tjInitCompress() else {
            throw .unencodableJPEG(reason: "libjpeg-turbo cannot start: \(String(cString: tjGetErrorStr2(nil)))")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let status = pixels.withUnsafeBufferPointer { buffer in
            tjCompress2(
                handle, buffer.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_RGBA.rawValue),
                &output, &length, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        }
        defer { tjFree(output) }
        guard status == 0, let output else {
            throw .unencodableJPEG(reason: String(cString: tjGetErrorStr2(handle)))
        }
        return Data(bytes: output, count: Int(length))
    }
}
