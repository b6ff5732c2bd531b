import CProj
import Foundation
public import MapCore
import Synchronization

/// A coordinate transformation between two coordinate reference systems, through PROJ.
///
/// CRS are named as PROJ accepts them: `EPSG:4326`, `EPSG:2154`, a PROJ string
/// (`+proj=utm +zone=33 +datum=WGS84`) or WKT. Axes are always in the traditional GIS order,
/// whatever the CRS's official order: longitude before latitude, easting before northing.
///
/// For example:
///
/// ```swift
/// let toMercator = try Projection(from: "EPSG:4326", to: "EPSG:3857")
/// let (x, y) = try toMercator.transform(x: 2.3522, y: 48.8566) // meters
/// ```
///
/// A `Projection` owns its own PROJ context, which PROJ does not allow two threads to use at
/// once; a lock serializes calls, so one instance can be shared across tasks. (That is why the
/// class is `@unchecked Sendable`: the context and operation are only used under the lock.)
public final class Projection: @unchecked Sendable {
    /// The source CRS as given.
    public let source: String
    /// The target CRS as given.
    public let target: String

    private let context: OpaquePointer
    private let operation: OpaquePointer
    private let lock = Mutex(())

    /// Creates the transformation from `source` to `target`.
    ///
    /// - Throws: ``ProjectionError/unknownCRS(_:reason:)`` naming the CRS PROJ does not know, or
    ///   ``ProjectionError/noOperation(source:target:reason:)``.
    public init(from source: String, to target: String) throws(ProjectionError) {
        guard let context = proj_context_create() else {
            throw .noOperation(source: source, target: target, reason: "PROJ could not create a context")
        }
        // PROJ prints its problems on standard error unless told otherwise; they come back as
        // errors naming the CRS instead, and a library prints nothing of its own.
        proj_log_level(context, PJ_LOG_NONE)
        // Check each CRS on its own first, so the error names the one that is wrong.
        for definition in [source, target] {
            guard let crs = proj_create(context, definition) else {
                let reason = Projection.lastError(in: context)
                proj_context_destroy(context)
                throw .unknownCRS(definition, reason: reason)
            }
            proj_destroy(crs)
        }
        guard let raw = proj_create_crs_to_crs(context, source, target, nil) else {
            let reason = Projection.lastError(in: context)
            proj_context_destroy(context)
            throw .noOperation(source: source, target: target, reason: reason)
        }
        let normalized = proj_normalize_for_visualization(context, raw)
        proj_destroy(raw)
        guard let normalized else {
            let reason = Projection.lastError(in: context)
            proj_context_destroy(context)
            throw .noOperation(source: source, target: target, reason: reason)
        }
        self.source = source
        self.target = target
        self.context = context
        self.operation = normalized
    }

    deinit {
        proj_destroy(operation)
        proj_context_destroy(context)
    }

    /// Transforms one position, in the source CRS's traditional GIS axis order.
    ///
    /// - Returns: The position in the target CRS (degrees for geographic CRS, else its unit).
    /// - Throws: ``ProjectionError/transformFailed(x:y:reason:)`` when PROJ cannot transform it.
    public func transform(x: Double, y: Double) throws(ProjectionError) -> (x: Double, y: Double) {
        try lock.withLock { _ throws(ProjectionError) in
            proj_errno_reset(operation)
            let output = proj_trans(operation, PJ_FWD, proj_coord(x, y, 0, 0))
            guard output.xy.x.isFinite, output.xy.y.isFinite, proj_errno(operation) == 0 else {
                throw .transformFailed(x: x, y: y, reason: Projection.lastError(in: context))
            }
            return (output.xy.x, output.xy.y)
        }
    }

    /// Transforms many positions in one call to PROJ.
    ///
    /// - Throws: ``ProjectionError/transformFailed(x:y:reason:)`` for the first position that fails.
    public func transform(_ points: [(x: Double, y: Double)]) throws(ProjectionError) -> [(x: Double, y: Double)] {
        var xs = points.map(\.x)
        var ys = points.map(\.y)
        let stride = MemoryLayout<Double>.stride
        try lock.withLock { _ throws(ProjectionError) in
            proj_errno_reset(operation)
            _ = xs.withUnsafeMutableBufferPointer { xBuffer in
                ys.withUnsafeMutableBufferPointer { yBuffer in
                    proj_trans_generic(
                        operation, PJ_FWD,
                        xBuffer.baseAddress, stride, xBuffer.count,
                        yBuffer.baseAddress, stride, yBuffer.count,
                        nil, 0, 0, nil, 0, 0
                    )
                }
            }
            for index in points.indices where !(xs[index].isFinite && ys[index].isFinite) {
                throw .transformFailed(
                    x: points[index].x, y: points[index].y, reason: Projection.lastError(in: context))
            }
        }
        return zip(xs, ys).map { ($0, $1) }
    }

    private static func lastError(in context: OpaquePointer) -> String {
        let code = proj_context_errno(context)
        guard code != 0, let message = proj_context_errno_string(context, code) else { return "PROJ gave no reason" }
        return String(cString: message)
    }
}

// MARK: - Coordinates

extension Projection {
    /// Transforms a position in the source CRS to a WGS 84 coordinate, when the target is geographic.
    ///
    /// - Throws: ``ProjectionError/transformFailed(x:y:reason:)`` when the result is not a valid
    ///   latitude and longitude.
    public func coordinate(x: Double, y: Double) throws(ProjectionError) -> Coordinate {
        let output = try transform(x: x, y: y)
        do {
            return try Coordinate(latitude: output.y, wrappingLongitude: output.x)
        } catch {
            throw .transformFailed(x: x, y: y, reason: error.description)
        }
    }

    /// Transforms a coordinate, when the source CRS is geographic (longitude, latitude in degrees).
    public func transform(_ coordinate: Coordinate) throws(ProjectionError) -> (x: Double, y: Double) {
        try transform(x: coordinate.longitude, y: coordinate.latitude)
    }
}
