public import Foundation

extension Style {
    /// The ids of vector sources that layers draw but that have no data (no `url`, or a tile
    /// server's TileJSON, ``VectorSource/tileServer``), sorted. The `streets` style ships this
    /// way: the vector tiles are the user's to supply.
    public var unconfiguredVectorSourceIDs: [String] {
        let used = Set(layers.compactMap(\.source))
        return sources.compactMap { id, source in
            guard used.contains(id), case .vector(let vector) = source, vector.location == .unconfigured else {
                return nil
            }
            return id
        }.sorted()
    }

    /// Whether layers draw a vector source of vector tiles, or one waiting for them.
    public var drawsVectorTiles: Bool {
        let used = Set(layers.compactMap(\.source))
        return sources.contains { id, source in
            guard used.contains(id), case .vector(let vector) = source else { return false }
            return vector.location.readsVectorTiles || vector.location == .unconfigured
        }
    }

    /// Checks that every vector source the layers draw has data.
    ///
    /// - Throws: ``StyleError/Kind/unconfiguredVectorSources(style:sourceIDs:)``, whose message
    ///   says the style needs a vector tileset.
    public func requireConfiguredVectorSources() throws(StyleError) {
        let missing = unconfiguredVectorSourceIDs
        guard missing.isEmpty else {
            let servers = missing.compactMap { id -> String? in
                guard case .vector(let vector)? = sources[id] else { return nil }
                return vector.tileServer
            }
            // A public style's file is often style.json: its own name says more than the file's.
            let label = servers.isEmpty ? id : name ?? id
            throw StyleError(.unconfiguredVectorSources(style: label, sourceIDs: missing, tileServers: servers))
        }
    }

    /// The style with a vector source's data replaced by a vector tileset, as `--vector-source`
    /// on the command line does: `render --style streets --vector-source helsinki.mbtiles`.
    ///
    /// - Parameters:
    ///   - tileset: An MBTiles or PMTiles file of Mapbox Vector Tiles.
    ///   - id: The vector source to configure; nil configures every unconfigured vector source,
    ///     or, when there is none, every vector source that reads vector tiles.
    /// - Throws: ``StyleError/Kind/unknownSource(_:)`` when `id` names no vector source, or when
    ///   `id` is nil and the style has no vector-tile source to bind.
    public func configuringVectorSources(_ tileset: URL, id: String? = nil) throws(StyleError) -> Style {
        var ids = id.map { [$0] } ?? unconfiguredVectorSourceIDs
        if id == nil, ids.isEmpty { ids = streetBasemapSourceIDs(schema: .openMapTiles) }
        if id == nil, ids.isEmpty {
            ids = sources.compactMap { id, source in
                guard case .vector(let vector) = source, vector.location.readsVectorTiles else { return nil }
                return id
            }.sorted()
        }
        guard !ids.isEmpty else {
            throw StyleError(
                .invalidValue(
                    "style '\(self.id)' has no vector tile source to read it: it draws GeoPackages (such as the basemap) only"
                ))
        }
        var style = self
        for sourceID in ids {
            guard case .vector(var vector) = sources[sourceID] else { throw StyleError(.unknownSource(sourceID)) }
            vector.location = .tileset(tileset)
            style.sources[sourceID] = .vector(vector)
        }
        return style
    }

    /// The ids of vector sources that read the registered street-level basemaps of `schema`
    /// (`basemap://streets`, `basemap://streets-protomaps`: ``VectorSourceLocation/streetBasemaps(_:)``),
    /// sorted; of either schema when nil (the default).
    public func streetBasemapSourceIDs(schema: StreetSchema? = nil) -> [String] {
        sources.compactMap { id, source in
            guard case .vector(let vector) = source, case .streetBasemaps(let found) = vector.location,
                schema == nil || found == schema
            else { return nil }
            return id
        }.sorted()
    }

    /// The style with its street-level basemap sources reading the tilesets of their schema in
    /// `tilesets` (the registered basemaps, first wins where they overlap); a schema with none
    /// draws nothing.
    public func configuringStreetBasemaps(_ tilesets: [StreetSchema: [URL]]) -> Style {
        var style = self
        for id in streetBasemapSourceIDs() {
            guard case .vector(var vector) = sources[id], case .streetBasemaps(let schema) = vector.location else {
                continue
            }
            vector.location = .tilesets(tilesets[schema] ?? [])
            style.sources[id] = .vector(vector)
        }
        return style
    }
}
