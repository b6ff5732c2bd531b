import Foundation
import ImageCodec
import MapComposer
import MapCore
import MapRenderer
import MapStyle
import MapTestSupport
import PhotoSources
import Testing

/// Fly-overs: ends exactly on the framed regions, a rise between distant ones, frames rendered
/// in parallel but delivered in order and equal to single renders, eased as CSS's `ease`, and
/// outputs that are whole or absent.
struct FlyoverTests {
    private let builder = PhotoMapBuilder(
        data: RenderFixtures.data,
        thumbnails: ThumbnailCache(
            directory: FileManager.default.temporaryDirectory
                .appendingPathComponent("mapwright-thumbnails-tests")))

    private func request(_ framing: PhotoMapRequest.Framing, size: ViewSize = ViewSize(width: 160, height: 120)) throws
        -> PhotoMapRequest
    {
        var request = PhotoMapRequest(
            photos: [Photo(id: "louvre", title: "Louvre", coordinate: try RenderFixtures.coordinate(48.8606, 2.3376))],
            style: try RenderFixtures.plainStyle(), size: size)
        request.framing = framing
        return request
    }

    private var paris: PhotoMapRequest.Framing {
        .center(try! RenderFixtures.coordinate(48.8566, 2.3522), zoomLevel: 11)
    }
    private var bavaria: PhotoMapRequest.Framing {
        .region(
            CoordinateRegion(
                center: try! RenderFixtures.coordinate(48.9, 11.4),
                span: try! CoordinateSpan(latitudeDelta: 2.5, longitudeDelta: 4)))
    }

    @Test func theEndsAreTheFramedViewsExactly() throws {
        var startRequest = try request(paris)
        startRequest.pitchDegrees = 20
        let start = try builder.viewport(framing: startRequest)
        var endRequest = try request(bavaria)
        endRequest.headingDegrees = 300
        endRequest.pitchDegrees = 45
        let end = try builder.viewport(framing: endRequest)
        let flyover = try Flyover(from: start, to: end, frameCount: 24, framesPerSecond: 24)
        #expect(flyover.frames.first?.viewport == start)
        #expect(flyover.frames.last?.viewport == end)
        #expect(flyover.frames.last?.viewport.camera.headingDegrees == 300)
        // The region is framed at the end: its corners show in the last frame.
        for corner in [(47.65, 9.4), (50.15, 13.4)] {
            let point = try #require(end.point(for: try RenderFixtures.coordinate(corner.0, corner.1)))
            #expect(point.x >= 0 && point.x <= 160 && point.y >= 0 && point.y <= 120, "corner \(corner) at \(point)")
        }
        // Time runs evenly; heading turns the short way (0 -> 300 through 330, not 180).
        #expect(flyover.frames.map(\.timeSeconds) == (0..<24).map { Double($0) / 24 })
        #expect(
            flyover.frames.allSatisfy {
                $0.viewport.camera.headingDegrees == 0 || $0.viewport.camera.headingDegrees >= 300
            })
    }

    @Test func betweenDistantRegionsTheCameraRises() throws {
        let start = try builder.viewport(framing: try request(paris))
        let end = try builder.viewport(
            framing: try request(.center(try RenderFixtures.coordinate(40.7128, -74.006), zoomLevel: 11)))
        let flyover = try Flyover(from: start, to: end, frameCount: 60, framesPerSecond: 30, easing: .linear)
        let zooms = flyover.frames.map(\.viewport.zoomLevel)
        let lowest = try #require(zooms.min())
        #expect(lowest < 4, "the camera should rise far above both ends (zoom 11); it reached zoom \(lowest)")
        let lowestIndex = try #require(zooms.firstIndex(of: lowest))
        #expect((20...40).contains(lowestIndex), "the highest point should be near the middle, at frame \(lowestIndex)")
        // Down, then up, without wobbling.
        #expect(zip(zooms.prefix(lowestIndex), zooms.dropFirst().prefix(lowestIndex)).allSatisfy { $0 >= $1 })
        #expect(zip(zooms[lowestIndex...], zooms[(lowestIndex + 1)...]).allSatisfy { $0 <= $1 })
    }

    /// CSS's `ease` is cubic-bezier(0.25, 0.1, 0.25, 1): at half the time it has covered
    /// 80.24 % of the way (0.802403387584857, found by bisecting the curve's x in Python's floats).
    @Test func easeIsCSSEase() {
        #expect(abs(Flyover.Easing.ease.progress(atTime: 0.5) - 0.802403387584857) < 1e-9)
        #expect(Flyover.Easing.ease.progress(atTime: 0) == 0 && Flyover.Easing.ease.progress(atTime: 1) == 1)
        #expect(Flyover.Easing.linear.progress(atTime: 0.3) == 0.3)
        let samples = stride(from: 0.0, through: 1, by: 0.01).map { Flyover.Easing.ease.progress(atTime: $0) }
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func framesRenderInParallelButArriveInOrderAsSingleRendersDrawThem() throws {
        let base = try request(paris)
        let start = try builder.viewport(framing: base)
        var endRequest = try request(.center(try RenderFixtures.coordinate(48.87, 2.30), zoomLevel: 13))
        endRequest.pitchDegrees = 50
        let end = try builder.viewport(framing: endRequest)
        let flyover = try Flyover(from: start, to: end, frameCount: 9, framesPerSecond: 10)
        var delivered: [Int] = []
        var images: [RGBAImage] = []
        var progress: [Int] = []
        try builder.renderFrames(
            of: flyover, request: base, snapshotter: RenderFixtures.snapshotter, progress: { progress.append($0) },
            deliver: { index, image in
                delivered.append(index)
                images.append(image)
            })
        #expect(delivered == Array(0..<9))
        #expect(progress == Array(1...9))
        for index in [0, 4, 8] {
            var options = try builder.options(for: base)
            options.viewport = flyover.frames[index].viewport
            #expect(images[index] == (try RenderFixtures.snapshotter.snapshot(options).image), "frame \(index)")
        }
    }

    @Test func aFailingDeliveryStopsTheFramesAndLeavesNoOutput() throws {
        let folder = try TemporaryDirectory()
        let start = try builder.viewport(framing: try request(paris))
        let end = try builder.viewport(framing: try request(bavaria))
        let flyover = try Flyover(from: start, to: end, frameCount: 12, framesPerSecond: 12)
        let target = folder.url.appendingPathComponent("flight.png")
        do {
            let writer = try FlyoverWriter(
                output: .animatedPNG(target), width: start.pixelWidth, height: start.pixelHeight, frameCount: 12,
                framesPerSecond: 12)
            struct Stop: Error {}
            #expect(throws: Stop.self) {
                try builder.renderFrames(
                    of: flyover, request: try request(paris), snapshotter: RenderFixtures.snapshotter
                ) { index, image in
                    if index == 5 { throw Stop() }
                    try writer.write(image)
                }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
    }

    @Test func animatedPNGFramesFolderAndCameras() throws {
        let folder = try TemporaryDirectory()
        let base = try request(paris)
        let start = try builder.viewport(framing: base)
        let end = try builder.viewport(framing: try request(bavaria))
        let flyover = try Flyover(from: start, to: end, frameCount: 5, framesPerSecond: 5)
        for output in [
            FlyoverWriter.Output.animatedPNG(folder.url.appendingPathComponent("flight.png")),
            .frames(folder.url.appendingPathComponent("frames")),
        ] {
            let writer = try FlyoverWriter(
                output: output, width: start.pixelWidth, height: start.pixelHeight, frameCount: 5, framesPerSecond: 5)
            var first: RGBAImage?
            try builder.renderFrames(of: flyover, request: base, snapshotter: RenderFixtures.snapshotter) {
                index, image in
                if index == 0 { first = image }
                try writer.write(image)
            }
            try writer.finish()
            switch output {
            case .animatedPNG(let url):
                // A plain PNG decoder shows the first frame.
                #expect(try RGBAImage(contentsOf: url) == first)
            case .frames(let url):
                let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
                #expect(names == (0..<5).map(FlyoverWriter.frameFileName))
                #expect(try RGBAImage(contentsOf: url.appendingPathComponent("frame-00001.png")) == first)
            case .video: break
            }
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["flight.png", "frames"])
        let cameras = try #require(try JSONSerialization.jsonObject(with: flyover.camerasJSON()) as? [String: Any])
        let frames = try #require(cameras["frames"] as? [[String: Any]])
        #expect(frames.count == 5)
        #expect(frames.first?["latitude"] as? Double == 48.8566 && frames.first?["zoom"] as? Double == 11)
        #expect(cameras["framesPerSecond"] as? Double == 5 && cameras["width"] as? Double == 160)
    }

    /// An MP4 made through ffmpeg (installed by scripts/setup.sh), checked by ffprobe: its frame
    /// count, size and rate.
    @Test func videoThroughFFmpeg() throws {
        let folder = try TemporaryDirectory()
        let base = try request(paris, size: ViewSize(width: 161, height: 121))
        let start = try builder.viewport(framing: base)
        var endRequest = try request(bavaria, size: ViewSize(width: 161, height: 121))
        endRequest.pitchDegrees = 30
        let end = try builder.viewport(framing: endRequest)
        let flyover = try Flyover(from: start, to: end, frameCount: 15, framesPerSecond: 15)
        let url = folder.url.appendingPathComponent("flight video.mp4")
        let writer = try FlyoverWriter(
            output: .video(url), width: 161, height: 121, frameCount: 15, framesPerSecond: 15)
        try builder.renderFrames(of: flyover, request: base, snapshotter: RenderFixtures.snapshotter) { _, image in
            try writer.write(image)
        }
        try writer.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["flight video.mp4"])
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = [
            "-v", "error", "-count_frames", "-select_streams", "v:0",
            "-show_entries", "stream=nb_read_frames,width,height,r_frame_rate", "-of", "csv=p=0", url.path,
        ]
        let output = Pipe()
        probe.standardOutput = output
        try probe.run()
        probe.waitUntilExit()
        let fields = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // Odd sides are padded to even ones for yuv420p.
        #expect(fields == "162,122,15/1,15")
    }
}
