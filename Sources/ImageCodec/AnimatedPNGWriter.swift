public import Foundation
import MapUtilities

/// Writes an animated PNG (APNG) file frame by frame, holding only one frame in memory at a time.
///
/// Every frame covers the whole image and replaces the one before it (APNG's `dispose_op` NONE and
/// `blend_op` SOURCE), and every frame is shown for the same delay. Frames are stored as 8-bit RGBA
/// (colour type 6) even when they are opaque, because all frames share one header. The first frame
/// is also the file's default image, so a viewer or decoder that knows only plain PNG, such as
/// ``RGBAImage/init(pngData:)``, shows it.
///
/// The frames go to a hidden temporary file beside the destination (see ``AtomicFile``) that
/// ``finish()`` renames over the destination. A writer that fails, or that goes away without
/// finishing, removes its temporary file: the destination is never left holding part of an
/// animation, and a file already there is kept until a whole new one replaces it.
///
/// For example, a two-second fly-over at 30 frames per second, played once:
/// ```swift
/// let writer = try AnimatedPNGWriter(
///     url: URL(filePath: "flight.png"), width: 800, height: 600,
///     frameCount: 60, framesPerSecond: 30, loopCount: 1)
/// for frame in frames { try writer.append(frame) }
/// try writer.finish()
/// ```
///
/// Specification: <https://www.w3.org/TR/png-3/#apng-frame-based-animation>.
///
/// The class wraps an open file and is not `Sendable`: use a writer from one task at a time.
public final class AnimatedPNGWriter {
    /// The destination file.
    public let url: URL
    /// The width of every frame, in pixels.
    public let width: Int
    /// The height of every frame, in pixels.
    public let height: Int
    /// The number of frames the file holds: exactly this many must be appended before ``finish()``.
    public let frameCount: Int
    /// The numerator of each frame's delay, in seconds as a fraction (APNG's `delay_num`).
    public let frameDelayNumerator: Int
    /// The denominator of each frame's delay, in seconds as a fraction (APNG's `delay_den`).
    public let frameDelayDenominator: Int
    /// How many times the animation plays; 0 means forever.
    public let loopCount: Int
    /// zlib's level for every frame, from 0 (store, fastest) to 9 (smallest).
    public let compressionLevel: Int
    /// The number of frames appended so far.
    public private(set) var appendedFrameCount = 0

    /// How long each frame is shown, in seconds.
    public var frameDelaySeconds: Double { Double(frameDelayNumerator) / Double(frameDelayDenominator) }

    /// The largest delay numerator and denominator an APNG file can hold: 65535.
    public static let maximumFrameDelayTerm = Int(UInt16.max)

    private enum State {
        case writing(FileHandle)
        case finished
        /// An error ended the animation; later calls fail with this reason.
        case abandoned(reason: String)
    }

    private let temporaryURL: URL
    private var state: State
    /// The next APNG sequence number, shared by `fcTL` and `fdAT` chunks.
    private var sequenceNumber: UInt32 = 0
    /// The first frame's `IHDR` data, which every later frame must match.
    private var header: Data?

    /// Starts an animation whose frames are shown `framesPerSecond` times a second.
    ///
    /// The frame rate is stored as the nearest fraction of a second whose numerator and
    /// denominator are at most 65535: exactly for whole rates (30 gives 1/30 s) and decimal ones
    /// such as 29.97 (100/2997 s).
    ///
    /// - Parameters:
    ///   - url: The destination; its directory must exist. A file there is replaced by
    ///     ``finish()``, and kept if the animation fails.
    ///   - width: The width of every frame, in pixels; positive.
    ///   - height: The height of every frame, in pixels; positive.
    ///   - frameCount: How many frames will be appended; at least 1.
    ///   - framesPerSecond: Frames shown per second, from 1/65535 to 65535.
    ///   - loopCount: How many times the animation plays; 0, the default, plays it forever.
    ///   - compressionLevel: zlib's level, from 0 to 9. The default is 6, zlib's own default.
    /// - Throws: ``ImageCodecError/unencodablePNG(reason:)`` for a size, frame count, frame rate or
    ///   loop count an APNG file cannot hold; ``ImageCodecError/unwritableFile(path:reason:)``
    ///   naming `url` when no file can be made beside it.
    public convenience init(
        url: URL, width: Int, height: Int, frameCount: Int, framesPerSecond: Double, loopCount: Int = 0,
        compressionLevel: Int = 6
    ) throws(ImageCodecError) {
        guard let delay = Self.frameDelay(framesPerSecond: framesPerSecond) else {
            throw .unencodablePNG(
                reason:
                    "an animation of \(framesPerSecond) frames per second cannot be stored: the rate must lie between 1/65535 and 65535"
            )
        }
        try self.init(
            url: url, width: width, height: height, frameCount: frameCount, frameDelayNumerator: delay.numerator,
            frameDelayDenominator: delay.denominator, loopCount: loopCount, compressionLevel: compressionLevel)
    }

    /// Starts an animation whose frames are each shown for `frameDelayNumerator /
    /// frameDelayDenominator` seconds, as APNG stores the delay.
    ///
    /// - Parameters:
    ///   - url: The destination; its directory must exist.
    ///   - width: The width of every frame, in pixels; positive.
    ///   - height: The height of every frame, in pixels; positive.
    ///   - frameCount: How many frames will be appended; at least 1.
    ///   - frameDelayNumerator: The delay's numerator, from 0 to 65535 (0 asks viewers to show the
    ///     next frame as soon as they can).
    ///   - frameDelayDenominator: The delay's denominator, from 1 to 65535.
    ///   - loopCount: How many times the animation plays; 0, the default, plays it forever.
    ///   - compressionLevel: zlib's level, from 0 to 9. The default is 6.
    /// - Throws: ``ImageCodecError/unencodablePNG(reason:)`` for a size, frame count, delay or loop
    ///   count an APNG file cannot hold; ``ImageCodecError/unwritableFile(path:reason:)`` naming
    ///   `url` when no file can be made beside it.
    public init(
        url: URL, width: Int, height: Int, frameCount: Int, frameDelayNumerator: Int, frameDelayDenominator: Int,
        loopCount: Int = 0, compressionLevel: Int = 6
    ) throws(ImageCodecError) {
        precondition((0...9).contains(compressionLevel), "PNG compression levels run from 0 to 9")
        let largestSide = Int(Int32.max)
        guard (1...largestSide).contains(width), (1...largestSide).contains(height) else {
            throw .unencodablePNG(reason: "an animation of \(width)x\(height) pixels has no pixels or is too large")
        }
        guard (1...Int(UInt32.max)).contains(frameCount) else {
            throw .unencodablePNG(reason: "an animation needs at least one frame, not \(frameCount)")
        }
        guard (0...Self.maximumFrameDelayTerm).contains(frameDelayNumerator),
            (1...Self.maximumFrameDelayTerm).contains(frameDelayDenominator)
        else {
            throw .unencodablePNG(
                reason:
                    "a frame delay of \(frameDelayNumerator)/\(frameDelayDenominator) s cannot be stored: the numerator must lie in 0...65535 and the denominator in 1...65535"
            )
        }
        guard (0...Int(UInt32.max)).contains(loopCount) else {
            throw .unencodablePNG(
                reason: "a loop count of \(loopCount) cannot be stored: it must lie in 0...\(UInt32.max)")
        }
        let temporaryURL = AtomicFile.temporaryURL(for: url)
        guard FileManager.default.createFile(atPath: temporaryURL.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: temporaryURL)
        else {
            try? FileManager.default.removeItem(at: temporaryURL)
            throw .unwritableFile(path: url.path, reason: AtomicFile.reason(writingIn: url.deletingLastPathComponent()))
        }
        self.url = url
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.frameDelayNumerator = frameDelayNumerator
        self.frameDelayDenominator = frameDelayDenominator
        self.loopCount = loopCount
        self.compressionLevel = compressionLevel
        self.temporaryURL = temporaryURL
        state = .writing(handle)
    }

    deinit {
        if case .writing(let handle) = state {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporaryURL)
        }
    }

    /// Encodes `image` as the next frame and writes it to the file.
    ///
    /// Frames equal to the one before are written all the same, so every frame keeps its place
    /// in time.
    ///
    /// Any error ends the animation: the temporary file is removed, the destination is left as it
    /// was, and later calls throw.
    ///
    /// - Throws: ``ImageCodecError/unencodablePNG(reason:)`` when the image is not ``width`` by
    ///   ``height`` pixels, when ``frameCount`` frames were already appended, or when the
    ///   animation has already finished or failed; ``ImageCodecError/unwritableFile(path:reason:)``
    ///   naming ``url`` when the frame cannot be written.
    public func append(_ image: RGBAImage) throws(ImageCodecError) {
        let handle = try openHandle()
        let frameNumber = appendedFrameCount + 1
        guard image.width == width, image.height == height else {
            throw abandon(
                .unencodablePNG(
                    reason: "frame \(frameNumber) is \(image.size) pixels, not the animation's \(width)x\(height)"))
        }
        guard appendedFrameCount < frameCount else {
            throw abandon(
                .unencodablePNG(
                    reason: "the animation declares \(frameCount) frames; frame \(frameNumber) is one too many"))
        }
        let chunks: [PNGChunk]
        do {
            chunks = try PNGChunk.chunks(in: image.rgbaSamplesPNGData(compressionLevel: compressionLevel))
        } catch {
            throw abandon(error)
        }
        guard let frameHeader = chunks.first(where: { $0.type == "IHDR" })?.data, frameHeader == header ?? frameHeader
        else {
            throw abandon(
                .unencodablePNG(reason: "frame \(frameNumber) was encoded with a header unlike the first frame's"))
        }

        var bytes = Data()
        if header == nil {
            header = frameHeader
            bytes.append(PNGChunk.signature)
            bytes.appendChunk(PNGChunk(type: "IHDR", data: frameHeader))
            var control = Data()
            control.appendBigEndian(UInt32(frameCount))
            control.appendBigEndian(UInt32(loopCount))
            bytes.appendChunk(PNGChunk(type: "acTL", data: control))
        }
        bytes.appendChunk(PNGChunk(type: "fcTL", data: frameControl()))
        for chunk in chunks where chunk.type == "IDAT" {
            if frameNumber == 1 {
                bytes.appendChunk(chunk)
            } else {
                var frameData = Data()
                frameData.appendBigEndian(nextSequenceNumber())
                frameData.append(chunk.data)
                bytes.appendChunk(PNGChunk(type: "fdAT", data: frameData))
            }
        }
        try write(bytes, to: handle)
        appendedFrameCount += 1
    }

    /// Ends the file and moves it into place at ``url``, replacing any file there.
    ///
    /// - Throws: ``ImageCodecError/unencodablePNG(reason:)`` when fewer than ``frameCount``
    ///   frames were appended, or the animation has already finished or failed;
    ///   ``ImageCodecError/unwritableFile(path:reason:)`` naming ``url`` when the file cannot be
    ///   completed or renamed into place. After an error nothing is left at ``url`` that was not
    ///   there before.
    public func finish() throws(ImageCodecError) {
        let handle = try openHandle()
        guard appendedFrameCount == frameCount else {
            throw abandon(
                .unencodablePNG(
                    reason: "the animation declares \(frameCount) frames but \(appendedFrameCount) were appended"))
        }
        var end = Data()
        end.appendChunk(PNGChunk(type: "IEND", data: Data()))
        try write(end, to: handle)
        do {
            try handle.close()
        } catch {
            throw abandon(
                .unwritableFile(path: url.path, reason: AtomicFile.reason(writingIn: url.deletingLastPathComponent())))
        }
        do throws(MapUtilitiesError) {
            // On failure the rename removes the temporary file itself.
            try AtomicFile.replace(url, with: temporaryURL)
        } catch {
            state = .abandoned(reason: "the animation could not be moved into place")
            throw .unwritableFile(path: error.path, reason: error.reason)
        }
        state = .finished
    }

    // MARK: - Frame delays

    /// The fraction of a second, numerator and denominator at most 65535, nearest to one frame at
    /// `framesPerSecond`: the last convergent of 1 / `framesPerSecond`'s continued fraction whose
    /// terms fit; nil when the rate is not finite or lies outside 1/65535...65535.
    static func frameDelay(framesPerSecond: Double) -> (numerator: Int, denominator: Int)? {
        let limit = Double(maximumFrameDelayTerm)
        guard framesPerSecond.isFinite, framesPerSecond >= 1 / limit, framesPerSecond <= limit else { return nil }
        if framesPerSecond == framesPerSecond.rounded() { return (1, Int(framesPerSecond)) }
        let seconds = 1 / framesPerSecond
        // Convergents h/k: h(n) = a(n)·h(n−1) + h(n−2), likewise k, from h(−1)/k(−1) = 1/0.
        var (previousH, h) = (0.0, 1.0)
        var (previousK, k) = (1.0, 0.0)
        var best: (numerator: Int, denominator: Int)?
        var remainder = seconds
        for _ in 0..<64 {
            let term = remainder.rounded(.down)
            let nextH = term * h + previousH
            let nextK = term * k + previousK
            guard nextH <= limit, nextK <= limit else { break }
            (previousH, h, previousK, k) = (h, nextH, k, nextK)
            if h > 0 { best = (Int(h), Int(k)) }
            if abs(h / k - seconds) <= seconds * 1e-12 { break }
            remainder = 1 / (remainder - term)
        }
        return best
    }

    // MARK: - Writing

    /// The `fcTL` data of the next frame: the whole image at (0, 0), the animation's delay,
    /// `dispose_op` NONE and `blend_op` SOURCE.
    private func frameControl() -> Data {
        var data = Data()
        data.appendBigEndian(nextSequenceNumber())
        data.appendBigEndian(UInt32(width))
        data.appendBigEndian(UInt32(height))
        data.appendBigEndian(UInt32(0))
        data.appendBigEndian(UInt32(0))
        data.appendBigEndian(UInt16(frameDelayNumerator))
        data.appendBigEndian(UInt16(frameDelayDenominator))
        data.append(contentsOf: [0, 0])
        return data
    }

    private func nextSequenceNumber() -> UInt32 {
        defer { sequenceNumber += 1 }
        return sequenceNumber
    }

    /// The open temporary file, or the error of a writer that has finished or failed.
    private func openHandle() throws(ImageCodecError) -> FileHandle {
        switch state {
        case .writing(let handle): return handle
        case .finished: throw .unencodablePNG(reason: "the animation \(url.path) is already finished")
        case .abandoned(let reason): throw .unencodablePNG(reason: "the animation \(url.path) was abandoned: \(reason)")
        }
    }

    private func write(_ bytes: Data, to handle: FileHandle) throws(ImageCodecError) {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw abandon(
                .unwritableFile(path: url.path, reason: AtomicFile.reason(writingIn: url.deletingLastPathComponent())))
        }
    }

    /// Ends the animation after `error`: closes and removes the temporary file, and returns the
    /// error to throw.
    private func abandon(_ error: ImageCodecError) -> ImageCodecError {
        if case .writing(let handle) = state {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporaryURL)
        }
        state = .abandoned(reason: error.description)
        return error
    }
}
