import CPNGShim
import Dispatch
public import Foundation
import MapUtilities

// MARK: - Reading

extension RGBAImage {
    /// The largest image decoded, in pixels (16384 x 16384, 1 GiB of RGBA); larger headers are
    /// rejected before any pixel memory is allocated.
    public static let maximumPixelCount = 16_384 * 16_384
    /// The largest PNG file read: 1 GiB.
    public static let maximumPNGFileBytes = 1 << 30

    /// Reads the PNG file at `url`.
    ///
    /// Every colour type and bit depth is decoded into RGBA8 (see ``init(pngData:)``).
    ///
    /// - Throws: ``ImageCodecError/unreadablePNG(path:reason:)`` naming the file when it is missing,
    ///   unreadable, not a PNG, corrupt or truncated.
    public init(contentsOf url: URL) throws(ImageCodecError) {
        let data: Data
        do {
            data = try Data(readingFile: url, maximumBytes: Self.maximumPNGFileBytes)
        } catch {
            throw .unreadablePNG(path: url.path, reason: error.reason)
        }
        do {
            try self.init(pngData: data)
        } catch .unreadablePNG(_, let reason) {
            throw .unreadablePNG(path: url.path, reason: reason)
        } catch {
            throw error
        }
    }

    /// Decodes PNG bytes.
    ///
    /// Gray, gray with alpha, RGB, RGBA and palette images are all expanded to RGBA8: palettes and
    /// `tRNS` transparency become per-pixel alpha, 1-, 2- and 4-bit gray is scaled to 8 bits, 16-bit
    /// samples are rounded to 8 bits (`round(v * 255 / 65535)`), and Adam7-interlaced images are
    /// de-interlaced. No gamma or colour-profile correction is applied: samples are taken as stored,
    /// as pixelmatch's pngjs and MapLibre's render tests do.
    ///
    /// - Throws: ``ImageCodecError/unreadablePNG(path:reason:)`` (with a nil path) when the bytes are
    ///   not a PNG, are corrupt or truncated, or describe more than ``maximumPixelCount`` pixels.
    public init(pngData: Data) throws(ImageCodecError) {
        let decoded = pngData.withUnsafeBytes { Self.decodePNG($0) }
        self = try decoded.get()
    }

    private static func decodePNG(_ bytes: UnsafeRawBufferPointer) -> Result<RGBAImage, ImageCodecError> {
        func failure(_ reason: String) -> Result<RGBAImage, ImageCodecError> {
            .failure(.unreadablePNG(path: nil, reason: reason))
        }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return failure("the file is empty") }
        guard let reader = mw_png_reader_create(base.assumingMemoryBound(to: UInt8.self), bytes.count) else {
            return failure("out of memory")
        }
        defer { mw_png_reader_destroy(reader) }

        var width32: UInt32 = 0
        var height32: UInt32 = 0
        guard mw_png_reader_read_header(reader, &width32, &height32) == 0 else {
            return failure(String(cString: mw_png_reader_message(reader)))
        }
        let size = ImageSize(width: Int(width32), height: Int(height32))
        guard size.pixelCount > 0 else { return failure("the image has no pixels (\(size))") }
        guard size.pixelCount <= maximumPixelCount else {
            return failure("\(size) pixels is larger than the \(maximumPixelCount)-pixel limit")
        }

        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: size.pixelCount * 4) { buffer, initializedCount in
            status = mw_png_reader_read_rgba(reader, buffer.baseAddress!)
            // On failure the bytes are partly uninitialized; hand back an empty array.
            initializedCount = status == 0 ? buffer.count : 0
        }
        guard status == 0 else { return failure(String(cString: mw_png_reader_message(reader))) }
        return .success(RGBAImage(width: size.width, height: size.height, pixels: pixels))
    }
}

// MARK: - Writing

extension RGBAImage {
    /// Encodes the image as an 8-bit PNG, not interlaced.
    ///
    /// The bytes depend only on the pixels and the arguments: no time or text chunk is written, so
    /// identical inputs give identical files.
    ///
    /// For example, a small file for a map render:
    /// ```swift
    /// let png = try render.pngData(compressionLevel: 9, colorMode: .palette)
    /// ```
    ///
    /// - Parameters:
    ///   - compressionLevel: zlib's level, from 0 (store, fastest) to 9 (smallest).
    ///     The default is 6, zlib's own default.
    ///   - colorMode: RGBA samples, or a palette of at most 256 colours (see ``PNGColorMode``).
    ///     The default is ``PNGColorMode/rgba``.
    ///   - filtering: The row filters for RGBA samples (palettes are never filtered). The default
    ///     is ``PNGFiltering/adaptive``.
    /// - Returns: The PNG file's bytes.
    /// - Throws: ``ImageCodecError/unencodablePNG(reason:)`` when libpng refuses the image, for
    ///   example one with no pixels.
    public func pngData(
        compressionLevel: Int = 6, colorMode: PNGColorMode = .rgba, filtering: PNGFiltering = .adaptive
    ) throws(ImageCodecError) -> Data {
        precondition((0...9).contains(compressionLevel), "PNG compression levels run from 0 to 9")
        guard width > 0, height > 0 else { throw .unencodablePNG(reason: "the image has no pixels (\(size))") }
        switch colorMode {
        case .rgba:
            var parallel = PNGEncoder.bands(width: width, height: height)
            return try PNGEncoder.encode { output, message in
                pixels.withUnsafeBufferPointer { pixelBuffer in
                    mw_png_write_rgba(
                        pixelBuffer.baseAddress, UInt32(width), UInt32(height), Int32(compressionLevel),
                        filtering == .adaptive ? 1 : 0, &parallel, output, message
                    )
                }
            }
        case .palette:
            return try quantized().pngData(compressionLevel: compressionLevel)
        }
    }

    /// Writes the image as a PNG file, atomically: readers of `url` see the old file or the whole
    /// new one, never a partial write.
    ///
    /// - Parameters:
    ///   - url: The destination; its directory must exist.
    ///   - compressionLevel: zlib's level, from 0 to 9. The default is 6.
    ///   - colorMode: RGBA samples or a palette. The default is ``PNGColorMode/rgba``.
    ///   - filtering: The row filters for RGBA samples. The default is ``PNGFiltering/adaptive``.
    /// - Throws: ``ImageCodecError/unencodablePNG(reason:)`` or ``ImageCodecError/unwritableFile(path:reason:)``.
    public func writePNG(
        to url: URL, compressionLevel: Int = 6, colorMode: PNGColorMode = .rgba, filtering: PNGFiltering = .adaptive
    ) throws(ImageCodecError) {
        let data = try pngData(compressionLevel: compressionLevel, colorMode: colorMode, filtering: filtering)
        do throws(MapUtilitiesError) {
            try AtomicFile.write(data, to: url)
        } catch {
            throw .unwritableFile(path: error.path, reason: error.reason)
        }
    }
}

extension RGBAImage {
    /// Encodes the image as an 8-bit RGBA PNG (colour type 6) even when every pixel is opaque,
    /// with libpng's adaptive row filters: the frames of an animated PNG share the first frame's
    /// IHDR, so each frame must have the same colour type whatever its pixels.
    ///
    /// - Throws: ``ImageCodecError/unencodablePNG(reason:)`` when libpng refuses the image.
    func rgbaSamplesPNGData(compressionLevel: Int) throws(ImageCodecError) -> Data {
        precondition((0...9).contains(compressionLevel), "PNG compression levels run from 0 to 9")
        guard width > 0, height > 0 else { throw .unencodablePNG(reason: "the image has no pixels (\(size))") }
        return try PNGEncoder.encode { output, message in
            pixels.withUnsafeBufferPointer { pixelBuffer in
                mw_png_write_rgba_samples(
                    pixelBuffer.baseAddress, UInt32(width), UInt32(height), Int32(compressionLevel), 1, output, message
                )
            }
        }
    }
}

/// Runs one of the shim's encoders and takes ownership of the bytes it produced.
enum PNGEncoder {
    /// Rows per band of a large image: each band is filtered, and at level 1 deflated, on its own
    /// core.
    static let rowsPerBand = 256

    /// The bands an image is encoded in: from a million pixels, one per ``rowsPerBand`` rows, run
    /// on every core; smaller images (tiles, drawn many at once) in one. The count follows from
    /// the size alone, so the bytes do not depend on the machine's cores.
    static func bands(width: Int, height: Int) -> mw_png_parallel {
        let bands = width * height >= 1 << 20 ? (height + rowsPerBand - 1) / rowsPerBand : 1
        return mw_png_parallel(
            run: { _, count, context, body in
                // Each band writes only its own rows and piece of the job `context` points to.
                let shared = UnsafeTransfer(context)
                DispatchQueue.concurrentPerform(iterations: count) { body?(shared.wrappedValue, $0) }
            },
            runner: nil, bands: bands)
    }

    static func encode(
        _ body: (UnsafeMutablePointer<mw_png_buffer>, UnsafeMutablePointer<CChar>) -> Int32
    ) throws(ImageCodecError) -> Data {
        var output = mw_png_buffer()
        var message = [CChar](repeating: 0, count: Int(MW_PNG_MESSAGE_CAPACITY))
        let status = message.withUnsafeMutableBufferPointer { messageBuffer in
            body(&output, messageBuffer.baseAddress!)
        }
        guard status == 0, let bytes = output.bytes else {
            throw .unencodablePNG(reason: String(decoding: message.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
        }
        return Data(bytesNoCopy: bytes, count: output.length, deallocator: .free)
    }
}
