import Foundation
public import ImageCodec
public import MapCore
public import MapRenderer
import MapUtilities
import Synchronization

extension PhotoMapBuilder {
    /// The view a request frames (a region, a centre and zoom, a place, a camera, or its content),
    /// under its heading and pitch: one end of a fly-over.
    ///
    /// - Throws: ``PhotoMapError`` as ``options(for:)`` does.
    public func viewport(framing request: PhotoMapRequest) throws(PhotoMapError) -> Viewport {
        try options(for: request).viewport
    }

    /// One end of a fly-over: what it frames, and the camera's heading and pitch there.
    public struct FlyoverEnd: Sendable {
        public var framing: PhotoMapRequest.Framing
        /// Degrees clockwise from north. The default is 0.
        public var headingDegrees: Double
        /// Degrees from looking straight down. The default is 0.
        public var pitchDegrees: Double

        public init(framing: PhotoMapRequest.Framing, headingDegrees: Double = 0, pitchDegrees: Double = 0) {
            self.framing = framing
            self.headingDegrees = headingDegrees
            self.pitchDegrees = pitchDegrees
        }
    }

    /// The fly-over of `request` (its photos, overlays, size and scale) from one end to the
    /// other: each end framed as ``viewport(framing:)`` frames it.
    ///
    /// - Parameters:
    ///   - frameCount: Two or more; nil works it out from the duration.
    ///   - durationSeconds: How long the flight lasts, for a nil `frameCount`; nil takes
    ///     ``Flyover/defaultDurationSeconds(of:)``, MapLibre's `flyTo` for the distance.
    ///   - framesPerSecond: Positive.
    ///   - easing: How time maps to progress.
    /// - Throws: ``PhotoMapError`` when an end cannot be framed or a frame's camera shown.
    public func flyover(
        of request: PhotoMapRequest, from start: FlyoverEnd, to end: FlyoverEnd, frameCount: Int?,
        durationSeconds: Double?,
        framesPerSecond: Double, easing: Flyover.Easing
    ) throws(PhotoMapError) -> Flyover {
        func view(_ flyoverEnd: FlyoverEnd) throws(PhotoMapError) -> Viewport {
            var endRequest = request
            endRequest.framing = flyoverEnd.framing
            endRequest.headingDegrees = flyoverEnd.headingDegrees
            endRequest.pitchDegrees = flyoverEnd.pitchDegrees
            return try viewport(framing: endRequest)
        }
        let (first, last) = (try view(start), try view(end))
        let count: Int
        if let frameCount {
            count = frameCount
        } else {
            var seconds = durationSeconds ?? 0
            if durationSeconds == nil {
                seconds = Flyover.defaultDurationSeconds(
                    of: try Flyover(from: first, to: last, frameCount: 2, framesPerSecond: framesPerSecond).path)
            }
            count = max(2, Int((seconds * framesPerSecond).rounded()))
        }
        return try Flyover(from: first, to: last, frameCount: count, framesPerSecond: framesPerSecond, easing: easing)
    }

    /// Renders every frame of a fly-over of a request's photos and overlays on every core, and
    /// hands the frames to `deliver` in order, one at a time.
    ///
    /// Each frame is the request seen from the frame's camera (its framing replaced). Frames are
    /// rendered two or more at once (one per core) and kept until the ones before them are
    /// delivered. When a frame fails, or `deliver` throws, no more frames are started and the
    /// error is thrown once the frames under way finish.
    ///
    /// - Parameters:
    ///   - progress: Called with the number of frames delivered so far, after each one, on the
    ///     delivering thread.
    ///   - deliver: Takes each frame's index and image, in order.
    /// - Throws: ``PhotoMapError`` for a frame that cannot be composed or rendered, or what
    ///   `deliver` throws.
    public func renderFrames(
        of flyover: Flyover, request: PhotoMapRequest, snapshotter: MapSnapshotter,
        progress: (Int) -> Void = { _ in }, deliver: (Int, RGBAImage) throws -> Void
    ) throws {
        let count = flyover.frames.count
        let state = Mutex(FrameState())
        let workers = max(1, min(count, ProcessInfo.processInfo.activeProcessorCount))
        withoutActuallyEscaping(deliver) { deliver in
            withoutActuallyEscaping(progress) { progress in
                // The caller's closures, called by one delivering thread at a time (under the lock).
                let delivery = Mutex(UnsafeTransfer((deliver: deliver, progress: progress)))
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    while true {
                        // Take the next frame, unless something failed.
                        let next: Int? = state.withLock { state in
                            guard state.failure == nil, state.nextToRender < count else { return nil }
                            defer { state.nextToRender += 1 }
                            return state.nextToRender
                        }
                        guard let index = next else { return }
                        let frame = flyover.frames[index]
                        var frameRequest = request
                        frameRequest.framing = .center(frame.stop.centerCoordinate, zoomLevel: frame.viewport.zoomLevel)
                        frameRequest.headingDegrees = frame.viewport.camera.headingDegrees
                        frameRequest.pitchDegrees = frame.viewport.camera.pitchDegrees
                        let rendered: Result<RGBAImage, any Error> = Result {
                            var options = try self.options(for: frameRequest)
                            options.viewport = frame.viewport
                            do throws(RendererError) { return try snapshotter.snapshot(options).image } catch {
                                throw PhotoMapError.renderer(error)
                            }
                        }
                        state.withLock { state in
                            switch rendered {
                            case .success(let image): state.finished[index] = image
                            case .failure(let error): state.failure = state.failure ?? error
                            }
                        }
                        // Deliver what is ready, in order; one thread at a time.
                        delivery.withLock { closures in
                            while true {
                                let ready: (Int, RGBAImage)? = state.withLock { state in
                                    guard state.failure == nil,
                                        let image = state.finished.removeValue(forKey: state.nextToDeliver)
                                    else { return nil }
                                    defer { state.nextToDeliver += 1 }
                                    return (state.nextToDeliver, image)
                                }
                                guard let (readyIndex, image) = ready else { break }
                                do {
                                    try closures.wrappedValue.deliver(readyIndex, image)
                                    closures.wrappedValue.progress(readyIndex + 1)
                                } catch {
                                    state.withLock { $0.failure = $0.failure ?? error }
                                }
                            }
                        }
                    }
                }
            }
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }
}

/// What the frame workers share: the next frame to start and to deliver, finished frames, and
/// the first failure.
private struct FrameState: ~Copyable {
    var nextToRender = 0
    var nextToDeliver = 0
    var finished: [Int: RGBAImage] = [:]
    var failure: (any Error)?
}
