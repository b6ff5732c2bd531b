import Foundation
import ImageCodec
import MapTestSupport
import Testing

/// Animated PNG files from ``AnimatedPNGWriter``, read by an outside reference: Pillow, installed
/// by pip into a virtual environment of the tests' own (``PythonEnvironment/pillow``); without
/// PyPI the tests that need it fail and say so.
struct AnimatedPNGTests {
    private static let width = 96
    private static let height = 64

    /// Five distinct frames, the fourth equal to the third: a flat opaque fill, an opaque gradient,
    /// noise with every alpha (fully transparent pixels keeping their colour) that deflate cannot
    /// shrink below libpng's 8 KiB IDAT chunks, the same noise again, and a half-transparent
    /// checkerboard.
    private static let frames: [RGBAImage] = {
        let flat = RGBAImage(width: width, height: height, filledWith: RGBAPixel(red: 200, green: 30, blue: 40))
        var gradient = RGBAImage(width: width, height: height)
        var noise = gradient
        var checkerboard = gradient
        var state: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                gradient[x: x, y: y] = RGBAPixel(red: UInt8(x * 255 / (width - 1)), green: UInt8(y * 4), blue: 128)
                var bytes: [UInt8] = []
                for _ in 0..<4 {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    bytes.append(UInt8(state >> 24))
                }
                noise[x: x, y: y] = RGBAPixel(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes[3])
                checkerboard[x: x, y: y] =
                    (x / 8 + y / 8).isMultiple(of: 2)
                    ? RGBAPixel(red: 20, green: 90, blue: 220, alpha: 128)
                    : RGBAPixel(red: 250, green: 250, blue: 0, alpha: 0)
            }
        }
        return [flat, gradient, noise, noise, checkerboard]
    }()

    private func writeAnimation(
        to url: URL, framesPerSecond: Double = 4, loopCount: Int = 0, frames: [RGBAImage] = frames
    ) throws {
        let writer = try AnimatedPNGWriter(
            url: url, width: Self.width, height: Self.height, frameCount: frames.count,
            framesPerSecond: framesPerSecond, loopCount: loopCount)
        for frame in frames { try writer.append(frame) }
        try writer.finish()
    }

    // MARK: - Read by Pillow

    /// Reads an APNG with Pillow: frame count, each frame's duration and RGBA bytes (written to
    /// `frame-N.rgba` in the output folder), and the loop count.
    private static let pillowScript = #"""
        import json, sys
        from PIL import Image

        path, output = sys.argv[1:3]
        with Image.open(path) as image:
            result = {"format": image.format, "frames": image.n_frames, "animated": image.is_animated,
                      "loop": image.info.get("loop"), "durations": [], "sizes": []}
            for index in range(image.n_frames):
                image.seek(index)
                result["durations"].append(image.info.get("duration"))
                frame = image.convert("RGBA")
                result["sizes"].append([frame.width, frame.height])
                with open(f"{output}/frame-{index}.rgba", "wb") as f:
                    f.write(frame.tobytes())
        print(json.dumps(result))
        """#

    /// What Pillow saw.
    private struct PillowView: Decodable {
        var format: String
        var frames: Int
        var animated: Bool
        var loop: Int?
        var durations: [Double?]
        var sizes: [[Int]]
    }

    @Test(arguments: [(4.0, 3, 250.0), (30, 0, 1000.0 / 30)])
    func pillowReadsEveryFrameItsDurationAndTheLoopCount(framesPerSecond: Double, loopCount: Int, milliseconds: Double)
        throws
    {
        let directory = try TemporaryDirectory()
        let url = directory.file("flight.png")
        try writeAnimation(to: url, framesPerSecond: framesPerSecond, loopCount: loopCount)

        let output = try PythonEnvironment.pillow.run(
            Self.pillowScript, arguments: [url.path, directory.url.path], in: directory.url)
        let view = try JSONDecoder().decode(PillowView.self, from: Data(output.utf8))
        #expect(view.format == "PNG")
        #expect(view.animated)
        #expect(view.frames == Self.frames.count)
        #expect(view.loop == loopCount)
        #expect(view.durations.count == Self.frames.count)
        for duration in view.durations {
            #expect(abs((duration ?? -1) - milliseconds) < 1e-9, "Pillow's duration \(String(describing: duration)) ms")
        }
        for (index, frame) in Self.frames.enumerated() where index < view.frames {
            #expect(view.sizes[index] == [Self.width, Self.height])
            let bytes = try Data(contentsOf: directory.file("frame-\(index).rgba"))
            #expect(bytes == Data(frame.pixels), "frame \(index) as Pillow reads it differs from the frame written")
        }
    }

    // MARK: - Read as a plain PNG

    @Test func aPlainPNGDecoderSeesTheFirstFrame() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("flight.png")
        try writeAnimation(to: url)
        #expect(try RGBAImage(contentsOf: url) == Self.frames[0])
    }

    // MARK: - Structure

    @Test func chunksFollowTheAPNGOrderWithSequenceNumbersFromZeroAndValidCRCs() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("flight.png")
        try writeAnimation(to: url, framesPerSecond: 29.97, loopCount: 2)
        let file = try Data(contentsOf: url)
        #expect(file.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))

        var types: [String] = []
        var sequenceNumbers: [UInt32] = []
        var delays: [[UInt8]] = []
        var offset = 8
        func integer(at index: Int) -> UInt32 { file[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        while offset < file.count {
            let length = Int(integer(at: offset))
            let type = String(decoding: file[offset + 4..<offset + 8], as: UTF8.self)
            let typeAndData = file[offset + 4..<offset + 8 + length]
            #expect(
                integer(at: offset + 8 + length) == crc32(Data(typeAndData)), "the CRC of \(type) chunk \(types.count)")
            switch type {
            case "acTL":
                #expect(integer(at: offset + 8) == 5 && integer(at: offset + 12) == 2, "acTL: 5 frames, 2 plays")
            case "fcTL":
                sequenceNumbers.append(integer(at: offset + 8))
                #expect(
                    integer(at: offset + 12) == UInt32(Self.width) && integer(at: offset + 16) == UInt32(Self.height))
                #expect(integer(at: offset + 20) == 0 && integer(at: offset + 24) == 0, "frames at (0, 0)")
                delays.append(Array(file[offset + 28..<offset + 32]))
                #expect(Array(file[offset + 32..<offset + 34]) == [0, 0], "dispose NONE, blend SOURCE")
            case "fdAT":
                sequenceNumbers.append(integer(at: offset + 8))
            default:
                break
            }
            types.append(type)
            offset += 12 + length
        }
        #expect(offset == file.count)
        #expect(Array(types.prefix(4)) == ["IHDR", "acTL", "fcTL", "IDAT"])
        #expect(types.last == "IEND")
        #expect(types.filter { $0 == "fcTL" }.count == 5)
        // The noise frames need more than one data chunk each.
        #expect(types.filter { $0 == "fdAT" }.count > 4)
        #expect(!types.drop { $0 != "fdAT" }.contains("IDAT"), "no IDAT after the first fdAT")
        #expect(sequenceNumbers == (0..<UInt32(sequenceNumbers.count)).map { $0 })
        // 29.97 frames per second is 100/2997 s a frame.
        #expect(delays == Array(repeating: [0, 100, 0x0B, 0xB5], count: 5))
    }

    @Test func frameRatesBecomeExactFractionsOfASecond() throws {
        let directory = try TemporaryDirectory()
        let cases: [(Double, Int, Int)] = [
            (30, 1, 30), (29.97, 100, 2997), (23.976, 125, 2997), (0.5, 2, 1), (12.5, 2, 25),
        ]
        for (framesPerSecond, numerator, denominator) in cases {
            let writer = try AnimatedPNGWriter(
                url: directory.file("rate.png"), width: 1, height: 1, frameCount: 1, framesPerSecond: framesPerSecond)
            #expect(
                writer.frameDelayNumerator == numerator && writer.frameDelayDenominator == denominator,
                "\(framesPerSecond) fps")
        }
        for framesPerSecond in [0.0, -1, .nan, .infinity, 70_000] {
            #expect(throws: ImageCodecError.self, "\(framesPerSecond) fps") {
                try AnimatedPNGWriter(
                    url: directory.file("rate.png"), width: 1, height: 1, frameCount: 1,
                    framesPerSecond: framesPerSecond)
            }
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty,
            "writers never finished leave nothing")
    }

    // MARK: - Mistakes leave nothing behind

    @Test func aFrameOfTheWrongSizeThrowsAndLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("flight.png")
        let writer = try AnimatedPNGWriter(
            url: url, width: Self.width, height: Self.height, frameCount: 3, framesPerSecond: 10)
        try writer.append(Self.frames[0])
        #expect(throws: ImageCodecError.unencodablePNG(reason: "frame 2 is 10x10 pixels, not the animation's 96x64")) {
            try writer.append(RGBAImage(width: 10, height: 10, filledWith: .white))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        // The animation has ended: later calls fail too, and still write nothing.
        #expect(throws: ImageCodecError.self) { try writer.append(Self.frames[1]) }
        #expect(throws: ImageCodecError.self) { try writer.finish() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test func finishingWithTooFewFramesThrowsAndLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("flight.png")
        let writer = try AnimatedPNGWriter(
            url: url, width: Self.width, height: Self.height, frameCount: 5, framesPerSecond: 10)
        try writer.append(Self.frames[0])
        try writer.append(Self.frames[1])
        #expect(throws: ImageCodecError.unencodablePNG(reason: "the animation declares 5 frames but 2 were appended")) {
            try writer.finish()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test func oneFrameTooManyThrowsAndKeepsTheFileAlreadyThere() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("flight.png")
        let earlier = Data("an earlier file".utf8)
        try earlier.write(to: url)
        let writer = try AnimatedPNGWriter(
            url: url, width: Self.width, height: Self.height, frameCount: 2, framesPerSecond: 10)
        try writer.append(Self.frames[0])
        try writer.append(Self.frames[1])
        #expect(
            throws: ImageCodecError.unencodablePNG(reason: "the animation declares 2 frames; frame 3 is one too many")
        ) {
            try writer.append(Self.frames[2])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["flight.png"])
        #expect(try Data(contentsOf: url) == earlier)
    }

    @Test func aWriterDroppedBeforeFinishingRemovesItsTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        do {
            let writer = try AnimatedPNGWriter(
                url: directory.file("flight.png"), width: Self.width, height: Self.height, frameCount: 5,
                framesPerSecond: 10)
            try writer.append(Self.frames[0])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory.url.path).count == 1, "the temporary file"
            )
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test func finishingReplacesAnExistingFileAndLeavesNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("flight.png")
        try Data("an earlier file".utf8).write(to: url)
        try writeAnimation(to: url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["flight.png"])
        #expect(try RGBAImage(contentsOf: url) == Self.frames[0])
    }

    @Test func aMissingDirectoryIsAnUnwritableFileNamingTheDestination() throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/flight.png")
        do {
            _ = try AnimatedPNGWriter(url: url, width: 4, height: 4, frameCount: 2, framesPerSecond: 10)
            Issue.record("starting an animation in a missing directory succeeded")
        } catch {
            guard case .unwritableFile(let path, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == url.path)
            #expect(reason.contains("does not exist"))
        }
    }

    @Test func sizesFrameCountsAndLoopCountsAPNGCannotHoldAreRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("flight.png")
        #expect(throws: ImageCodecError.self) {
            try AnimatedPNGWriter(url: url, width: 0, height: 4, frameCount: 2, framesPerSecond: 10)
        }
        #expect(throws: ImageCodecError.self) {
            try AnimatedPNGWriter(url: url, width: 4, height: 4, frameCount: 0, framesPerSecond: 10)
        }
        #expect(throws: ImageCodecError.self) {
            try AnimatedPNGWriter(url: url, width: 4, height: 4, frameCount: 2, framesPerSecond: 10, loopCount: -1)
        }
        #expect(throws: ImageCodecError.self) {
            try AnimatedPNGWriter(
                url: url, width: 4, height: 4, frameCount: 2, frameDelayNumerator: 1, frameDelayDenominator: 0)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}
