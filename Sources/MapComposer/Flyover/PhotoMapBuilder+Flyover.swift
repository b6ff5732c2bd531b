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
        try withoutActuallyEscaping(deliver) { deliver in
            try withoutActuallyEscaping(progress) { progress in
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
                                    guard state.failure == nil, let image = state.finished.removeValue(forKey: state.nextToDeliver) else { return nil }
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
