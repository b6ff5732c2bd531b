import Foundation

extension Style {
    /// The ids of raster sources that layers draw but that have neither `tiles` nor `url`,
    /// sorted. Styles such as `satellite` ship this way: imagery is the user's to supply.
    public var unconfiguredRasterSourceIDs: [String] {
        let used = Set(layers.compactMap(\.source))
        return sources.compactMap { id, source in
            guard used.contains(id), case .raster(let raster) = source, !raster.isConfigured else { return nil }
            return id
        }.sorted()
    }

    /// Checks that every raster source the layers draw says where its tiles come from.
    ///
    /// - Throws: ``StyleError/Kind/unconfiguredRasterSources(style:sourceIDs:)``, whose message
    ///   says the style needs a tile URL template or an MBTiles or PMTiles file.
    public func requireConfiguredRasterSources() throws(StyleError) {
        let missing = unconfiguredRasterSourceIDs
        guard missing.isEmpty else { throw StyleError(.unconfiguredRasterSources(style: id, sourceIDs: missing)) }
    }

    /// The style with a raster source's tiles replaced, as `--raster-source` on the command line
    /// does.
    ///
    /// For example:
    ///
    /// ```swift
    /// let imagery = try RasterTileLocation(argument: "https://tiles.example.com/{z}/{x}/{y}.jpg")
    /// let satellite = try style.configuringRasterSources(imagery)
    /// ```
    ///
    /// - Parameters:
    ///   - tiles: The URL templates or tileset file (MBTiles or PMTiles).
    ///   - id: The raster source to configure; nil configures every unconfigured raster source.
    /// - Throws: ``StyleError/Kind/unknownSource(_:)`` when `id` names no raster source, or when
    ///   `id` is nil and the style has no unconfigured raster source.
    public func configuringRasterSources(_ tiles: RasterTileLocation, id: String? = nil) throws(StyleError) -> Style {
        let ids = id.map { [$0] } ?? unconfiguredRasterSourceIDs
        guard !ids.isEmpty else {
            throw StyleError(.invalidValue("style '\(self.id)' has no raster source waiting for tiles"))
        }
        var style = self
        for sourceID in ids {
            guard case .raster(var raster) = sources[sourceID] else { throw StyleError(.unknownSource(sourceID)) }
            raster.tiles = tiles
            style.sources[sourceID] = .raster(raster)
        }
        return style
    }
}
