import GeoData
import MapCore
import MapStyle

extension StylePainter {
    /// How far a fill or line layer draws beyond its features' geometry at this zoom, in points,
    /// when every feature reaches alike: a fill its antialiased edge or one-pixel outline (1
    /// point), a line ``lineReachPoints(width:gapWidth:offset:blur:miterLimit:)``, each moved by
    /// its `*-translate`. Nil for other layers, and for a line whose width, gap, offset or blur
    /// differs between features (``drawLine(_:layer:)`` then asks feature by feature).
    func reachPoints(of layer: StyleLayer) -> Double? {
        switch layer.kind {
        case .fill(let fill):
            return 1
                + translationPoints(
                    fill.translate.value(atZoom: zoomLevel), anchor: fill.translateAnchor.value(atZoom: zoomLevel))
        case .line(let line):
            guard
                ![
                    line.width.isDataDriven, line.gapWidth.isDataDriven, line.offset.isDataDriven,
                    line.blur.isDataDriven,
                ].contains(true)
            else { return nil }
            let reach = Self.lineReachPoints(
                width: line.width.value(atZoom: zoomLevel), gapWidth: max(0, line.gapWidth.value(atZoom: zoomLevel)),
                offset: line.offset.value(atZoom: zoomLevel), blur: max(0, line.blur.value(atZoom: zoomLevel)),
                miterLimit: line.miterLimit.value(atZoom: zoomLevel))
            return reach
                + translationPoints(
                    line.translate.value(atZoom: zoomLevel), anchor: line.translateAnchor.value(atZoom: zoomLevel))
        default:
            return nil
        }
    }

    /// How far a line draws from its geometry, in points: its outset (half the width, or with a
    /// gap half the gap and a whole width) and offset, stretched by the longest join or cap (a
    /// miter reaches up to `line-miter-limit` times them, round and square ones less than
    /// twice), then its blur and a point of antialiasing.
    static func lineReachPoints(width: Double, gapWidth: Double, offset: Double, blur: Double, miterLimit: Double)
        -> Double
    {
        let outset = gapWidth > 0 ? gapWidth / 2 + width : width / 2
        return (max(0, outset) + abs(offset)) * max(2, miterLimit) + blur + 1
    }

    /// The length of a layer's `*-translate` in view points.
    func translationPoints(_ translation: Translation, anchor: TranslateAnchor) -> Double {
        let offset = viewTranslation(translation, anchor: anchor)
        return (offset.dx * offset.dx + offset.dy * offset.dy).squareRoot()
    }

    /// For one band of an image, the area whose features can draw into the band's own rows when
    /// they draw `reachPoints` beyond their geometry: the rows widened by that (at most by the
    /// band's buffer, as far as its view reaches) and `marginMapPoints`. Nil for a whole image
    /// or a tile, which draw every feature of their view.
    ///
    /// A band's view reaches ``MapSnapshotter/bandBufferPoints`` beyond its rows, for what may
    /// reach that far (circles, heatmap kernels, the widest lines); most features reach a few
    /// points, and a band that drew every feature of its view would draw a third of its
    /// neighbours' again (four 400-pixel bands of a 1600-pixel image, 128 pixels either side).
    func bandReachArea(points reachPoints: Double, marginMapPoints: Double = 0) -> MapRect? {
        guard let bandSharing else { return nil }
        let reach = min(max(0, reachPoints), MapSnapshotter.bandBufferPoints) / viewport.zoomScale + marginMapPoints
        return bandSharing.drawnMapRect.insetBy(dx: -reach, dy: -reach)
    }

    /// Whether `feature` can draw into a band's own rows when it draws `reachPoints` beyond its
    /// geometry (see ``bandReachArea(points:marginMapPoints:)``); true outside bands.
    func reachesBand(_ feature: PreparedFeature, points reachPoints: Double) -> Bool {
        guard let area = bandReachArea(points: reachPoints) else { return true }
        return feature.geometry.bounds.meets(area)
    }
}
