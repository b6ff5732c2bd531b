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
    case heatmap
    case fillExtrusion = "fill-extrusion"
}
