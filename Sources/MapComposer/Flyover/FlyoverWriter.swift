public import Foundation
public import ImageCodec
import MapUtilities

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a fly-over's frames, in order, to one of three outputs: an animated PNG, an MP4 video
/// (through Debian's `ffmpeg`, when installed), or a folder of numbered PNG frames.
///
/// Nothing is left half written: the animated PNG and the video are written to a temporary file
/// beside the output and renamed by ``finish()``; a new folder of frames is filled under a
/// temporary name and renamed; frames written into a folder that exists are each written whole, and its frames past the new
/// last are removed when the animation is finished.
/// A writer dropped before ``finish()`` removes what it started.
public final class FlyoverWriter {
    /// Where the frames go.
    public enum Output: Hashable, Sendable {
        /// An animated PNG (APNG) that loops forever; plain PNG viewers show its first frame.
        case animatedPNG(URL)
        /// An H.264 MP4 video made by `ffmpeg` (yuv420p, sides rounded up to even pixels).
        case video(URL)
        /// A folder of `frame-00001.png`, `frame-00002.png`, …
        case frames(URL)

        /// The output a path names: a folder when it ends in `/` or is one, else by its
        /// extension, `.mp4` a video and anything else an animated PNG.
        public init(path: String) {
            let url = URL(fileURLWithPath: path)
            var isDirectory: ObjCBool = false
            if path.hasSuffix("/")
                || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
            {
                self = .frames(url)
            } else if url.pathExtension.lowercased() == "mp4" {
                self = .video(url)
            } else {
                self = .animatedPNG(url)
            }
        }

        /// The file or folder written.
        public var url: URL {
            switch self {
            case .animatedPNG(let url), .video(let url), .frames(let url): url
            }
        }
    }

    /// Where `ffmpeg` is looked for, in order, when the `PATH` does not have it.
    static let ffmpegFallbacks = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"]

    public let output: Output
    private var animation: AnimatedPNGWriter?
    private var video: (program: ExternalProgram, temporary: URL)?
    /// The folder frames are written into, and the folder it becomes (nil when writing in place).
    private var folder: (writing: URL, final: URL?)?
    private let frameCount: Int
    private var written = 0
    private var finished = false

    /// Starts writing `frameCount` frames of `width` × `height` pixels.
    ///
    /// - Throws: ``PhotoMapError/animationOutput(path:reason:)`` when the output cannot be
    ///   started; ``PhotoMapError/videoEncoderMissing(path:)`` for a video without `ffmpeg`.
    public init(output: Output, width: Int, height: Int, frameCount: Int, framesPerSecond: Double) throws(PhotoMapError)
    {
        self.output = output
        self.frameCount = frameCount
        switch output {
        case .animatedPNG(let url):
            do {
                animation = try AnimatedPNGWriter(
                    url: url, width: width, height: height, frameCount: frameCount, framesPerSecond: framesPerSecond)
            } catch {
                throw .animationOutput(path: url.path, reason: error.description)
            }
        case .video(let url):
            guard let ffmpeg = Self.ffmpegExecutable() else { throw .videoEncoderMissing(path: url.path) }
            let temporary = AtomicFile.temporaryURL(for: url).appendingPathExtension("mp4")
            let arguments = [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-framerate",
                Self.rateText(framesPerSecond),
                "-i", "pipe:0",
                // yuv420p, which every player takes, needs even sides.
                "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags",
                "+faststart",
                temporary.path,
            ]
            do throws(MapUtilitiesError) {
                video = (try ExternalProgram(ffmpeg, arguments, input: .pipe, keepsOutput: false), temporary)
            } catch {
                throw .animationOutput(path: url.path, reason: "ffmpeg could not start: \(error.reason)")
            }
        case .frames(let url):
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    throw .animationOutput(path: url.path, reason: "it is a file, not a folder")
                }
                folder = (url, nil)
            } else {
                let temporary = AtomicFile.temporaryURL(for: url)
                do { try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false) } catch
                {
                    throw .animationOutput(
                        path: url.path, reason: "cannot make the folder: \(error.localizedDescription)")
                }
                folder = (temporary, url)
            }
        }
    }

    deinit {
        guard !finished else { return }
        if let video {
            video.program.terminate()
            try? FileManager.default.removeItem(at: video.temporary)
        }
        if let folder, folder.final != nil { try? FileManager.default.removeItem(at: folder.writing) }
    }

    /// The file name of frame `index` (from 0) in a folder of frames: `frame-00001.png` for the first.
    public static func frameFileName(_ index: Int) -> String {
        "frame-" + String(format: "%05d", index + 1) + ".png"
    }

    /// Writes the next frame.
    ///
    /// - Throws: ``PhotoMapError/animationOutput(path:reason:)`` naming the output.
    public func write(_ image: RGBAImage) throws(PhotoMapError) {
        precondition(written < frameCount && !finished, "a fly-over writer takes exactly its frames")
        switch output {
        case .animatedPNG(let url):
            do { try animation!.append(image) } catch {
                throw .animationOutput(path: url.path, reason: error.description)
            }
        case .video(let url):
            let sent = image.pixels.withUnsafeBytes { bytes in
                Self.writeAll(bytes, to: video!.program.input!.fileDescriptor)
            }
            guard sent else {
                throw .animationOutput(path: url.path, reason: "ffmpeg stopped taking frames: \(ffmpegMessage())")
            }
        case .frames(let url):
            let file = folder!.writing.appendingPathComponent(Self.frameFileName(written))
            do { try image.writePNG(to: file) } catch {
                throw .animationOutput(path: url.path, reason: error.description)
            }
        }
        written += 1
    }

    /// Completes the output once every frame is written: moves the animation or video into place,
    /// or renames a new folder of frames.
    ///
    /// - Throws: ``PhotoMapError/animationOutput(path:reason:)`` naming the output.
    public func finish() throws(PhotoMapError) {
        precondition(written == frameCount, "a fly-over writer finishes after all its frames")
        switch output {
        case .animatedPNG(let url):
            do { try animation!.finish() } catch { throw .animationOutput(path: url.path, reason: error.description) }
        case .video(let url):
            let (program, temporary) = video!
            guard program.wait().status == 0 else {
                throw .animationOutput(path: url.path, reason: "ffmpeg failed: \(ffmpegMessage())")
            }
            do throws(MapUtilitiesError) { try AtomicFile.replace(url, with: temporary) } catch {
                throw .animationOutput(path: url.path, reason: error.reason)
            }
        case .frames(let url):
            if let final = folder!.final {
                do { try FileManager.default.moveItem(at: folder!.writing, to: final) } catch {
                    throw .animationOutput(
                        path: url.path, reason: "cannot move the frames into place: \(error.localizedDescription)")
                }
            } else {
                try removeFramesBeyondCount(in: url)
            }
        }
        finished = true
    }

    /// In a folder that held frames before, removes those past this animation's last (an earlier
    /// animation's frames are numbered from 1 without gaps, as this writer names them), so the
    /// folder holds this animation alone; other files stay.
    private func removeFramesBeyondCount(in url: URL) throws(PhotoMapError) {
        var index = frameCount
        while case let file = url.appendingPathComponent(Self.frameFileName(index)),
            FileManager.default.fileExists(atPath: file.path)
        {
            do { try FileManager.default.removeItem(at: file) } catch {
                throw .animationOutput(
                    path: url.path,
                    reason:
                        "cannot remove \(file.lastPathComponent) of an earlier animation: \(error.localizedDescription)"
                )
            }
            index += 1
        }
    }

    /// The last line ffmpeg wrote to its error output, or its exit status, once it has ended.
    private func ffmpegMessage() -> String {
        guard let outcome = video?.program.wait() else { return "exit status 0" }
        let last = outcome.errorText.split(whereSeparator: \.isNewline).last.map(String.init)
        return last ?? "exit status \(outcome.status)"
    }

    /// Writes all of `bytes` to a pipe; false when the reader has gone.
    ///
    /// SIGPIPE, which a write to a closed pipe raises and which ends the process by default, is
    /// blocked on this thread alone for the write, and one it raised is taken off again: the
    /// failed write returns EPIPE instead, and nothing changes for the rest of the process.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var pipeSignal = sigset_t()
        var previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return MapUtilities.writeAll(bytes, to: descriptor) == nil
    }

    /// `ffmpeg` on the `PATH`, else at a usual place; nil when it is not installed.
    public static func ffmpegExecutable() -> URL? {
        URL.executable(
            named: "ffmpeg", searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "", fallbacks: ffmpegFallbacks)
    }

    /// A frame rate as ffmpeg reads it: a whole number, or a fraction over 1001 or 1000.
    static func rateText(_ framesPerSecond: Double) -> String {
        if framesPerSecond == framesPerSecond.rounded() { return String(Int(framesPerSecond)) }
        return "\(Int((framesPerSecond * 1000).rounded()))/1000"
    }
}
