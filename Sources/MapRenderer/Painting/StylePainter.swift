import CCairo
import Foundation
import GeoData
import ImageCodec
import MapCore
import MapData
import MapJSON
import MapStyle
import Synchronization

/// Draws a style's background, fill, line and raster layers through a viewport, and gives any
/// layer's features in view (symbol layers' labels are placed from them by the snapshotter).
struct StylePainter {
    let viewport: Viewport
    /// The line rasteriser's coverage buffer for this render, from ``MapData``'s pool.
    let lineScratch: LineRasteriser.ScratchLease
    let style: Style
    let data: MapData
    let cairo: OpaquePointer
    /// The area drawn, in map points (world copies included).
    let visibleMapRect: MapRect
    /// For one band of an image: the image's area and the features its bands share (each
    /// layer's read once for the whole image, each band drawing those that meet it, so that
    /// lines read whole for dashes, patterns and gradients join the same pieces in every band);
    /// nil otherwise.
    let bandSharing: BandSharing?
    /// The zoom level the style is evaluated at (layer visibility, sizes, colours): the
    /// viewport's for images, one less for tiles (see `MapTileRenderer`). Geometry is prepared
    /// for the viewport's zoom level, whatever the style's.
    let zoomLevel: Double
    /// How far beyond the view geometry is cut, in pixels; nil for PreparedLayer's default (16).
    /// Tiles cut far away (see `RenderPass.clipMarginPixels`).
    let clipMarginPixels: Double?
    /// The state of features, which `feature-state` reads; empty by default.
    let featureStates: FeatureStates
    /// The style's sprite images at the viewport's scale, which patterns name.
    let images: StyleImages
    /// The vector tile sources read so far, by source id.
    private let vectorSources = VectorSources()

    init(
        viewport: Viewport, styleZoomLevel: Double? = nil, clipMarginPixels: Double? = nil, style: Style, data: MapData,
        cairo: OpaquePointer, visibleMapRect: MapRect, bandSharing: BandSharing? = nil,
        featureStates: FeatureStates = FeatureStates()
    ) {
        self.viewport = viewport
        self.style = style
        self.data = data
        self.cairo = cairo
        self.visibleMapRect = visibleMapRect
        self.bandSharing = bandSharing
        zoomLevel = styleZoomLevel ?? viewport.zoomLevel + MapSnapshotter.styleZoomOffset
        self.clipMarginPixels = clipMarginPixels
        self.featureStates = featureStates
        lineScratch = data.lineScratches.lease()
        images = data.styleImages(for: style.sprites, pixelRatio: viewport.scale)
    }

    /// The layer's features in view, prepared for this zoom and clipped, filtered by the layer,
    /// with their state (see ``addingStates(to:of:)``).
    func features(of layer: StyleLayer) throws(RendererError) -> [PreparedFeature] {
        addingStates(to: try statelessFeatures(of: layer), of: layer)
    }

    private func statelessFeatures(of layer: StyleLayer) throws(RendererError) -> [PreparedFeature] {
        if let tiles = try vectorTiles(of: layer) {
            // Tiles cut their features to their bounds; those of the tiles meeting the view and
            // a margin of 16 pixels (strokes and outlines crossing the edge) are drawn.
            let margin =
                16
                * PreparedLayer.tolerance(
                    zoomLevel: PreparedLayer.preparationZoomLevel(for: viewport.zoomLevel), screenScale: viewport.scale)
            guard let zoom = tiles.zoom else { return [] }
            let area = visibleMapRect.insetBy(dx: -margin, dy: -margin)
            // Features far from the view are left out before the filter; a symbol layer's are
            // all kept, as label placement has always seen them (a label outside may still win
            // over one inside).
            let meetingRectOnly = layer.type != .symbol
            if let bandSharing {
                let image = bandSharing.imageMapRect.insetBy(dx: -margin, dy: -margin)
                // A band draws those that reach its own rows, where every feature reaches alike.
                let reachArea = reachPoints(of: layer).flatMap { bandReachArea(points: $0, marginMapPoints: margin) }
                return try bandSharing.features.features(.init(layerID: layer.id, whole: false)) {
                    () throws(RendererError) in
                    try tileFeatures(
                        of: layer, from: tiles.source, in: image, zoom: zoom, meetingRectOnly: meetingRectOnly)
                }.meeting(reachArea ?? area)
            }
            return try tileFeatures(
                of: layer, from: tiles.source, in: area, zoom: zoom, meetingRectOnly: meetingRectOnly)
        }
        guard let prepared = try preparedLayer(of: layer) else { return [] }
        let features: [PreparedFeature]
        if let (clustering, key) = clustering(of: layer) {
            features = clusteredFeatures(of: prepared, clustering: clustering, key: key, in: visibleMapRect)
        } else {
            do {
                features = try prepared.features(
                    in: visibleMapRect, clipMarginPixels: symbolLineClipMargin(of: layer) ?? clipMarginPixels)
            } catch {
                throw .mapData(.data(error))
            }
        }
        return filtered(features, by: layer)
    }

    /// For a symbol layer placed along lines (`line`; `line-center` keeps the view's margin), a clip margin (device pixels) as wide as a tile at
    /// the tile zoom: GL lays line labels out on each tile's piece of a line, so the pieces of
    /// every tile the view meets must be whole. Nil for other layers.
    private func symbolLineClipMargin(of layer: StyleLayer) -> Double? {
        guard case .symbol(let symbol) = layer.kind, symbol.placement.value(atZoom: zoomLevel) == .line else {
            return nil
        }
        let tileScale = exp2(zoomLevel - zoomLevel.rounded(.down))
        return max(clipMarginPixels ?? 0, 512 * tileScale * viewport.scale)
    }

    /// The layer's features that meet `rect` (map points, world copies included), whole: not
    /// clipped, each moved into the world copy it was found in; filtered by the layer. A vector
    /// tileset's features are whole within their tiles, and the lines of one feature cut at tile
    /// edges are joined again (dashes run on across tiles).
    func unclippedFeatures(of layer: StyleLayer, in rect: MapRect) throws(RendererError) -> [PreparedFeature] {
        addingStates(to: try statelessUnclippedFeatures(of: layer, in: rect), of: layer)
    }

    private func statelessUnclippedFeatures(of layer: StyleLayer, in rect: MapRect) throws(RendererError)
        -> [PreparedFeature]
    {
        if let tiles = try vectorTiles(of: layer) {
            guard let zoom = tiles.zoom else { return [] }
            return StylePainter.joiningLines(
                of: try tileFeatures(of: layer, from: tiles.source, in: rect, zoom: zoom, meetingRectOnly: false))
        }
        guard let prepared = try preparedLayer(of: layer) else { return [] }
        if let (clustering, key) = clustering(of: layer) {
            let features = clusteredFeatures(of: prepared, clustering: clustering, key: key, in: rect)
            return filtered(features, by: layer)
        }
        let readsGeometry = layer.filter?.readsGeometry == true
        var result: [PreparedFeature] = []
        for copy in rect.worldCopies {
            let found: [PreparedFeature]
            do { found = try prepared.prepared(try prepared.source.featureIndices(inWorldRect: copy.rect)) } catch {
                throw .mapData(.data(error))
            }
            for var feature in found {
                guard !feature.geometry.isEmpty,
                    layer.filter == nil || includes(feature, in: layer, readsGeometry: readsGeometry)
                else { continue }
                feature.geometry = feature.geometry.offsetBy(dx: copy.offsetX)
                result.append(feature)
            }
        }
        return result
    }

    /// The features of a vector tileset's tiles at `zoom` that meet `rect` and that the layer's
    /// filter passes, in tile order: each tile keeps its features' verdicts for the next render
    /// (see `TileFeatureFilter`), but for a filter that reads geometry, judged here every time.
    private func tileFeatures(
        of layer: StyleLayer, from source: VectorTileSource, in rect: MapRect, zoom: Int, meetingRectOnly: Bool
    ) throws(RendererError) -> [PreparedFeature] {
        let filter = layer.filter.flatMap { filter in
            TileFeatureFilter(filter, zoom: zoomLevel) { includes($0, in: layer, readsGeometry: false) }
        }
        let features = try RendererError.readingData { () throws(MapDataError) in
            try source.features(
                layer: layer.sourceLayer ?? "", in: rect, zoom: zoom, meetingRectOnly: meetingRectOnly, filter: filter)
        }
        return filter == nil ? filtered(features, by: layer) : features
    }

    /// The features the layer's filter passes (all without a filter).
    private func filtered(_ features: [PreparedFeature], by layer: StyleLayer) -> [PreparedFeature] {
        guard let filter = layer.filter else { return features }
        let readsGeometry = filter.readsGeometry
        return features.filter { includes($0, in: layer, readsGeometry: readsGeometry) }
    }

    /// Whether the layer's filter passes a feature at the style's zoom; the feature's shape in
    /// degrees is made for filters that read it (`within`, `distance`).
    private func includes(_ feature: PreparedFeature, in layer: StyleLayer, readsGeometry: Bool) -> Bool {
        guard let filter = layer.filter else { return true }
        // The properties as they are, with `$type` beside them where the filter may read it and
        // they lack it (a GeoPackage's or a GeoJSON file's features): a copy with it per feature
        // and layer was a tenth of the world tiles' time.
        return filter.evaluate(
            feature.properties, zoom: zoomLevel, geometry: readsGeometry ? feature.geometry.geoShapes : nil,
            typeName: filter.mayReadTypeKey ? feature.missingTypeName : nil)
    }

    /// The clustering of a layer's GeoJSON source and the source's cache key; nil for a layer of
    /// any other source, or of a GeoJSON source that does not cluster.
    private func clustering(of layer: StyleLayer) -> (GeoJSONSource.Clustering, String)? {
        guard let sourceID = layer.source, case .geoJSON(let geoJSON)? = style.sources[sourceID],
            let clustering = geoJSON.clustering
        else { return nil }
        return (clustering, geoJSON.data.cacheKey)
    }

    /// The vector tileset a layer draws from and the zoom of its tiles for this view; nil for a
    /// layer of another source.
    /// Decodes the vector tiles the visible layers will read, each source's on every core at once
    /// (see `VectorTileSource.prefetch(_:zoom:)`).
    func prefetchVectorTiles() throws(RendererError) {
        var seen: Set<ObjectIdentifier> = []
        for layer in style.layers where layer.isVisible(atZoom: zoomLevel) {
            guard let (source, zoom) = try vectorTiles(of: layer), let zoom,
                seen.insert(ObjectIdentifier(source)).inserted
            else { continue }
            try RendererError.readingData { () throws(MapDataError) in try source.prefetch(visibleMapRect, zoom: zoom) }
        }
    }

    private func vectorTiles(of layer: StyleLayer) throws(RendererError) -> (source: VectorTileSource, zoom: Int?)? {
        guard let sourceID = layer.source else { return nil }
        guard let styleSource = style.sources[sourceID] else { throw .unknownSource(layer: layer.id, source: sourceID) }
        guard case .vector(let vector) = styleSource,
            let source = try vectorSources.source(
                id: sourceID,
                make: { () throws(RendererError) in
                    try RendererError.readingData({ () throws(MapDataError) in try data.vectorTileSource(vector) })
                })
        else { return nil }
        return (source, source.tileZoom(forViewportZoom: viewport.zoomLevel))
    }

    /// The vector tile source of each of the style's sources a render reads, by source id, looked
    /// up in the map data once per painter rather than once per layer (MapData's key names the
    /// source's files: a string made each time).
    final class VectorSources: Sendable {
        private let sources = Mutex<[String: VectorTileSource?]>([:])

        func source(id: String, make: () throws(RendererError) -> VectorTileSource?) throws(RendererError)
            -> VectorTileSource?
        {
            if let known = sources.withLock({ $0[id] }) { return known }
            let made = try make()
            sources.withLock { $0[id] = made }
            return made
        }
    }

    /// Features whose lines are pieces of one line cut at tile edges, joined: features with the
    /// same properties become one, their lines joined end to start; polygons and points are
    /// kept as they come.
    static func joiningLines(of features: [PreparedFeature]) -> [PreparedFeature] {
        var result: [PreparedFeature] = []
        var slots: [[String: FeatureValue]: Int] = [:]
        var pieces: [Int: [[MapPoint]]] = [:]
        for feature in features {
            guard !feature.geometry.lines.isEmpty, feature.geometry.polygons.isEmpty, feature.geometry.points.isEmpty
            else {
                result.append(feature)
                continue
            }
            if let slot = slots[feature.properties] {
                pieces[slot, default: []] += feature.geometry.lines
            } else {
                slots[feature.properties] = result.count
                pieces[result.count] = feature.geometry.lines
                result.append(feature)
            }
        }
        for (slot, lines) in pieces where lines.count > 1 {
            result[slot].geometry = PreparedGeometry(lines: LineJoining.joined(lines, quantum: 1.0 / 16))
        }
        return result
    }

    /// The layer's source geometry prepared for the viewport's zoom level and scale; nil for a
    /// layer without a vector source.
    private func preparedLayer(of layer: StyleLayer) throws(RendererError) -> PreparedLayer? {
        guard let sourceID = layer.source else { return nil }
        guard let styleSource = style.sources[sourceID] else { throw .unknownSource(layer: layer.id, source: sourceID) }
        guard
            let source = try RendererError.readingData({ () throws(MapDataError) in
                try data.source(for: styleSource, sourceLayer: layer.sourceLayer)
            })
        else { return nil }
        return data.preparedLayers.preparedLayer(
            for: source,
            zoomLevel: PreparedLayer.preparationZoomLevel(for: viewport.zoomLevel),
            screenScale: viewport.scale
        )
    }

    /// Paints the background: `background-pattern` repeated over the view when set (nothing
    /// when no sprite has it, as in MapLibre), else `background-color`; at `background-opacity`.
    func drawBackground(_ background: BackgroundLayer) {
        let opacity = background.opacity.value(atZoom: zoomLevel)
        if let pattern = background.pattern {
            guard let image = patternImage(pattern, properties: [:]), let source = makePatternSource(image) else {
                return
            }
            defer { cairo_pattern_destroy(source) }
            cairo_set_source(cairo, source)
            cairo_paint_with_alpha(cairo, opacity)
            return
        }
        let color = background.color.value(atZoom: zoomLevel)
        cairo.setSource(color.with(alpha: color.alpha * opacity))
        cairo_paint(cairo)
    }

    /// Adds a polygon's rings to the current path, in view points.
    func addPolygon(_ rings: [[MapPoint]]) {
        for ring in rings where ring.count >= 3 {
            cairo.addRing(ring.compactMap(viewPoint(for:)))
        }
    }

    /// The view point of a feature's map point, on MapLibre's grid: MapLibre cuts a GeoJSON
    /// source into 512-pixel tiles of 8,192 units at the view's whole zoom (at most 18), so its
    /// vertices lie on a grid of 1/16 pixel; an edge through a pixel's centre then fills that
    /// pixel or not as MapLibre's does. A vector tile's vertices lie on this grid already.
    func viewPoint(for mapPoint: MapPoint) -> ViewPoint? {
        let tileZoom = min(18, max(0, (viewport.zoomLevel - 1).rounded(.down)))
        let grid = WebMercator.worldSize / (exp2(tileZoom) * 8192)
        return viewport.unwrappedPoint(
            for: MapPoint(x: (mapPoint.x / grid).rounded() * grid, y: (mapPoint.y / grid).rounded() * grid))
    }
}

extension PreparedGeometry {
    /// The shape in longitude and latitude, as `within` and `distance` read it.
    var geoShapes: GeoShapes {
        func position(_ point: MapPoint) -> GeoShapes.Position {
            let coordinate = point.coordinate
            return GeoShapes.Position(coordinate.longitude, coordinate.latitude)
        }
        return GeoShapes(
            points: points.map(position), lines: lines.map { $0.map(position) },
            polygons: polygons.map { $0.map { $0.map(position) } })
    }
}
