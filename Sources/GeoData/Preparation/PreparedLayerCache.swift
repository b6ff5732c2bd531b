import MapUtilities

/// Prepared layers by (source, zoom level, screen scale): each is prepared once, on first
/// request, and shared by every render at that zoom.
///
/// The cache is synchronous and thread-safe (a `OnceCache`): a renderer drawing tiles on all
/// cores calls it from each; threads asking for the same layer wait for the one preparing it
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

    private let layers = OnceCache<Key, PreparedLayer>()

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
        return layers.value(for: key) {
            PreparedLayer(source: source, zoomLevel: key.zoomLevel, screenScale: key.screenScale)
        }
    }

    /// The number of layers prepared and held.
    public var count: Int {
        layers.count
    }

    /// Forgets every layer (and the sources they keep alive).
    public func removeAll() {
        layers.removeAll()
    }
}
