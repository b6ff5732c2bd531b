public import Foundation
public import MapCore
import MapJSON
import MapRenderer

/// A fly-over animation between two views, as MapKit animates a camera change and MapLibre's
/// `flyTo` does: the camera rises from the first view, travels over, and descends onto the second
/// along van Wijk and Nuij's smooth optimal path (see `FlightPath`), turning and tilting on the
/// way when the ends' headings or pitches differ.
///
/// The frames are evenly spaced in time; ``Easing`` maps time to progress along the path. The
/// first frame shows exactly the first view and the last exactly the second.
///
/// For example, three seconds at 30 frames a second from Paris to Berlin:
///
/// ```swift
/// let flyover = try Flyover(from: paris, to: berlin, frameCount: 91, framesPerSecond: 30)
/// for frame in flyover.frames { print(frame.viewport.camera) }
/// ```
public struct Flyover: Sendable {
    /// How time maps to progress along the path.
    public enum Easing: String, Hashable, Sendable, CaseIterable {
        /// Constant speed along the path.
        case linear
        /// Speeding up from rest and slowing to a stop: MapLibre's default easing, the CSS
        /// cubic-bezier(0.25, 0.1, 0.25, 1).
        case ease

        /// The progress at a fraction of the time, both in [0, 1]; 0 and 1 map to themselves.
        public func progress(atTime time: Double) -> Double {
            guard time > 0 else { return 0 }
            guard time < 1 else { return 1 }
            switch self {
            case .linear: return time
            case .ease: return CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1).y(atX: time)
            }
        }
    }

    /// One frame: when it shows and what the camera sees.
    public struct Frame: Hashable, Sendable {
        /// From 0.
        public let index: Int
        /// Seconds from the start.
        public let timeSeconds: Double
        /// The camera on the path.
        public let stop: FlightPath.Stop
        /// The view of the frame, the size and scale of the ends.
        public let viewport: Viewport
    }

    /// The path between the ends' cameras.
    public let path: FlightPath
    /// Every frame, the ends included.
    public let frames: [Frame]
    /// Frames a second.
    public let framesPerSecond: Double
    /// How time maps to progress along the path.
    public let easing: Easing

    /// How long MapLibre's `flyTo` takes along `path` (its length at 1.2 units a second), kept
    /// within 1 to 30 seconds: the default length of an animation.
    public static func defaultDurationSeconds(of path: FlightPath) -> Double {
        min(30, max(1, path.durationSeconds()))
    }

    /// Creates the frames of a fly-over between two views of the same size and scale.
    ///
    /// - Parameters:
    ///   - start: The first frame's view.
    ///   - end: The last frame's view.
    ///   - frameCount: Two or more.
    ///   - framesPerSecond: Positive.
    ///   - easing: How time maps to progress. The default is ``Easing/ease``.
    ///   - curvature: The path's ρ. The default is MapLibre's, 1.42.
    /// - Throws: ``PhotoMapError/viewport(_:)`` when a frame's camera cannot be shown (a view too
    ///   small for the path's zoom levels).
    public init(
        from start: Viewport, to end: Viewport, frameCount: Int, framesPerSecond: Double, easing: Easing = .ease,
        curvature: Double = FlightPath.defaultCurvature
    ) throws(PhotoMapError) {
        precondition(frameCount >= 2, "a fly-over has at least two frames")
        precondition(framesPerSecond > 0 && framesPerSecond.isFinite, "a fly-over's frame rate must be positive")
        precondition(
            start.size == end.size && start.scale == end.scale, "a fly-over's ends must have the same size and scale")
        do {
            path = try FlightPath(
                from: FlightPath.Stop(start), to: FlightPath.Stop(end), viewSize: start.size, curvature: curvature)
        } catch {
            throw .viewport(error)
        }
        self.framesPerSecond = framesPerSecond
        self.easing = easing
        var frames: [Frame] = []
        frames.reserveCapacity(frameCount)
        for index in 0..<frameCount {
            let time = Double(index) / Double(frameCount - 1)
            let stop =
                index == 0
                ? path.start : index == frameCount - 1 ? path.end : path.stop(at: easing.progress(atTime: time))
            // The ends are the given views themselves.
            let viewport: Viewport
            if index == 0 {
                viewport = start
            } else if index == frameCount - 1 {
                viewport = end
            } else {
                do {
                    viewport = try Viewport(
                        center: stop.centerCoordinate, zoomLevel: stop.zoomLevel, size: start.size, scale: start.scale,
                        headingDegrees: stop.headingDegrees, pitchDegrees: stop.pitchDegrees)
                } catch {
                    throw .viewport(error)
                }
            }
            frames.append(
                Frame(index: index, timeSeconds: Double(index) / framesPerSecond, stop: stop, viewport: viewport))
        }
        self.frames = frames
    }

    /// The frames' cameras as JSON: the view's size and scale, the frame rate, and for each frame
    /// its index, time, centre, zoom level, heading, pitch and altitude (MapKit's camera: the
    /// eye's height in meters over the ground at the centre).
    ///
    /// ```json
    /// {"width":640,"height":480,"scale":1,"framesPerSecond":30,"easing":"ease","frames":[{"index":0,
    /// "timeSeconds":0,"latitude":48.8566,"longitude":2.3522,"zoom":11,"heading":0,"pitch":0,"altitudeMeters":36209.827},…]}
    /// ```
    public func camerasJSON() -> Data {
        var writer = JSONWriter()
        writer.beginObject()
        let size = frames.first?.viewport.size ?? ViewSize(width: 0, height: 0)
        writer.key("width")
        writer.number(size.width)
        writer.key("height")
        writer.number(size.height)
        writer.key("scale")
        writer.number(frames.first?.viewport.scale ?? 1)
        writer.key("framesPerSecond")
        writer.number(framesPerSecond)
        writer.key("easing")
        writer.string(easing.rawValue)
        writer.key("frames")
        writer.beginArray()
        for frame in frames {
            writer.beginObject()
            let camera = frame.viewport.camera
            writer.key("index")
            writer.number(Double(frame.index))
            writer.key("timeSeconds")
            writer.number(frame.timeSeconds, decimalPlaces: 6)
            writer.key("latitude")
            writer.number(camera.centerCoordinate.latitude, decimalPlaces: 9)
            writer.key("longitude")
            writer.number(camera.centerCoordinate.longitude, decimalPlaces: 9)
            writer.key("zoom")
            writer.number(frame.viewport.zoomLevel, decimalPlaces: 9)
            writer.key("heading")
            writer.number(camera.headingDegrees, decimalPlaces: 9)
            writer.key("pitch")
            writer.number(camera.pitchDegrees, decimalPlaces: 9)
            writer.key("altitudeMeters")
            writer.number(camera.altitudeMeters, decimalPlaces: 3)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.newline()
        return Data(writer.bytes)
    }
}

/// A CSS cubic Bézier timing curve from (0, 0) to (1, 1) with control points (x1, y1) and
/// (x2, y2), x1 and x2 in [0, 1].
struct CubicBezier {
    let x1: Double, y1: Double, x2: Double, y2: Double

    /// The curve's y where its x is `x`: the curve's parameter found by Newton's method, with
    /// bisection when that stalls, to 1e-12.
    func y(atX x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = coordinate(t, x1, x2) - x
            if abs(error) < 1e-12 { return coordinate(t, y1, y2) }
            let slope = derivative(t, x1, x2)
            guard abs(slope) > 1e-9 else { break }
            t -= error / slope
        }
        var low = 0.0
        var high = 1.0
        t = x
        while high - low > 1e-12 {
            if coordinate(t, x1, x2) < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return coordinate(t, y1, y2)
    }

    private func coordinate(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    private func derivative(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
    }
}
