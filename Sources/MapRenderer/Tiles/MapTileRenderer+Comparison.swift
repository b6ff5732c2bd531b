package import MapCore

extension MapTileRenderer {
    /// Whether `other` draws the same basemap and overlay layers as this renderer: the same
    /// options and style, and the same data when the basemap is drawn. Two such renderers differ
    /// at most in their content, which is what a tile cache compares to find the tiles to drop.
    package func drawsLike(_ other: MapTileRenderer) -> Bool {
        options == other.options && (options.layers == .overlays || data === other.data) && style == other.style
    }

    /// The selected marker's callout as tiles of `zoom` place it in the world (see
    /// ``TilePlacement``), in world points; nil without markers or a selection, or when its
    /// marker does not show.
    ///
    /// - Throws: ``RendererError/invalidTileOptions(reason:)`` for a zoom outside 0-30.
    package func worldCallout(atTileZoom zoom: Int) throws(RendererError) -> (any MarkerCalloutPlacement)? {
        let world = try worldViewport(forTileZoom: zoom)
        let canvas = try Canvas(
            widthPoints: 1, heightPoints: 1, scale: Double(options.scale), target: .image, fonts: data.fonts)
        return calloutPlacement(in: world, cairo: canvas.cairo)
    }

    /// The labels of `zoom` that this renderer and `other` (see ``drawsLike(_:)``) place
    /// differently, in the placement regions that `frames` (world points) meet: each label's
    /// bounds grown by how far its ink may reach, in world points. Labels keep clear of markers
    /// and the callout, so where those changed, labels may move; elsewhere they stay. Both
    /// renderers' placements of those regions are made (and kept) on the way: the costly part.
    package func changedLabelFrames(
        comparedWith other: MapTileRenderer, meeting frames: [ViewRect], zoom: Int
    ) throws(RendererError) -> [ViewRect] {
        let margin = TilePlacement.labelInkMarginPoints
        let regions = Set(
            frames.flatMap { PlacementRegion.regions(meeting: $0, zoom: zoom, tileSizePoints: options.tileSizePoints) })
        var changed: [ViewRect] = []
        for region in regions.sorted() {
            let oldLabels = Set(try placement(of: region).labels)
            let newLabels = Set(try other.placement(of: region).labels)
            for label in oldLabels.symmetricDifference(newLabels) {
                changed.append(label.bounds.insetBy(dx: -margin, dy: -margin))
            }
        }
        return changed
    }
}
