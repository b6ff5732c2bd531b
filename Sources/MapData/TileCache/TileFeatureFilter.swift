package import GeoData
package import MapStyle

/// A style layer's filter as the tile cache applies it: each decoded tile keeps which of a layer's
/// features the filter passes, each found the first time a render asks for it, so warm renders, a server's
/// nearby views and an export's neighbouring tiles (which share the deeper zooms' overzoomed
/// tiles) never judge a feature twice, as MapLibre Native judges a tile's features once when it
/// makes the tile's buckets.
///
/// The verdicts are kept by the filter itself and, for a filter that reads the zoom, the zoom it
/// is evaluated at; so two styles over the same tiles, or two layers with the same filter, share
/// them. A filter that reads the feature's geometry (`within`, `distance`) is not kept: its
/// verdict depends on the world copy a feature is drawn in.
package struct TileFeatureFilter {
    /// What the verdicts are kept by.
    struct Key: Hashable, Sendable {
        let layer: String
        let filter: Filter
        /// The zoom the filter reads; nil for a filter that does not read it.
        let zoom: Double?
        /// The hash of the three, made once: the filter may be a large tree.
        let hash: Int

        init(layer: String, filter: Filter, zoom: Double?) {
            self.layer = layer
            self.filter = filter
            self.zoom = zoom
            var hasher = Hasher()
            hasher.combine(layer)
            hasher.combine(filter)
            hasher.combine(zoom)
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.layer == b.layer && a.zoom == b.zoom && a.filter == b.filter
        }
    }

    let filter: Filter
    let zoom: Double?
    /// Whether a feature passes: the filter evaluated as the renderer evaluates it.
    let includes: (PreparedFeature) -> Bool

    /// A filter evaluated at style zoom `zoom` by `includes`, whose verdicts tiles may keep; nil
    /// for a filter that reads geometry (see the type's documentation).
    package init?(_ filter: Filter, zoom: Double, includes: @escaping (PreparedFeature) -> Bool) {
        guard !filter.readsGeometry else { return nil }
        self.filter = filter
        self.zoom = filter.readsZoom ? zoom : nil
        self.includes = includes
    }

    /// The key of this filter's verdicts on the features of a tile's layer `layer`.
    func key(layer: String) -> Key { Key(layer: layer, filter: filter, zoom: zoom) }
}
