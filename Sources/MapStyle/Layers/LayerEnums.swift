/// The display of line endings, `line-cap` (MapLibre Style Specification, "Layers: line").
///
/// The default is ``butt``.
public enum LineCap: String, StyleValueType, CaseIterable {
    case butt, round, square
}

/// The display of lines where they join, `line-join` (MapLibre Style Specification, "Layers: line").
///
/// The default is ``miter``.
public enum LineJoin: String, StyleValueType, CaseIterable {
    case bevel, round, miter
}

/// Case conversion of label text, `text-transform` (MapLibre Style Specification, "Layers: symbol").
///
/// The default is ``none``.
public enum TextTransform: String, StyleValueType, CaseIterable {
    case none, uppercase, lowercase

    /// The text converted.
    public func apply(to text: String) -> String {
        switch self {
        case .none: return text
        case .uppercase: return text.uppercased()
        case .lowercase: return text.lowercased()
        }
    }
}

/// Where a symbol layer puts its labels, `symbol-placement` (MapLibre Style Specification,
/// "Layers: symbol").
///
/// The default is ``point``.
public enum SymbolPlacement: String, StyleValueType, CaseIterable {
    /// At the feature's point, or inside its largest polygon.
    case point
    /// Along lines (street names), repeated every `symbol-spacing` points, never upside down.
    case line
    /// Once, at the middle of each line.
    case lineCenter = "line-center"
}

/// Whether a layer is drawn, the `visibility` layout property (MapLibre Style Specification,
/// "Layers: layout").
///
/// The default is ``visible``.
public enum Visibility: String, Hashable, Sendable, CaseIterable {
    case visible, none
}

/// The kind of a layer, its `type` (MapLibre Style Specification, "Layers: type"), within
/// Mapwright's subset.
public enum LayerType: String, Hashable, Sendable, CaseIterable {
    case background, fill, line, symbol, raster, circle
    case hillshade
    case heatmap
    case fillExtrusion = "fill-extrusion"
}

/// What a `*-translate` is relative to, `fill-translate-anchor`, `line-translate-anchor` and
/// `circle-translate-anchor` (MapLibre Style Specification, "Layers").
///
/// The default is ``map``.
public enum TranslateAnchor: String, StyleValueType, CaseIterable {
    /// The translation turns with the map's bearing.
    case map
    /// The translation is along the screen's axes, whatever the bearing.
    case viewport
}

/// How a pitched view scales circles, `circle-pitch-scale` (MapLibre Style Specification,
/// "Layers: circle").
///
/// The default is ``map``.
public enum CirclePitchScale: String, StyleValueType, CaseIterable {
    /// Circles far away are drawn smaller, as the map is.
    case map
    /// Circles keep their size in pixels.
    case viewport
}

/// What plane a pitched view draws circles in, `circle-pitch-alignment` (MapLibre Style
/// Specification, "Layers: circle").
///
/// The default is ``viewport``.
public enum CirclePitchAlignment: String, StyleValueType, CaseIterable {
    /// Circles lie flat on the map.
    case map
    /// Circles face the viewer.
    case viewport
}

/// Which part of an icon (or text) sits at its anchor, `icon-anchor` and `text-anchor`
/// (MapLibre Style Specification, "Layers: symbol").
///
/// The default is ``center``.
public enum SymbolAnchor: String, StyleValueType, CaseIterable {
    case center, left, right, top, bottom
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"

    /// The share of the width left of the anchor (0 for `left`, 0.5 centred, 1 for `right`).
    public var horizontalAlignment: Double {
        switch self {
        case .left, .topLeft, .bottomLeft: return 0
        case .right, .topRight, .bottomRight: return 1
        case .center, .top, .bottom: return 0.5
        }
    }

    /// The share of the height above the anchor (0 for `top`, 0.5 centred, 1 for `bottom`).
    public var verticalAlignment: Double {
        switch self {
        case .top, .topLeft, .topRight: return 0
        case .bottom, .bottomLeft, .bottomRight: return 1
        case .center, .left, .right: return 0.5
        }
    }
}

/// How an icon or text turns, `icon-rotation-alignment` and `text-rotation-alignment`
/// (MapLibre Style Specification, "Layers: symbol"): with the map (along its line, for line
/// placement) or upright in the view.
///
/// The default is ``auto``: ``map`` for line placement, ``viewport`` at points.
/// ``viewportGlyph`` (text only) sets each glyph upright along its line; Mapwright draws it as
/// ``map``.
public enum SymbolRotationAlignment: String, StyleValueType, CaseIterable {
    case map, viewport, auto
    case viewportGlyph = "viewport-glyph"
}

/// How an icon is stretched round its text, `icon-text-fit` (MapLibre Style Specification,
/// "Layers: symbol"): not at all (``none``, the default), to the text's width, height or both,
/// plus `icon-text-fit-padding`; the image's `stretchX`/`stretchY` zones take the stretch and its
/// `content` box is what fits the text, as road shields are drawn.
public enum IconTextFit: String, StyleValueType, CaseIterable {
    case none, width, height, both
}

/// Which plane a symbol lies in when the map is pitched, `icon-pitch-alignment` and
/// `text-pitch-alignment` (MapLibre Style Specification, "Layers: symbol"): on the map, or facing
/// the viewer. The default is ``auto``: the rotation alignment's. Mapwright draws every symbol
/// facing the viewer (``viewport``), as a static renderer of labels on pitched maps reads best;
/// `map` is read and kept.
public enum SymbolPitchAlignment: String, StyleValueType, CaseIterable {
    case map, viewport, auto
}

/// How the lines of a label line up, `text-justify` (MapLibre Style Specification, "Layers:
/// symbol").
///
/// The default is ``center``. ``auto`` justifies towards the anchor: left for an anchor on the
/// left, right for one on the right, centred otherwise.
public enum TextJustify: String, StyleValueType, CaseIterable {
    case auto, left, center, right
}

/// A way of writing a label, `text-writing-mode` (MapLibre Style Specification, "Layers:
/// symbol"): in lines (``horizontal``) or in columns read from the top, right to left, each
/// character upright (``vertical``, for CJK text at points).
public enum TextWritingMode: String, StyleValueType, CaseIterable {
    case horizontal, vertical
}

/// One entry of `text-variable-anchor-offset`: an anchor and the text's offset from it, in ems.
public struct VariableAnchorOffset: Hashable, Sendable {
    public var anchor: SymbolAnchor
    public var offsetEms: Translation

    public init(anchor: SymbolAnchor, offsetEms: Translation) {
        self.anchor = anchor
        self.offsetEms = offsetEms
    }
}

/// The order symbols of one layer are drawn in, `symbol-z-order` (MapLibre Style Specification,
/// "Layers: symbol").
///
/// The default is ``auto``: by `symbol-sort-key` when the layer has one, else, when its symbols
/// may overlap (any `*-allow-overlap` or `*-ignore-placement`), by their height in the view,
/// lower ones over higher ones; else in the order they were placed.
public enum SymbolZOrder: String, StyleValueType, CaseIterable {
    case auto
    case viewportY = "viewport-y"
    case source
}
