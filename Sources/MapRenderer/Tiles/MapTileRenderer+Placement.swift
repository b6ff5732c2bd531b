import CCairo
import Foundation
package import MapCore
import MapData
import MapStyle

extension MapTileRenderer {
    /// Places a region's labels and the callout (see ``TilePlacement`` and ``PlacementRegion``).
    ///
    /// The world is seen through one viewport as large as the world at the region's zoom. Every
    /// labelled feature of every visible symbol layer that meets the region with its margin is a
    /// candidate, anchored inside its largest whole polygon (or at its first point) and ranked by
    /// that polygon's whole area or the style's sort key, exactly as an image ranks what it shows;
    /// upper layers place first. With markers drawn (``TileRenderOptions/Layers/all``), labels keep
    /// clear of the markers' bodies and the callout, as in an image. Labels must lie wholly inside
    /// the world. The region keeps the labels it owns (``PlacementRegion/keeps(anchor:bounds:)``).
    /// The cost is one text layout per labelled feature near the region.
    func makePlacement(for region: PlacementRegion) throws(RendererError) -> TilePlacement {
        let zoom = region.zoom
        let world = try worldViewport(forTileZoom: zoom)
        let worldSize = world.size
        let viewportZoom = options.viewportZoomLevel(forTileZoom: zoom)
        let pointsPerMapPoint = ZoomLevel.zoomScale(atZoomLevel: viewportZoom)
        let canvas = try Canvas(
            widthPoints: 1, heightPoints: 1, scale: Double(options.scale), target: .image, fonts: data.fonts)
        let metadata = style.mapwright
        let drawsMarkers = options.layers != .basemap
        let callout = drawsMarkers ? calloutPlacement(in: world, cairo: canvas.cairo) : nil
        // Where candidates come from, in world points and in map points (the world: everything).
        let area: ViewRect? = region.isWorld ? nil : region.candidateRect
        let mapArea =
            area.map {
                MapRect(
                    x: $0.minX / pointsPerMapPoint, y: $0.minY / pointsPerMapPoint,
                    width: $0.size.width / pointsPerMapPoint, height: $0.size.height / pointsPerMapPoint)
            } ?? .world

        var labels: [TilePlacement.Label] = []
        if options.layers != .overlays {
            let styleZoom = viewportZoom + MapSnapshotter.styleZoomOffset
            let painter = StylePainter(
                viewport: world, styleZoomLevel: styleZoom, style: style, data: data, cairo: canvas.cairo,
                visibleMapRect: mapArea)
            var candidatesByLayer: [(layerIndex: Int, candidates: [LabelCandidate])] = []
            let context = SymbolContext(
                images: painter.images, placement: metadata.labels.placement,
                glyphs: StyleGlyphs(style: style, data: data))
            for (index, layer) in style.layers.enumerated().reversed() where layer.isVisible(atZoom: styleZoom) {
                guard case .symbol(let symbol) = layer.kind else { continue }
                let features = try painter.unclippedFeatures(of: layer, in: mapArea)
                var candidates = LabelCandidate.candidates(
                    of: symbol, features: features, viewport: world, styleZoomLevel: styleZoom, context: context,
                    cairo: canvas.cairo)
                if let area {
                    // Whole features meeting the area may have anchors far from it (a long road's).
                    candidates.removeAll {
                        $0.center.x < area.minX || $0.center.x > area.maxX || $0.center.y < area.minY
                            || $0.center.y > area.maxY
                    }
                }
                if !candidates.isEmpty { candidatesByLayer.append((index, candidates)) }
            }
            for name in context.missingImages.value.sorted() { data.noteMissingImage(name) }
            var taken = CollisionIndex()
            if drawsMarkers, let markerLayer = content.markers,
                let bounds = ViewRect(
                    enclosing: candidatesByLayer.flatMap(\.candidates).flatMap {
                        [$0.bounds.origin, ViewPoint(x: $0.bounds.maxX, y: $0.bounds.maxY)]
                    })
            {
                // The markers where labels are, in world points as the labels are.
                let area = MapRect(
                    x: bounds.minX / pointsPerMapPoint, y: bounds.minY / pointsPerMapPoint,
                    width: bounds.size.width / pointsPerMapPoint, height: bounds.size.height / pointsPerMapPoint)
                let markers = markerLayer.layOut(in: world, visibleMapRect: area, style: metadata)
                for frame in markers.bodyFrames { taken.insert(frame) }
                if let callout { taken.insert(callout.inkFrame.insetBy(dx: 6, dy: 6)) }
            }
            let placer = LabelPlacer(
                paddingPoints: metadata.labels.collisionPadding, placement: metadata.labels.placement)
            for (index, candidates) in candidatesByLayer {
                for label in placer.place(candidates, in: worldSize, avoiding: &taken)
                where region.keeps(anchor: label.center, bounds: label.bounds) {
                    labels.append(TilePlacement.Label(label, layerIndex: index))
                }
            }
        }
        return TilePlacement(worldSize: worldSize, labels: labels, callout: callout)
    }

    /// The world at a tile zoom seen through one viewport as large as it: `tileSizePoints × 2^zoom`
    /// points square, centred on the world's centre, so that its view points are world points
    /// (what ``TilePlacement`` places in, and each tile render's window is cut from).
    package func worldViewport(forTileZoom zoom: Int) throws(RendererError) -> Viewport {
        let worldPoints = Double(options.tileSizePoints) * exp2(Double(zoom))
        do {
            return try Viewport(
                centerMapPoint: MapRect.world.center, zoomLevel: options.viewportZoomLevel(forTileZoom: zoom),
                size: ViewSize(width: worldPoints, height: worldPoints), scale: Double(options.scale))
        } catch {
            throw .invalidTileOptions(reason: error.description)
        }
    }

    /// The selected marker's callout in `world` (see ``worldViewport(forTileZoom:)``), with its
    /// text laid out in `cairo`; nil without markers or a selection, or when its marker does not
    /// show.
    func calloutPlacement(in world: Viewport, cairo: OpaquePointer) -> (any MarkerCalloutPlacement)? {
        content.markers?.worldCallout(in: world, style: style.mapwright, cairo: cairo)
    }
}
