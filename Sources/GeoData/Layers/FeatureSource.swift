public import MapCore

/// Vector features loaded once, with a spatial index to find those in a map rect quickly.
///
/// Two sources exist: ``FeatureCollectionSource`` (a GeoJSON or GPX file, or any features,
/// indexed by a grid) and ``GeoPackageSource`` (one GeoPackage feature table, indexed by its
/// R-tree). The renderer does not draw from a source directly but from a ``PreparedLayer``,
/// which holds the source's geometry projected and simplified for one zoom level.
///
/// Sources are classes because a ``PreparedLayerCache`` keys its layers by source identity.
///
/// A source may hold its features in memory (a GeoJSON file) or read them on demand (a
/// GeoPackage table, whose rows are read when a query first meets them): drawing a street at
/// zoom 16 reads the few countries, lakes and rivers around it, not the world's.
/// ``features(at:)`` is the way to the features a query found; ``features`` reads them all.
public protocol FeatureSource: AnyObject, Sendable {
    /// A name for messages: the file name, or `file.gpkg:table` for a GeoPackage table.
    var name: String { get }
    /// The number of features; indices run from 0 to `featureCount - 1`.
    var featureCount: Int { get }
    /// Every feature, in the order of the file or table (a source reading on demand reads them
    /// all now, once).
    var features: [Feature] { get }
    /// The map rect of each feature, aligned with ``features``; ``MapRect/null`` for a
    /// feature without positions. Rects lie within the central world copy, x in [0, worldSize].
    var featureRects: [MapRect] { get }
    /// The features at `indices` (each in `0..<featureCount`), in the order given, read now
    /// when the source reads on demand.
    ///
    /// - Throws: ``GeoDataError`` when a GeoPackage's rows cannot be read.
    func features(at indices: [Int]) throws(GeoDataError) -> [Feature]
    /// The indices into ``features`` of the features whose map rect meets `rect`, which must
    /// lie within the central world copy (use ``MapRect/worldCopies`` to get there).
    ///
    /// - Throws: ``GeoDataError/sqlite(_:)`` when a GeoPackage's index cannot be queried.
    func featureIndices(inWorldRect rect: MapRect) throws(GeoDataError) -> [Int]
}

extension FeatureSource {
    /// The number of features: `features.count`, for sources holding them in memory.
    public var featureCount: Int {
        features.count
    }

    /// The features at `indices`, from ``features``, for sources holding them in memory.
    public func features(at indices: [Int]) throws(GeoDataError) -> [Feature] {
        let features = features
        return indices.map { features[$0] }
    }

    /// The map rect enclosing every feature; ``MapRect/null`` when there is none.
    public var bounds: MapRect {
        featureRects.reduce(MapRect.null) { $0.union($1) }
    }

    /// The features whose map rect meets `rect`, each once, in source order.
    ///
    /// `rect` may cross the antimeridian (maxX > worldSize) or start west of it: features found
    /// in the part beyond the central world copy are returned too, and belong drawn shifted by
    /// that copy's offset (±worldSize). ``PreparedLayer/features(in:marginPixels:)`` does that
    /// shift itself; prefer it for drawing.
    ///
    /// - Throws: ``GeoDataError/sqlite(_:)`` when a GeoPackage's index cannot be queried.
    public func features(in rect: MapRect) throws(GeoDataError) -> [Feature] {
        var indices = Set<Int>()
        for copy in rect.worldCopies {
            indices.formUnion(try featureIndices(inWorldRect: copy.rect))
        }
        return try features(at: indices.sorted())
    }
}
