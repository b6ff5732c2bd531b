import Foundation
public import MapCore
import Synchronization

/// A vector source's geometry prepared for one zoom level and screen scale: projected to map
/// points and simplified to the pixel size, once, for every render at that zoom.
///
/// Get layers from a ``PreparedLayerCache``, which prepares each (source, zoom, scale) once.
/// Then, for each image or tile, ask for what lies in its map rect:
///
/// ```swift
/// let layer = cache.preparedLayer(for: countries, zoomLevel: 5, screenScale: 2)
/// for feature in try layer.features(in: viewportRect) {
///     // fill feature.geometry.polygons with the even-odd rule, in map points
/// }
/// ```
///
/// Features are prepared on demand, when a query first meets them, and kept: a view at zoom
/// 16 prepares the countries and lakes around it, not the world's at street-level detail (which
/// took half a second). Any number of threads may query a layer at once; each feature is
/// prepared once (the layer's lock is held while preparing).
public final class PreparedLayer: Sendable {
    /// The source the geometry comes from.
    public let source: any FeatureSource
    /// The zoom level the geometry is simplified for, in [0, 30].
    public let zoomLevel: Int
    /// Pixels per screen point (2 for @2x), in [1, 4].
    public let screenScale: Double
    /// The simplification tolerance: one pixel, in map points.
    public let tolerance: Double
    /// Every source feature prepared but not clipped, aligned with the source's features:
    /// those not prepared yet are prepared now (and a source reading on demand reads them all).
    public var features: [PreparedFeature] {
        if let all = preparedFeatures.withLock({ $0.all }) { return all }
        let all = (try? prepared(Array(0..<source.featureCount))) ?? []
        preparedFeatures.withLock { $0.all = all }
        return all
    }

    /// The features prepared so far, by source index (a dictionary: a deep zoom prepares few of
    /// a large source's features, and a slot per feature at every zoom came to tens of megabytes);
    /// `all` once ``features`` was asked for.
    private struct Prepared {
        var byIndex: [Int: PreparedFeature] = [:]
        var all: [PreparedFeature]?
    }

    private let preparedFeatures: Mutex<Prepared>

    /// Makes a layer that prepares the features of `source` as queries meet them; prefer
    /// ``PreparedLayerCache/preparedLayer(for:zoomLevel:screenScale:)``.
    ///
    /// - Parameters:
    ///   - source: The features.
    ///   - zoomLevel: The zoom level, clamped to [0, 30].
    ///   - screenScale: Pixels per point, clamped to [1, 4].
    public init(source: any FeatureSource, zoomLevel: Int, screenScale: Double) {
        let zoomLevel = Self.clamped(zoomLevel: zoomLevel)
        let screenScale = Self.clamped(screenScale: screenScale)
        self.source = source
        self.zoomLevel = zoomLevel
        self.screenScale = screenScale
        tolerance = Self.tolerance(zoomLevel: zoomLevel, screenScale: screenScale)
        preparedFeatures = Mutex(Prepared())
    }

    /// The features at `indices` of the source, prepared (not clipped), in the order given;
    /// those not prepared yet are read from the source and prepared now.
    ///
    /// - Throws: ``GeoDataError`` when a GeoPackage's rows cannot be read.
    public func prepared(_ indices: [Int]) throws(GeoDataError) -> [PreparedFeature] {
        try preparedFeatures.withLock { state throws(GeoDataError) in
            let missing = indices.filter { state.byIndex.index(forKey: $0) == nil }
            if !missing.isEmpty {
                let tolerance = tolerance
                for (index, feature) in zip(missing, try source.features(at: missing)) {
                    state.byIndex[index] = PreparedFeature(
                        sourceIndex: index,
                        properties: feature.properties,
                        geometry: feature.geometry.map { PreparedGeometry(projecting: $0, tolerance: tolerance) }
                            ?? PreparedGeometry()
                    )
                }
            }
            return indices.map { state.byIndex[$0]! }
        }
    }

    /// A zoom level clamped to [0, 30], the levels geometry is prepared for.
    static func clamped(zoomLevel: Int) -> Int {
        min(Int(ZoomLevel.maximum), max(0, zoomLevel))
    }

    /// Pixels per point rounded up to a quarter and clamped to [1, 4], the scales of a ``Viewport``.
    static func clamped(screenScale: Double) -> Double {
        // Up to a quarter: views at any fraction of a scale (a pitched view's ground is drawn at
        // the resolution its nearest row needs) share a few preparations, each fine enough.
        min(4, max(1, (screenScale * 4).rounded(.up) / 4))
    }

    /// The size of a pixel in map points at a zoom level: 2^(20 − z) / screenScale.
    ///
    /// For example, zoom 20 at @1x is 1 map point; zoom 0 at @2x is 524,288.
    public static func tolerance(zoomLevel: Int, screenScale: Double) -> Double {
        exp2(WebMercator.mapPointZoomLevel - Double(zoomLevel)) / screenScale
    }

    /// The integer zoom level to prepare geometry for when drawing at a fractional zoom level:
    /// rounded up, so that simplification never removes detail wider than a pixel. Clamped to [0, 30].
    ///
    /// For example, 12.3 gives 13.
    public static func preparationZoomLevel(for zoomLevel: Double) -> Int {
        guard zoomLevel.isFinite else { return 0 }
        return Int(min(ZoomLevel.maximum, max(0, zoomLevel.rounded(.up))))
    }

    /// The features meeting `rect`, clipped to it (plus a margin), ready to draw.
    ///
    /// `rect` is the area drawn, in map points; it may reach past the antimeridian
    /// (maxX > worldSize) or start west of 0, as a viewport showing the date line does. Each
    /// world copy it overlaps is queried in the central copy, and the geometry found is moved
    /// by the copy's offset, so it lands where the rect expects it: the renderer draws what it
    /// gets, with no wrapping of its own. A feature seen in two copies comes twice, once per copy.
    ///
    /// - Parameters:
    ///   - rect: The map rect to draw.
    ///   - marginPixels: How far beyond `rect` features are looked for, in pixels, so that
    ///     strokes and polygon outlines cut at the margin stay out of sight. The default is 16.
    ///   - clipMarginPixels: How far beyond `rect` the geometry found is cut, in pixels; at least
    ///     `marginPixels`. The default, nil, is `marginPixels`. A wide margin (tiles use 2^21
    ///     pixels) keeps every edge that crosses the view as it is: a cut close to the view
    ///     rounds the cut point and tilts the edge by a fraction of a pixel, so two views cut in
    ///     different places would antialias the same coast differently.
    /// - Returns: Prepared features with non-empty clipped geometry, in source order per copy.
    /// - Throws: ``GeoDataError/sqlite(_:)`` when a GeoPackage's index cannot be queried.
    public func features(in rect: MapRect, marginPixels: Double = 16, clipMarginPixels: Double? = nil)
        throws(GeoDataError) -> [PreparedFeature]
    {
        let margin = max(0, marginPixels) * tolerance
        let clipMargin = max(margin, max(0, clipMarginPixels ?? marginPixels) * tolerance)
        let area = rect.insetBy(dx: -margin, dy: -margin)
        let clipArea = rect.insetBy(dx: -clipMargin, dy: -clipMargin)
        var result: [PreparedFeature] = []
        for copy in area.worldCopies {
            // The copy's part of the area, widened to the clip margin within the same copy.
            let clipRect = clipMargin == margin ? copy.rect : clipArea.offsetBy(dx: -copy.offsetX, dy: 0)
            for var feature in try prepared(try source.featureIndices(inWorldRect: copy.rect)) {
                feature.geometry = feature.geometry.clipped(to: clipRect).offsetBy(dx: copy.offsetX)
                if !feature.geometry.isEmpty { result.append(feature) }
            }
        }
        return result
    }
}
