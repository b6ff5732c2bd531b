public import Foundation

extension Style {
    /// The ids of raster-dem sources that read the registered elevation tilesets
    /// (`basemap://terrain`, ``RasterTileLocation/terrainBasemaps``), sorted.
    public var terrainBasemapSourceIDs: [String] {
        sources.compactMap { id, source in
            guard case .rasterDEM(let dem) = source, dem.tiles.tiles == .terrainBasemaps else { return nil }
            return id
        }.sorted()
    }

    /// The style with its `basemap://terrain` sources reading `tilesets` (the registered DEMs,
    /// first wins where they overlap) in `encoding`, tiles of `tileSizePixels` (MapLibre's
    /// `tileSize`, the tiles' own width for DEMs) and, where the source gives none,
    /// `attribution`. With no tilesets they draw nothing.
    ///
    /// ```swift
    /// let shaded = style.configuringTerrainBasemaps(
    ///     [URL(fileURLWithPath: "alps.mbtiles")], encoding: .terrarium, tileSizePixels: 256, attribution: "© Mapterhorn")
    /// ```
    public func configuringTerrainBasemaps(
        _ tilesets: [URL], encoding: DEMEncoding, tileSizePixels: Int, attribution: String? = nil
    ) -> Style {
        var style = self
        for id in terrainBasemapSourceIDs {
            guard case .rasterDEM(var dem) = sources[id] else { continue }
            dem.tiles.tiles = .files(tilesets)
            dem.encoding = encoding
            dem.tiles.tileSize = tileSizePixels
            if dem.tiles.attribution == nil, !tilesets.isEmpty { dem.tiles.attribution = attribution }
            style.sources[id] = .rasterDEM(dem)
        }
        return style
    }
}

extension Style {
    /// Whether a raster or hillshade layer draws pictures at `zoom` (MapLibre's): visible there,
    /// and of a source with tiles (not `basemap://terrain` without a DEM). Maps with such
    /// pictures are encoded with PNG's adaptive row filters.
    public func drawsRasterPixels(atZoom zoom: Double) -> Bool {
        layers.contains { layer in
            guard [.raster, .hillshade].contains(layer.type), layer.isVisible(atZoom: zoom) else { return false }
            switch layer.source.flatMap({ sources[$0] }) {
            case .raster(let raster)?: return raster.tiles?.drawsNothing != true
            case .rasterDEM(let dem)?: return dem.tiles.tiles?.drawsNothing != true
            default: return true
            }
        }
    }
}
