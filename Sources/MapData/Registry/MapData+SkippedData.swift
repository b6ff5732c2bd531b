import Synchronization

extension MapData {
    /// What a source left out of the renders so far, and the one warning line saying so.
    public struct SkippedData: Sendable, Hashable {
        /// The source's file path, or "inline GeoJSON": what a log keys the warning by.
        public let source: String
        /// The line to print: the source, what was left out (counted) and the first reason.
        public let warning: String
    }

    /// One entry per GeoJSON source that cannot be read (drawn as empty, as MapLibre does) or
    /// whose broken features are left out, and per sprite that cannot be read; one for the
    /// images layers named that no sprite has; then
    /// per vector tileset whose renders so far left data out: broken features and unreadable
    /// tiles, counted, with the first reason; empty when nothing was left out. Renders never fail
    /// on such data (see ``VectorTileSource``): commands print these once a map or an export is
    /// done, `serve` logs them once per source.
    public func skippedData() -> [SkippedData] {
        let (sources, skippedAtLoad, missing, sprites) = caches.withLock {
            (Array($0.vectorTileSources.values), $0.skippedSources, $0.missingImages, Array($0.styleImages.values))
        }
        var skipped = skippedAtLoad
        // An SVG folder's icon librsvg cannot draw is found when a layer first names it.
        for failure in sprites.flatMap(\.failures) where !skipped.contains(where: { $0.warning == failure }) {
            skipped.append(SkippedData(source: "sprite", warning: failure))
        }
        let tilesets = sources.compactMap { source in
            source.skippedData.warning(path: source.path).map { SkippedData(source: source.path, warning: $0) }
        }
        var images: [SkippedData] = []
        if let first = missing.first {
            let others =
                missing.count == 1 ? "" : missing.count == 2 ? " and 1 other" : " and \(missing.count - 1) others"
            images.append(
                SkippedData(
                    source: "sprite", warning: "no sprite has the image '\(first)'\(others): what names it is not drawn"
                ))
        }
        return skipped + images + tilesets.sorted { $0.warning < $1.warning }
    }

    /// The warning lines of ``skippedData()``, in its order.
    public func skippedDataWarnings() -> [String] { skippedData().map(\.warning) }
}
