import Synchronization

/// Prepared layers by (source, zoom level, screen scale): each is prepared once, on first
/// request, and shared by every render at that zoom.
///
/// The cache is synchronous and thread-safe: a renderer drawing tiles on all cores calls it
/// from each. A `Mutex` guards the table of entries; each entry has its own `Mutex`, held while
/// its layer is prepared, so threads asking for the same layer wait for the one preparing it
/// (it is prepared once) while threads asking for other layers go on.
///
/// For example:
///
/// ```swift
/// let cache = PreparedLayerCache()
/// let zoom = PreparedLayer.preparationZoomLevel(for: camera.zoomLevel)
/// let layer = cache.preparedLayer(for: countries, zoomLevel: zoom, screenScale: 2)
/// ```
///
/// Layers stay until ``removeAll()``; a CLI render holds a few zoom levels of a few layers.
public final class PreparedLayerCache: Sendable {
    private struct Key: Hashable {
        var source: ObjectIdentifier
        var zoomLevel: Int
        var screenScale: Double
    }

    private final class Entry: Sendable {
        let layer = Mutex<PreparedLayer?>(nil)
    }

    private let entries = Mutex<[Key: Entry]>([:])

    /// Creates an empty cache.
    public init() {}

    /// The layer of `source` prepared for `zoomLevel` and `screenScale`, prepared now if it
    /// has not been yet.
    ///
    /// - Parameters:
    ///   - source: The features; the cache keeps it alive while its layers are cached.
    ///   - zoomLevel: The integer zoom level (see ``PreparedLayer/preparationZoomLevel(for:)``), clamped to [0, 30].
    ///   - screenScale: Pixels per point, clamped to [1, 4].
    /// - Returns: The same instance for every call with the same arguments, until ``removeAll()``.
    public func preparedLayer(for source: any FeatureSource, zoomLevel: Int, screenScale: Double) -> PreparedLayer {
        let key = Key(
            source: ObjectIdentifier(source),
            zoomLevel: PreparedLayer.clamped(zoomLevel: zoomLevel),
            screenScale: PreparedLayer.clamped(screenScale: screenScale)
        )
        let entry = entries.withLock { entries in
            if let entry = entries[key] { return entry }
            let entry = Entry()
            entries[key] = entry
            return entry
        }
        return entry.layer.withLock { layer in
            if let layer { return layer }
            let prepared = PreparedLayer(source: source, zoomLevel: key.zoomLevel, screenScale: key.screenScale)
            layer = prepared
            return prepared
        }
    }

    /// The number of layers prepared and held.
    public var count: Int {
        entries.withLock { entries in entries.values.filter { $0.layer.withLock { $0 != nil } }.count }
    }

    /// Forgets every layer (and the sources they keep alive).
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
