import CCairo
import Foundation
import MapStyle

/// GL's draw order where it differs from the layers' order: GL draws the opaque layers below
/// the first fill-extrusion layer (a background or fill of one constant opaque colour at
/// opacity 1) first, in an opaque pass, and every other layer after them, bottom to top,
/// each hidden by the depth buffer where an opaque layer above it lies, except heatmaps,
/// which are drawn from their offscreen texture with no depth test. So a heatmap shows over
/// the opaque layers above it (a heatmap under an opaque background covers the map, faded).
///
/// Drawn in layer order, the same result comes from keeping each such heatmap as a Cairo group
/// and laying it again over every opaque layer drawn above it, through that layer's coverage.
/// Nothing changes, and nothing is kept, for a style without heatmaps under opaque layers.
struct OpaquePassOrder {
    /// The index of the first fill-extrusion layer (the opaque pass stops there); `Int.max`
    /// without one.
    private let opaquePassEnd: Int
    /// For each layer index, whether an opaque-pass layer lies above it.
    private let opaqueAbove: [Bool]
    private let opaque: [Bool]
    /// The heatmaps drawn so far that opaque layers above them must show again: Cairo patterns.
    private var heatmaps: [OpaquePointer] = []

    init(style: Style, zoomLevel: Double) {
        let layers = style.layers
        let end =
            layers.firstIndex { if case .fillExtrusion = $0.kind { return true } else { return false } } ?? Int.max
        let opaque = layers.enumerated().map { index, layer in
            index < end && layer.isVisible(atZoom: zoomLevel) && Self.isOpaque(layer, zoomLevel: zoomLevel)
        }
        opaquePassEnd = end
        self.opaque = opaque
        var above = [Bool](repeating: false, count: layers.count)
        var seen = false
        for index in layers.indices.reversed() {
            above[index] = seen
            seen = seen || opaque[index]
        }
        opaqueAbove = above
    }

    /// Whether GL draws a layer in its opaque pass: a background or fill with a constant opaque
    /// colour (not data-driven) at a constant opacity of 1.
    static func isOpaque(_ layer: StyleLayer, zoomLevel: Double) -> Bool {
        switch layer.kind {
        case .background(let background):
            return background.color.value(atZoom: zoomLevel).alpha >= 1
                && background.opacity.value(atZoom: zoomLevel) >= 1
        case .fill(let fill):
            return !fill.color.isDataDriven && !fill.opacity.isDataDriven
                && fill.color.value(atZoom: zoomLevel).alpha >= 1
                && fill.opacity.value(atZoom: zoomLevel) >= 1
        default:
            return false
        }
    }

    /// Draws the layer at `index` with `draw`: a heatmap under an opaque layer is kept to be
    /// laid again over it; an opaque layer over kept heatmaps lays them again through its
    /// coverage.
    mutating func drawLayer(
        at index: Int, of layer: StyleLayer, in cairo: OpaquePointer, _ draw: () throws(RendererError) -> Void
    ) throws(RendererError) {
        let isHeatmap: Bool
        if case .heatmap = layer.kind { isHeatmap = true } else { isHeatmap = false }
        if isHeatmap, index < opaquePassEnd, opaqueAbove[index] {
            cairo_push_group(cairo)
            try draw()
            guard let heatmap = cairo_pop_group(cairo) else { return }
            cairo_set_source(cairo, heatmap)
            cairo_paint(cairo)
            heatmaps.append(heatmap)
            return
        }
        guard index < opaque.count, opaque[index], !heatmaps.isEmpty else { return try draw() }
        cairo_push_group(cairo)
        try draw()
        guard let coverage = cairo_pop_group(cairo) else { return }
        defer { cairo_pattern_destroy(coverage) }
        cairo_set_source(cairo, coverage)
        cairo_paint(cairo)
        for heatmap in heatmaps {
            cairo_set_source(cairo, heatmap)
            cairo_mask(cairo, coverage)
        }
    }

    /// Releases the kept heatmaps.
    mutating func finish() {
        for heatmap in heatmaps { cairo_pattern_destroy(heatmap) }
        heatmaps = []
    }
}
