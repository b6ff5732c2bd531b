import Foundation
public import MapJSON
import MapUtilities

/// The properties of a `background` layer (MapLibre Style Specification, "Layers: background").
///
/// With no roads or water layers in the basemap, the background is the sea.
public struct BackgroundLayer: Hashable, Sendable {
    /// `background-color`. The default is black.
    public var color: StyleValue<Color> = .constant(.black)
    /// `background-opacity`, in [0, 1]. The default is 1.
    public var opacity: StyleValue<Double> = .constant(1)
    /// `background-pattern`: a sprite image repeated over the view instead of the colour; nil
    /// draws the colour. The default is nil.
    public var pattern: StyleValue<ResolvedImage>?

    public init() {}
}

/// The properties of a `fill` layer: filled polygons (MapLibre Style Specification, "Layers: fill").
public struct FillLayer: Hashable, Sendable {
    /// `fill-color`. The default is black.
    public var color: StyleValue<Color> = .constant(.black)
    /// `fill-opacity`, in [0, 1]. The default is 1.
    public var opacity: StyleValue<Double> = .constant(1)
    /// `fill-outline-color`, a one-pixel outline; nil means the fill colour, as the specification
    /// has it. The default is nil.
    public var outlineColor: StyleValue<Color>?
    /// `fill-antialias`: whether edges are smoothed and the outline drawn; a constant or a zoom
    /// function (OSM Bright smooths its woods from zoom 9). The default is true.
    public var antialias: StyleValue<Bool> = .constant(true)
    /// `fill-translate`, in points. The default is ``Translation/zero``.
    public var translate: StyleValue<Translation> = .constant(.zero)
    /// `fill-translate-anchor`. The default is map.
    public var translateAnchor: StyleValue<TranslateAnchor> = .constant(.map)
    /// `fill-sort-key`, a layout property: features with higher keys are drawn over lower ones;
    /// nil keeps the data order. The default is nil.
    public var sortKey: StyleValue<Double>?
    /// `fill-pattern`: a sprite image repeated inside the polygons instead of `fill-color`; nil
    /// draws the colour. The default is nil.
    public var pattern: StyleValue<ResolvedImage>?

    public init() {}
}

/// The properties of a `line` layer: stroked lines and polygon rings (MapLibre Style
/// Specification, "Layers: line").
public struct LineLayer: Hashable, Sendable {
    /// `line-color`. The default is black.
    public var color: StyleValue<Color> = .constant(.black)
    /// `line-width`, in points. The default is 1.
    public var width: StyleValue<Double> = .constant(1)
    /// `line-opacity`, in [0, 1]. The default is 1.
    public var opacity: StyleValue<Double> = .constant(1)
    /// `line-dasharray`: dash and gap lengths in multiples of the line width; nil is a solid
    /// line. The default is nil.
    public var dashArray: StyleValue<[Double]>?
    /// `line-cap`, a layout property. The default is butt.
    public var cap: StyleValue<LineCap> = .constant(.butt)
    /// `line-join`, a layout property. The default is miter.
    public var join: StyleValue<LineJoin> = .constant(.miter)
    /// `line-miter-limit`, a layout property: a miter join longer than this many line widths is
    /// drawn as a bevel. The default is 2.
    public var miterLimit: StyleValue<Double> = .constant(2)
    /// `line-round-limit`, a layout property: a round join whose miter is shorter than this many
    /// line widths is drawn as a miter, as MapLibre draws it. The default is 1.05.
    public var roundLimit: StyleValue<Double> = .constant(1.05)
    /// `line-offset`, in points: the line is drawn this far right of its direction (left when
    /// negative). The default is 0.
    public var offset: StyleValue<Double> = .constant(0)
    /// `line-gap-width`, in points: when positive, two lines of `line-width` are drawn either side
    /// of a gap this wide (a casing). The default is 0.
    public var gapWidth: StyleValue<Double> = .constant(0)
    /// `line-blur`, in points: how far the line fades out inwards from its edges. The default is 0.
    public var blur: StyleValue<Double> = .constant(0)
    /// `line-translate`, in points. The default is ``Translation/zero``.
    public var translate: StyleValue<Translation> = .constant(.zero)
    /// `line-translate-anchor`. The default is map.
    public var translateAnchor: StyleValue<TranslateAnchor> = .constant(.map)
    /// `line-gradient`: an expression of `["line-progress"]` colouring each line along its
    /// length (its source needs `lineMetrics`); it replaces `line-color`. The default is nil.
    public var gradient: StyleExpression?
    /// `line-sort-key`, a layout property: features with higher keys are drawn over lower ones;
    /// nil keeps the data order. The default is nil.
    public var sortKey: StyleValue<Double>?
    /// `line-pattern`: a sprite image repeated along the line, its height the line's width,
    /// instead of `line-color`; nil draws the colour. The default is nil.
    public var pattern: StyleValue<ResolvedImage>?

    public init() {}
}

/// The properties of a `symbol` layer: text labels and sprite icons (MapLibre Style
/// Specification, "Layers: symbol").
public struct SymbolLayer: Hashable, Sendable {
    /// The font Mapwright uses when a layer names none, shipped by the `fonts-dejavu-core` package.
    ///
    /// The specification's default is `["Open Sans Regular", "Arial Unicode MS Regular"]`, fonts
    /// a Linux server rarely has; DejaVu Sans is what the setup script installs.
    public static let defaultFont = ["DejaVu Sans Book"]

    /// `text-field`, the label text; nil draws no label. The default is nil.
    public var textField: TextField?
    /// `text-size`, in points. The default is 16.
    public var textSize: StyleValue<Double> = .constant(16)
    /// `text-font`: font names, the first available one used (for Pango, "family style"). The
    /// default is ``defaultFont``.
    public var textFont: StyleValue<[String]> = .constant(SymbolLayer.defaultFont)
    /// `text-max-width`: the width at which a label wraps, in ems. The default is 10.
    public var textMaxWidth: StyleValue<Double> = .constant(10)
    /// `text-transform`. The default is none.
    public var textTransform: StyleValue<TextTransform> = .constant(.none)
    /// `text-letter-spacing`, in ems. The default is 0.
    public var textLetterSpacing: StyleValue<Double> = .constant(0)
    /// `symbol-sort-key`: labels with lower keys are placed first and win collisions; nil keeps
    /// the data order. The default is nil.
    public var sortKey: SymbolSortKey?
    /// `symbol-z-order`: the order the layer's symbols are drawn in. The default is auto.
    public var zOrder: StyleValue<SymbolZOrder> = .constant(.auto)
    /// `symbol-avoid-edges`: a symbol is placed only where it lies wholly inside the source
    /// tile its anchor is in (512-point tiles at the whole zoom below the style's, as GL lays
    /// symbols out tile by tile). The default is false.
    public var avoidEdges: StyleValue<Bool> = .constant(false)
    /// `symbol-placement`: at points, or along lines. The default is point.
    public var placement: StyleValue<SymbolPlacement> = .constant(.point)
    /// `symbol-spacing`: the distance between labels repeated along a line, in points. The
    /// default is 250.
    public var spacing: StyleValue<Double> = .constant(250)
    /// `text-color`. The default is black.
    public var textColor: StyleValue<Color> = .constant(.black)
    /// `text-opacity`, in [0, 1]. The default is 1.
    public var textOpacity: StyleValue<Double> = .constant(1)
    /// `text-halo-color`. The default is transparent.
    public var textHaloColor: StyleValue<Color> = .constant(.transparent)
    /// `text-halo-width`: the halo's distance from the glyph outline, in points. The default is 0.
    public var textHaloWidth: StyleValue<Double> = .constant(0)
    /// `text-anchor`: which part of the text sits at the anchor. The default is center.
    public var textAnchor: StyleValue<SymbolAnchor> = .constant(.center)
    /// `text-offset`: the text moved from its anchor, in ems. The default is
    /// ``Translation/zero``.
    public var textOffset: StyleValue<Translation> = .constant(.zero)
    /// `text-justify`: how lines line up. The default is center.
    public var textJustify: StyleValue<TextJustify> = .constant(.center)
    /// `text-variable-anchor`: the anchors tried in turn, the text placed at the first where it
    /// fits (overriding `text-anchor`). The default is none (`[]`): `text-anchor` alone.
    public var textVariableAnchor: StyleValue<[SymbolAnchor]> = .constant([])
    /// `text-radial-offset`: with `text-variable-anchor`, the distance from the anchor to the
    /// text's nearest edge, in ems; nil (the default) when the layer does not set it, and
    /// `text-offset` is then taken as distances along x and y (as absolute values).
    public var textRadialOffset: StyleValue<Double>?
    /// `text-variable-anchor-offset`: anchors to try in turn, each with its own offset in ems,
    /// as `[anchor, [x, y], anchor, [x, y], ...]`; it overrides `text-variable-anchor`,
    /// `text-radial-offset` and `text-offset`. The default is none.
    public var textVariableAnchorOffset: [VariableAnchorOffset] = []
    /// `text-writing-mode`: for text at points, the ways of writing it tried in turn, the
    /// label written in the first that fits; ``TextWritingMode/vertical`` applies to text with
    /// characters that stand upright in vertical writing (CJK). The default is none (`[]`):
    /// horizontal. Lines' labels switch to vertical writing on steep stretches whatever it says.
    public var textWritingMode: StyleValue<[TextWritingMode]> = .constant([])
    /// `text-line-height`, in ems. The default is 1.2.
    public var textLineHeight: StyleValue<Double> = .constant(1.2)
    /// `text-rotate`, in degrees clockwise. The default is 0.
    public var textRotate: StyleValue<Double> = .constant(0)
    /// `text-translate`: the text moved, in points right and down, when drawn (not for
    /// collisions, as in GL). The default is ``Translation/zero``.
    public var textTranslate: StyleValue<Translation> = .constant(.zero)
    /// `text-translate-anchor`: whether the translation turns with the map. The default is map.
    public var textTranslateAnchor: StyleValue<TranslateAnchor> = .constant(.map)
    /// `text-max-angle`: the most a line may turn under a label along it, in degrees, within
    /// three fifths of an em. The default is 45.
    public var textMaxAngle: StyleValue<Double> = .constant(45)
    /// `text-keep-upright`: a label along a line is flipped rather than drawn upside down. The
    /// default is true.
    public var textKeepUpright: StyleValue<Bool> = .constant(true)
    /// `text-rotation-alignment`: text along lines follows them and text at points turns with
    /// the map (`map`), or stands upright in the view at its anchors (`viewport`, road shields'
    /// numbers). The default is auto: map along lines, viewport at points.
    public var textRotationAlignment: StyleValue<SymbolRotationAlignment> = .constant(.auto)
    /// `text-pitch-alignment`: read and kept; text faces the viewer (see ``SymbolPitchAlignment``).
    /// The default is auto.
    public var textPitchAlignment: StyleValue<SymbolPitchAlignment> = .constant(.auto)
    /// `text-halo-blur`: how far the halo fades out, in points. The default is 0.
    public var textHaloBlur: StyleValue<Double> = .constant(0)
    /// `text-padding`: the room kept free round the text's box against other symbols, in
    /// points, under MapLibre's placement rules (``MapwrightMetadata/Labels/Placement``). The
    /// default is 2.
    public var textPadding: StyleValue<Double> = .constant(2)
    /// `text-allow-overlap`: the text is drawn even where it collides. The default is false.
    public var textAllowOverlap: StyleValue<Bool> = .constant(false)
    /// `text-ignore-placement`: other symbols may be drawn over the text. The default is false.
    public var textIgnorePlacement: StyleValue<Bool> = .constant(false)
    /// `text-optional`: the icon is drawn without its text when the text collides. The default
    /// is false.
    public var textOptional: StyleValue<Bool> = .constant(false)

    /// `icon-image`: the sprite image drawn at the symbol, a name with `{token}` templates or an
    /// expression; nil (or an empty name) draws no icon. The default is nil.
    public var iconImage: TextField?
    /// `icon-size`: a factor on the image's own size (its pixels over its pixel ratio). The
    /// default is 1.
    public var iconSize: StyleValue<Double> = .constant(1)
    /// `icon-rotate`, in degrees clockwise. The default is 0.
    public var iconRotate: StyleValue<Double> = .constant(0)
    /// `icon-offset`: the icon moved from its anchor, in the image's points times `icon-size`.
    /// The default is ``Translation/zero``.
    public var iconOffset: StyleValue<Translation> = .constant(.zero)
    /// `icon-anchor`: which part of the icon sits at the anchor. The default is center.
    public var iconAnchor: StyleValue<SymbolAnchor> = .constant(.center)
    /// `icon-padding`: the room kept free round the icon's box against other symbols, in
    /// points, under MapLibre's placement rules. The default is 2.
    public var iconPadding: StyleValue<Double> = .constant(2)
    /// `icon-text-fit`: the icon stretched round the text. The default is none.
    public var iconTextFit: StyleValue<IconTextFit> = .constant(.none)
    /// `icon-text-fit-padding`: room added round the text when fitting, in points: top, right,
    /// bottom, left. The default is [0, 0, 0, 0].
    public var iconTextFitPadding: StyleValue<[Double]> = .constant([0, 0, 0, 0])
    /// `icon-allow-overlap`: the icon is drawn even where it collides. The default is false.
    public var iconAllowOverlap: StyleValue<Bool> = .constant(false)
    /// `icon-ignore-placement`: other symbols may be drawn over the icon. The default is false.
    public var iconIgnorePlacement: StyleValue<Bool> = .constant(false)
    /// `icon-optional`: the text is drawn without its icon when the icon collides. The default
    /// is false.
    public var iconOptional: StyleValue<Bool> = .constant(false)
    /// `icon-keep-upright`: an icon turned along a line is flipped rather than drawn upside
    /// down. The default is false.
    public var iconKeepUpright: StyleValue<Bool> = .constant(false)
    /// `icon-rotation-alignment`: icons along lines turn with them (`map`, and `auto` there) or
    /// stay upright (`viewport`). The default is auto.
    public var iconRotationAlignment: StyleValue<SymbolRotationAlignment> = .constant(.auto)
    /// `icon-pitch-alignment`: read and kept; icons face the viewer (see ``SymbolPitchAlignment``).
    /// The default is auto.
    public var iconPitchAlignment: StyleValue<SymbolPitchAlignment> = .constant(.auto)
    /// `icon-opacity`, in [0, 1]. The default is 1.
    public var iconOpacity: StyleValue<Double> = .constant(1)
    /// `icon-color`: the colour of an SDF icon (others keep their pixels). The default is black.
    public var iconColor: StyleValue<Color> = .constant(.black)
    /// `icon-halo-color`: an SDF icon's halo. The default is transparent.
    public var iconHaloColor: StyleValue<Color> = .constant(.transparent)
    /// `icon-halo-width`: an SDF icon's halo, in points out from its edge. The default is 0.
    public var iconHaloWidth: StyleValue<Double> = .constant(0)
    /// `icon-halo-blur`: how far the halo fades out, in points. The default is 0.
    public var iconHaloBlur: StyleValue<Double> = .constant(0)
    /// `icon-translate`: the icon moved, in points right and down. The default is
    /// ``Translation/zero``.
    public var iconTranslate: StyleValue<Translation> = .constant(.zero)
    /// `icon-translate-anchor`: whether the translation turns with the map. The default is map.
    public var iconTranslateAnchor: StyleValue<TranslateAnchor> = .constant(.map)

    public init() {}

    /// The text to draw for a feature at a zoom level, transformed by `text-transform`, or nil
    /// when there is none (no `text-field`, or the properties it reads are missing or empty). A
    /// `format` label of images alone is one object replacement character (U+FFFC) per image:
    /// its sections (``labelSections(for:atZoom:)``) say what to draw.
    public func label(for properties: [String: FeatureValue], atZoom zoom: Double) -> String? {
        guard let textField else { return nil }
        let text = textField.text(for: properties, zoom: zoom).trimmingWhiteSpace()
        guard !text.isEmpty else {
            let images =
                textField.formatted(for: properties, zoom: zoom)?.sections.filter { $0.image != nil }.count ?? 0
            return images > 0 ? String(repeating: "\u{FFFC}", count: images) : nil
        }
        return textTransform.value(atZoom: zoom).apply(to: text)
    }

    /// The `format` sections of a feature's label, each transformed by `text-transform`, when
    /// some section is styled apart (its own `font-scale`, `text-font` or `text-color`) or is an
    /// image; nil otherwise (``label(for:atZoom:)`` then says it all).
    public func labelSections(for properties: [String: FeatureValue], atZoom zoom: Double) -> [FormattedText.Section]? {
        guard let formatted = textField?.formatted(for: properties, zoom: zoom),
            formatted.sections.contains(where: {
                $0.scale != nil || $0.fontStack != nil || $0.textColor != nil || $0.image != nil
            })
        else { return nil }
        let transform = textTransform.value(atZoom: zoom)
        return formatted.sections.map { section in
            var section = section
            section.text = transform.apply(to: section.text)
            return section
        }
    }

    /// The name of the icon to draw for a feature at a zoom level, or nil when there is none.
    public func iconName(for properties: [String: FeatureValue], atZoom zoom: Double) -> String? {
        guard let iconImage else { return nil }
        let name = iconImage.text(for: properties, zoom: zoom)
        return name.isEmpty ? nil : name
    }
}

/// A symbol layer's `symbol-sort-key`: a constant or a numeric feature property.
public enum SymbolSortKey: Hashable, Sendable {
    /// The same key for every feature.
    case constant(Double)
    /// `["get", key]`: the feature's numeric property; features without a number sort last.
    case property(String)
    /// Any other expression giving a number.
    case expression(StyleExpression)

    /// The key for a feature, or nil when the property is missing or not a number.
    public func value(for properties: [String: FeatureValue], zoom: Double = 0) -> Double? {
        switch self {
        case .constant(let value):
            return value
        case .property(let key):
            if case .number(let value) = properties[key] { return value }
            return nil
        case .expression(let expression):
            return expression.evaluate(in: ExpressionContext(zoom: zoom, properties: properties)).number
        }
    }
}

/// The properties of a `circle` layer: a filled circle at each point, and at each vertex of lines
/// and polygons, as MapLibre draws them (MapLibre Style Specification, "Layers: circle").
public struct CircleLayer: Hashable, Sendable {
    /// `circle-radius`, in points. The default is 5.
    public var radius: StyleValue<Double> = .constant(5)
    /// `circle-color`. The default is black.
    public var color: StyleValue<Color> = .constant(.black)
    /// `circle-opacity`, in [0, 1]. The default is 1.
    public var opacity: StyleValue<Double> = .constant(1)
    /// `circle-blur`: how far the circle fades out towards its edge, as a share of its radius
    /// (1 fades from the centre). The default is 0.
    public var blur: StyleValue<Double> = .constant(0)
    /// `circle-stroke-width`, in points, drawn outside the radius. The default is 0.
    public var strokeWidth: StyleValue<Double> = .constant(0)
    /// `circle-stroke-color`. The default is black.
    public var strokeColor: StyleValue<Color> = .constant(.black)
    /// `circle-stroke-opacity`, in [0, 1]. The default is 1.
    public var strokeOpacity: StyleValue<Double> = .constant(1)
    /// `circle-translate`, in points. The default is ``Translation/zero``.
    public var translate: StyleValue<Translation> = .constant(.zero)
    /// `circle-translate-anchor`. The default is map.
    public var translateAnchor: StyleValue<TranslateAnchor> = .constant(.map)
    /// `circle-pitch-scale`. The default is map.
    public var pitchScale: StyleValue<CirclePitchScale> = .constant(.map)
    /// `circle-pitch-alignment`. The default is viewport.
    public var pitchAlignment: StyleValue<CirclePitchAlignment> = .constant(.viewport)
    /// `circle-sort-key`, a layout property: features with higher keys are drawn over lower
    /// ones; nil keeps the data order. The default is nil.
    public var sortKey: StyleValue<Double>?

    public init() {}
}
