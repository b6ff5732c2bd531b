import MapCore
import MapJSON
import MapStyle

extension LabelCandidate {
    /// How far GL moves variable-anchored text off the anchor vertically, beyond the offset:
    /// 7/24 em, because glyphs seem to start at the baseline rather than at the line's top
    /// (GL's `baselineOffset`, in pixels of its 24-pixel em).
    static let variableBaselineOffsetEms = 7.0 / 24

    /// The anchors a point label tries in turn, each with the text's offset in ems, as GL's
    /// `getTextVariableAnchorOffset` makes them; empty when the layer has no variable anchors.
    ///
    /// `text-variable-anchor-offset` is taken as written (positive right and down). Otherwise
    /// each anchor of `text-variable-anchor` takes `text-radial-offset` (when the layer sets it:
    /// the distance to the text's nearest edge, along the diagonal for corner anchors) or
    /// `text-offset` as absolute distances along x and y, pointed away from the anchor, with
    /// GL's baseline shift.
    static func variableAnchors(of symbol: SymbolLayer, properties: [String: FeatureValue], zoom: Double)
        -> [VariableAnchorOffset]
    {
        if !symbol.textVariableAnchorOffset.isEmpty { return symbol.textVariableAnchorOffset }
        let anchors = symbol.textVariableAnchor.value(atZoom: zoom)
        guard !anchors.isEmpty else { return [] }
        if let radial = symbol.textRadialOffset {
            let distance = max(0, radial.value(atZoom: zoom, properties: properties))
            return anchors.map { VariableAnchorOffset(anchor: $0, offsetEms: radialOffset($0, distanceEms: distance)) }
        }
        let offset = symbol.textOffset.value(atZoom: zoom, properties: properties)
        return anchors.map {
            VariableAnchorOffset(
                anchor: $0, offsetEms: axisOffset($0, xEms: abs(offset.xPoints), yEms: abs(offset.yPoints)))
        }
    }

    /// GL's `fromRadialOffset`.
    private static func radialOffset(_ anchor: SymbolAnchor, distanceEms: Double) -> Translation {
        let diagonal = distanceEms / 2.0.squareRoot()
        let baseline = variableBaselineOffsetEms
        var x = 0.0
        var y = 0.0
        switch anchor {
        case .topLeft, .topRight: y = diagonal - baseline
        case .bottomLeft, .bottomRight: y = -diagonal + baseline
        case .top: y = distanceEms - baseline
        case .bottom: y = -distanceEms + baseline
        case .center, .left, .right: break
        }
        switch anchor {
        case .topRight, .bottomRight: x = -diagonal
        case .topLeft, .bottomLeft: x = diagonal
        case .left: x = distanceEms
        case .right: x = -distanceEms
        case .center, .top, .bottom: break
        }
        return Translation(xPoints: x, yPoints: y)
    }

    /// GL's `fromTextOffset`: `text-offset`'s distances pointed away from the anchor.
    private static func axisOffset(_ anchor: SymbolAnchor, xEms: Double, yEms: Double) -> Translation {
        let baseline = variableBaselineOffsetEms
        var x = 0.0
        var y = 0.0
        switch anchor {
        case .topLeft, .topRight, .top: y = yEms - baseline
        case .bottomLeft, .bottomRight, .bottom: y = -yEms + baseline
        case .center, .left, .right: break
        }
        switch anchor {
        case .topRight, .bottomRight, .right: x = -xEms
        case .topLeft, .bottomLeft, .left: x = xEms
        case .center, .top, .bottom: break
        }
        return Translation(xPoints: x, yPoints: y)
    }

    /// Whether everything the symbol takes (``bounds``) lies inside the 512-point source tile
    /// at zoom `tileZoom` that holds its anchor: what `symbol-avoid-edges` asks.
    func liesInsideItsTile(viewport: Viewport, tileZoom: Int) -> Bool {
        let tileSize = WebMercator.worldSize / Double(1 << max(0, min(tileZoom, 30)))
        guard let anchor = viewport.mapPoint(for: center) else { return false }
        let column = (anchor.x / tileSize).rounded(.down)
        let row = (anchor.y / tileSize).rounded(.down)
        let box = bounds
        for corner in [
            box.origin, ViewPoint(x: box.maxX, y: box.minY), ViewPoint(x: box.minX, y: box.maxY),
            ViewPoint(x: box.maxX, y: box.maxY),
        ] {
            guard let point = viewport.mapPoint(for: corner),
                (point.x / tileSize).rounded(.down) == column, (point.y / tileSize).rounded(.down) == row
            else { return false }
        }
        return true
    }
}
